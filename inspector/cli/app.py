"""Parse the command line and run one command; every way it can end is reported here."""

from __future__ import annotations

import argparse
import errno
import os
import sqlite3
import sys
from types import ModuleType

from inspector.i18n import N_, _
from inspector.i18n.messages import Message, translate

from .common import (
    EXIT_FAILED,
    EXIT_USAGE,
    CommandError,
    UsageError,
    check_database_folder,
    database_fault,
)
from .ending import begin_command, end_cancelled, end_with_error, fit_output, json_emitted, wants_json
from .language import LanguageOptionError, apply_language
from .missing_words import check_given
from .parser import CAPTURE, DEMOS, OFFERING_COMMANDS, OPERATIONS, build_parser
from .process import loaded
from .sampling_option import with_bare_flag_counted
from .stopping import stops_given_back
from .whole_output import whole_stdout

#: Said on stderr when Ctrl-C stops a command outside an operation (the JSON object's message, in English).
CANCELLED = Message(N_("Cancelled (Ctrl-C) before the command had done its work."))


def file_to_open(argv: list[str], parser: argparse.ArgumentParser | None = None) -> tuple[str | None, list[str]]:
    """``run-inspector [--db PATH] FILE``: the trace file to open in the window, and the other
    arguments; ``(None, argv)`` when the first word is a command (or there is none). ``parser`` is
    the command line's parser when the caller has built it already (building it costs milliseconds)."""
    parser = parser or build_parser()
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


