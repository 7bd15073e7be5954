"""The command line: every headless feature of Run Inspector is reachable from here."""

from __future__ import annotations

import argparse
import os
import sys

from .common import EXIT_CANCELLED, EXIT_OK, UsageError, fail
from .parser import DEMOS, OPERATIONS, build_parser


def file_to_open(argv: list[str]) -> tuple[str | None, list[str]]:
    """``run-inspector [--db PATH] FILE``: the trace file to open in the window, and the other
    arguments; ``(None, argv)`` when the first word is a command (or there is none)."""
    parser = build_parser()
    commands = next(action.choices for action in parser._actions
                    if isinstance(action, argparse._SubParsersAction))
    skip = False
    for position, word in enumerate(argv):
        if skip:
            skip = False
            continue
        if word == "--db":
            skip = True
            continue
        if word.startswith("-"):
            continue
        if word in commands:
            return None, argv
        return word, argv[:position] + argv[position + 1:]
    return None, argv


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    try:
        argv = list(sys.argv[1:] if argv is None else argv)
        path, rest = file_to_open(argv)
        if path is not None and not os.path.isfile(path):
            if not (os.sep in path or os.path.splitext(path)[1]):
                path = None  # a mistyped command: the parser names the commands there are
            else:
                raise UsageError(f"There is no file {path!r} to open: name a trace file to open in the window, "
                                 "or a command (see run-inspector --help).")
        if path is not None:
            argv = rest
        args = build_parser().parse_args(argv)
        if args.command is None:
            from inspector.gui.app import run_window

            return run_window(args.window_db, open_file=path)
        # Imported on demand: `runs show` should not pay for the network stack, nor `call` for more.
        if args.command in OPERATIONS:
            from . import operations

            return operations.run(args)
        if args.command in DEMOS:
            from . import demos

            return demos.run(args)
        if args.command in ("export", "import"):
            from . import traces

            return traces.run(args)
        from . import runs

        return runs.run(args)
    except UsageError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:  # outside an operation (e.g. a long `runs show`): just stop
        return EXIT_CANCELLED
    except BrokenPipeError:  # `runs show ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
