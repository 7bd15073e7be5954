"""The command line: every headless feature of Run Inspector is reachable from here.

This module is kept tiny on purpose: it is the first of ours a command imports, so a Ctrl-C
that lands while the rest loads is caught here and ends like any other cancel.
"""

from __future__ import annotations

import sys

#: Python dropped the KeyboardInterrupt of a Ctrl-C (:func:`run` notes it): raised inside a callback
#: of the import machinery while the command loaded, it was printed as "Exception ignored ...
#: KeyboardInterrupt" and the command went on, so an operation started anyway and hung on a stalled
#: server. An operation that begins after such a Ctrl-C begins cancelled
#: (:class:`.operations.EarlyInterrupt`).
interrupted_while_loading = False


def _unraisable(unraisable: object) -> None:
    global interrupted_while_loading
    if isinstance(getattr(unraisable, "exc_value", None), KeyboardInterrupt):
        interrupted_while_loading = True  # a Ctrl-C, not an error: nothing printed
        return
    sys.__unraisablehook__(unraisable)  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["--version"]:
        # Answered before the parser loads (Babel, argparse's words): a packager's check must be instant.
        from .ending import wants_json
        from .reader_gone import EXIT_READER_GONE, quiet_stdout
        from .version_option import print_version

        try:
            print_version(wants_json(argv))
        except BrokenPipeError:  # `--version | head -c 1`: its only output, cut short, as cat's would be
            quiet_stdout()
            return EXIT_READER_GONE
        return 0
    try:
        from .app import run_command

        return run_command(argv)
    except KeyboardInterrupt:
        return _interrupted(argv)
    except RuntimeError as exc:
        # Python 3.11 wraps what a descriptor's __set_name__ raises while a class is made: a Ctrl-C
        # landing while a dataclass of ours loads arrives as "Error calling __set_name__".
        if isinstance(exc.__cause__, KeyboardInterrupt):
            return _interrupted(argv)
        raise


def _interrupted(argv: list[str]) -> int:
    # Loading was interrupted: nothing was asked of any server and nothing was stored.
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C must not print a traceback here
    from .ending import end_cancelled

    return end_cancelled(argv)


def run() -> None:
    """The ``run-inspector`` command and ``python -m inspector``: exit with :func:`main`'s status.

    Once the command has ended, a Ctrl-C changes nothing: Python gives SIGINT back its default
    action (kill) while it finalizes, so a late Ctrl-C would turn a finished command's status into
    "killed by a signal"; ignoring it keeps the status the command chose. How the process starts and
    ends (collection, the fast exit) is :mod:`.process`'s.
    """
    sys.unraisablehook = _unraisable
    from .process import ending, starting

    starting()
    status = main()
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    ending(status)


if __name__ == "__main__":  # pragma: no cover
    run()