def run_command(argv: list[str]) -> int:
    """Run one command; return the exit status. With ``--json`` every ending prints one JSON object.

    Without a command the window opens (``run-inspector FILE``: and imports the trace FILE)."""
    begin_command()
    whole_stdout()
    fit_output()
    as_json = wants_json(argv)
    args: argparse.Namespace | None = None
    typed = list(argv)  # a credential typed in it is never repeated (typed_secrets)
    try:
        language, argv = apply_language(argv)
    except LanguageOptionError as exc:
        from .typed_secrets import masked

        return end_with_error("usage", masked(str(exc), typed), EXIT_USAGE, as_json)
    try:
        parser = build_parser(argv)
        parser.json_wanted = as_json
        path, rest = file_to_open(argv, parser)
        if path is not None and not os.path.isfile(path):
            if os.path.isdir(path):
                raise UsageError(Message(N_("{path} is a folder, not a trace file: name a trace file to open in "
                                            "the window, or a command (see run-inspector --help)."),
                                         {"path": repr(path)}))
            if os.path.exists(path):  # /dev/zero, a named pipe: never read (it could wait or run forever)
                raise UsageError(Message(N_("{path} is not a regular file (a device, a named pipe or a socket): "
                                            "save the trace to a file and open that."), {"path": repr(path)}))
            from inspector.mcp.address_query import carries_typed_secret, names_a_file

            # An address typed without http://, its password or query not repeated; not a file's path that holds
            # "?" or "#" (exports/run#v=2.json): that one is said missing, below.
            if carries_typed_secret(path) and not names_a_file(path):
                raise UsageError(_address_first(f"http://{path}"))
            if not (os.sep in path or os.path.splitext(path)[1]):
                path = None  # a mistyped command: the parser names the commands there are
            elif "://" in path:
                raise UsageError(_address_first(path))
            else:
                raise UsageError(Message(N_("There is no file {path} to open: name a trace file to open in the "
                                            "window, or a command (see run-inspector --help)."),
                                         {"path": repr(path)}))
        if path is not None:
            argv = rest
        args = parser.parse_args(with_bare_flag_counted(argv))
        as_json = bool(getattr(args, "json", False))
        _refuse_empty_db(args)
        if args.command is None:
            from inspector.gui.app import run_window

            loaded()
            return run_window(args.window_db, open_file=path, language=language)
        _lend_window_db(args)
        if hasattr(args, "db"):
            check_database_folder(args.db)
        check_given(args)  # a word the command needs and was not given: said with how to write it
        command = _command_module(args.command)
        loaded()
        with stops_given_back():  # a command whose work is done holds them (stopping.work_done)
            return _run_to_its_reader(command, args)
    except CommandError as exc:
        from .abbreviations import read_as
        from .typed_secrets import masked

        if isinstance(exc, UsageError) and (notes := read_as(exc, args)):
            from inspector.store.keyring_words import Sentences

            exc = UsageError(Sentences((exc.sentence, *notes)))
        return end_with_error(exc.kind, masked(str(exc), typed), exc.exit_status, as_json, masked(exc.shown(), typed))
    except EOFError:  # Ctrl-D at a prompt we did not expect to end
        ended = Message(N_("The input ended (Ctrl-D) before an answer was given; nothing was done."))
        return end_with_error("bad_input", str(ended), EXIT_USAGE, as_json, translate(ended))
    except KeyboardInterrupt:  # outside an operation (e.g. a long `runs show`): stop, and say so
        print(_("run-inspector: {sentence}").format(sentence=translate(CANCELLED)), file=sys.stderr)
        return end_cancelled(argv, as_json)
    except sqlite3.DatabaseError as exc:
        # Pages found damaged (or a lock held too long, or a file that can only be read) after the
        # database opened, mid-command.
        fault = database_fault(args, exc)
        if fault is None:
            _internal_error(args, exc, as_json)
            raise
        return end_with_error(fault.kind, str(fault), fault.exit_status, as_json, fault.shown())
    except UnicodeEncodeError as exc:
        if "surrogates not allowed" not in str(exc):
            _internal_error(args, exc, as_json)
            raise
        # A word of the command line that is not text: bytes that are not UTF-8, or UTF-8 read under a
        # locale that cannot say it (LANG=C with Python's UTF-8 mode turned off). It cannot be stored.
        unreadable = Message(N_("A word of the command line is not text here (bytes that are not UTF-8, or a locale "
                                "such as LANG=C that does not read UTF-8), so it cannot be stored. Use a UTF-8 "
                                "locale (e.g. LANG=C.UTF-8)."))
        return end_with_error("bad_input", str(unreadable), EXIT_USAGE, as_json, translate(unreadable))
    except BrokenPipeError:  # `runs show ... | head`: its output (its work) cut short by the reader, as cat's would be
        from .reader_gone import EXIT_READER_GONE, quiet_stdout

        quiet_stdout()
        return EXIT_READER_GONE
    except OSError as exc:
        if not _output_failed(exc):
            _internal_error(args, exc, as_json)
            raise
        # `runs show 5 > /mnt/full/out.txt`: the output was not written whole, and no JSON object can be.
        from inspector.i18n.os_reasons import os_reason

        print(translate(Message(N_("run-inspector: the output could not be written ({reason}); what was written of "
                                   "it is incomplete."), {"reason": os_reason(exc)})), file=sys.stderr)
        return EXIT_FAILED
    except Exception as exc:
        _internal_error(args, exc, as_json)
        raise


#: What writing standard output fails with when it goes to a file: a full disk or quota, a file too
#: large, a device error. A file of ours failing so says so where it is written (export, import).
_OUTPUT_FAULTS = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO)


def _output_failed(exc: OSError) -> bool:
    """Whether ``exc`` is standard output failing (``> /mnt/full/out.txt``); then what is left of it is
    sent nowhere, so that the ending's flush does not fail again."""
    if exc.errno not in _OUTPUT_FAULTS or exc.filename is not None:
        return False
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return True


def _internal_error(args: argparse.Namespace | None, exc: Exception, as_json: bool) -> None:
    """A fault of ours: the traceback is for the bug report, the JSON object is still owed."""
    if as_json and not json_emitted():
        internal = Message(N_("An internal error stopped the command ({name}); please report it with the "
                              "traceback below."), {"name": type(exc).__name__})
        end_with_error("internal", str(internal), EXIT_FAILED, True, translate(internal))
    _log_internal_error(args, exc)


def _command_module(command: str) -> ModuleType:
    """The module that runs ``command``, imported on demand: `runs show` should not pay for the
    network stack, nor `call` for more."""
    if command in OPERATIONS or command in OFFERING_COMMANDS:
        from . import operations

        return operations
    if command == "replay":
        from . import replay

        return replay
    if command in ("signin", "signout"):
        from . import signin

        return signin
    if command in CAPTURE:
        from . import proxy

        return proxy
    if command in DEMOS:
        from . import demos

        return demos
    if command in ("export", "import"):
        from . import traces

        return traces
    if command == "receive":
        from . import receive

        return receive
    if command == "compare":
        from . import comparing

        return comparing
    if command == "servers":
        from . import servers

        return servers
    from . import runs

    return runs


def _log_internal_error(args: argparse.Namespace | None, error: Exception) -> None:
    """Keep the traceback in the log file (scrubbed of secrets), and say where it is."""
    from inspector.logfile import log_unexpected

    command = getattr(args, "command", None) or "?"
    written = log_unexpected(f"Internal error in the command: run-inspector {command}", error)
    if written is not None:
        print(translate(Message(N_("run-inspector: the traceback is also in the log file {path}"),
                                {"path": str(written)})), file=sys.stderr)



def _refuse_empty_db(args: argparse.Namespace) -> None:
    """`--db ""` (in a script, `--db "$DB"` with DB unset) named no database: it is refused, not taken for
    the default one, where an import or a call would silently store its runs."""
    if "" in (args.window_db, getattr(args, "group_db", None), getattr(args, "db", None)):
        raise UsageError(Message(N_("--db was given an empty path (in a script, a variable that is not set?): name "
                                    "the run database, or leave --db out to use the default one.")))


def _run_to_its_reader(command: ModuleType, args: argparse.Namespace) -> int:
    """Run ``command``, its output's reader going away as reader_gone says: a command whose output is its work
    is cut short (its status 141, from run_command), any other goes on and ends with its own status."""
    from .reader_gone import outcome_not_output, output_is_the_work

    sub_command = getattr(args, "runs_command", None) or getattr(args, "servers_command", None) \
        or ("--list" if getattr(args, "list", False) else None)  # `scenario --list`: it plays nothing
    if output_is_the_work(args.command, sub_command):
        status = command.run(args)
        sys.stdout.flush()  # written in blocks: a reader gone is found here when the output was short
        return status
    with outcome_not_output():
        return command.run(args)


def _lend_window_db(args: argparse.Namespace) -> None:
    """`run-inspector --db PATH call ...` and `runs --db PATH list` mean the same database as `call ... --db PATH`.

    The --db before the sub-command is parsed as the window's (or the group's: cli/parser.py's
    group_db_option); silently ignoring it for a sub-command would read from, and store runs in,
    another database than the one the user named.
    """
    # In the order they stand on the line: before the command, before the group's sub-command, the command's own.
    named = [path for path in (args.window_db, getattr(args, "group_db", None), getattr(args, "db", None))
             if path is not None]
    if not named:
        return
    if not hasattr(args, "db"):
        if args.command == "serve-demo":
            raise UsageError(Message(N_("serve-demo keeps no runs, so --db has no meaning for it; leave it out.")))
        return  # e.g. `runs` without list/show: its own usage error says what is missing
    other = next((path for path in named if path != named[0]), None)
    if other is not None:
        raise UsageError(Message(N_("Two run databases were named (--db {first} and --db {second}); name one."),
                                 {"first": named[0], "second": other}))
    args.db = named[0]


def _address_first(address: str) -> Message:
    """What to say of a server's address given where a trace file or a command goes: the command it needs,
    the address shown without a password or a query (a key in either)."""
    from inspector.mcp.address_query import address_to_quote

    return Message(N_("{address} is a server's address, not a trace file: name a command before it, e.g. "
                      "run-inspector tools {address} (see run-inspector --help)."),
                   {"address": address_to_quote(address)})
