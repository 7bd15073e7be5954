"""What every command shares: errors and exit statuses, opening the store, safe printing."""

from __future__ import annotations

import argparse
import errno
import os
import re
import sqlite3
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from .ending import EXIT_CANCELLED, EXIT_FAILED, EXIT_OK, EXIT_USAGE
from .safe_text import block

if TYPE_CHECKING:
    from inspector.store import RunStore

__all__ = ["EXIT_CANCELLED", "EXIT_FAILED", "EXIT_OK", "EXIT_USAGE", "BadInputError", "CancelledCommand",
           "CommandError",
           "Parser", "UsageError", "arguments_hint", "check_database_folder", "database_fault", "database_path",
           "open_existing_store", "open_store", "safe",
           "wait_until_stopped"]


class CommandError(Exception):
    """A command that cannot go on: one sentence on stderr (and in the JSON object), an exit status.

    Give it a :class:`~inspector.i18n.messages.Message` (or an error that carries one): ``str()``
    is the English sentence for the JSON object, :meth:`shown` the sentence in the current
    language for stderr. A plain string (argparse's words, a stored sentence) is shown as it is.
    """

    kind = "failed"
    exit_status = EXIT_FAILED

    def __init__(self, message: object, shown: str | None = None) -> None:
        self.sentence = message
        self._shown = shown  # made in the current language already (argparse's words): shown as it is
        super().__init__(str(message))

    def shown(self) -> str:
        """The sentence in the current language."""
        from inspector.i18n.messages import translate

        return self._shown if self._shown is not None else translate(self.sentence)


class UsageError(CommandError):
    """Bad input on the command line: reported in one line, exit status 2."""

    kind = "usage"
    exit_status = EXIT_USAGE


class BadInputError(CommandError):
    """Input that cannot be used (a run that does not exist, a bad file, input that ended): exit 2."""

    kind = "bad_input"
    exit_status = EXIT_USAGE


class CancelledCommand(CommandError):
    """Ctrl-C (or SIGTERM) stopped a command that is not an operation (an export, an import) before it
    had done its work: one sentence saying what was left undone, exit status 130."""

    kind = "cancelled"
    exit_status = EXIT_CANCELLED


#: An abbreviation of one-letter words (German "z. B.", "d. h."): its space is not a place to break a line.
_ABBREVIATION_SPACE = re.compile(r"(?<!\w)(\w\.) (?=\w\.)")


class WholeWordsHelp(argparse.HelpFormatter):
    """``--help`` wrapped at spaces only: an option named in a sentence (``--sampling-model-url``,
    ``--grant jwt-bearer``) stays whole on its line, as it must be typed (argparse's own wrapping
    breaks words at hyphens: ``--sampling-`` at one line's end, ``model-url`` at the next's start).
    Nor is an abbreviation cut in two ("(z." at one line's end, "B. http://..." at the next's start):
    its space is written as a no-break space."""

    def _words(self, text: str) -> str:
        return _ABBREVIATION_SPACE.sub("\\1\u00a0", self._whitespace_matcher.sub(" ", text).strip())

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(self._words(text), width, break_on_hyphens=False)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        return textwrap.fill(self._words(text), width, initial_indent=indent, subsequent_indent=indent,
                             break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line and our exit status; its help wraps whole words.

    ``intermixed``: positionals may stand between options (``call URL --json TOOL``), and optional
    positionals are not used up early (``call --stdio "CMD" TOOL``: argparse alone would leave TOOL
    unrecognised after an option).
    """

    intermixed = False
    _parsing_intermixed = False
    #: ``--json`` was on the line (set before parsing): ``--version`` then prints its JSON object.
    json_wanted = False
    #: The words this parser was last given (a group's: what follows ``prompts``).
    _given: list[str] = []
    #: argparse's last refusal here as it was said, and in English (for ``--json``: :mod:`.english_refusal`).
    _refused: tuple[str, str] | None = None
    #: How deep this parser is in its parse: argparse's error() there is an ArgumentError, made English as the others.
    _parsing = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", WholeWordsHelp)
        super().__init__(*args, **kwargs)
        self._abbreviated: dict[str, str] = {}  # an option given by its beginning: {option: the word typed}

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if not self._parsing_intermixed:  # the words given, not those left for the positionals (intermixed)
            self._given = list(args) if isinstance(args, list | tuple) else []  # what _check_value may quote
        if not self.intermixed or self._parsing_intermixed:
            parsed = super().parse_known_args(args, namespace)
        else:
            self._parsing_intermixed = True  # parse_known_intermixed_args calls back in here, twice
            try:
                parsed = self.parse_known_intermixed_args(args, namespace)
            finally:
                self._parsing_intermixed = False
        if self._abbreviated:  # an option given by its beginning: a refusal naming it says so (cli/abbreviations.py)
            from .abbreviations import keep_noted

            keep_noted(parsed[0], self._abbreviated)
        return parsed

    def _parse_optional(self, arg_string: str) -> Any:
        found = super()._parse_optional(arg_string)
        if found is not None and arg_string.startswith("--"):
            from .abbreviations import note_abbreviation

            note_abbreviation(self._abbreviated, arg_string, found)
        return found

    def _parse_known_args(self, arg_strings: list[str], namespace: Any, *more: Any) -> Any:
        self._parsing += 1
        try:
            return super()._parse_known_args(arg_strings, namespace, *more)
        except argparse.ArgumentError as refused:
            from .english_refusal import english_refusal

            english = english_refusal(lambda: super(Parser, self)._parse_known_args(
                list(arg_strings), argparse.Namespace(), *more))
            self._refused = None if english is None else (str(refused), english)
            raise
        finally:
            self._parsing -= 1

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """As argparse's (parsed once), but ``call URL TOOL text=hi`` says how a tool's arguments are given."""
        parsed, extras = self.parse_known_args(args, namespace)
        if "--json" in extras and getattr(parsed, "command", None) is not None:
            # `--json` before the sub-command (`runs --json list`, `--json runs list`), where the group's
            # parser does not know it: meant for the command, as `--db` and `--lang` are taken there too.
            extras = [extra for extra in extras if extra != "--json"]
            parsed.json = True
        if isinstance(getattr(parsed, "url", None), str) and "://" not in parsed.url:
            from .command_slips import command_slip

            # `tools ping ADDR`: a command's name where the server goes. With words left over the line is wrong
            # whatever is configured; without, the server is looked for first (cli/server_choice.py).
            parsed.server_slip = command_slip(self, parsed, extras)
            if extras and parsed.server_slip is not None:
                raise UsageError(parsed.server_slip)
        if not extras:
            return parsed
        if getattr(parsed, "command", None) == "call":
            # With --stdio the tool's name is the one word: `call --stdio CMD echo a=1 b=2` took "a=1" for it.
            words = [parsed.tool] if getattr(parsed, "stdio", None) is not None and "=" in (parsed.tool or "") else []
            if (hint := arguments_hint([*words, *extras])) is not None:
                raise hint
        raise extras_hint(extras, chosen_prog(self, parsed))

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """As argparse's, but ``resources URL`` (a server where the action goes) and ``prompts --stdio CMD``
        (an option before the action, its value taken for the action) say what to write, and a command word
        it does not know names the nearest command and the help (:mod:`.unknown_command`)."""
        choices = action.choices
        if isinstance(action, argparse._SubParsersAction) and choices is not None and value not in choices:
            if " " in self.prog and isinstance(value, str):
                from .action_hint import misplaced_action

                # Options that take no value: --json (parse_args takes it for the command) and the group's own.
                flags = {"--json", *(option for option, known in self._option_string_actions.items()
                                     if known.nargs == 0)}
                hint = misplaced_action(self.prog, list(choices), value, self._given, flags)
                if hint is not None:
                    raise UsageError(hint)
            from .unknown_command import unknown_command

            raise UsageError(unknown_command(self.prog, str(value), choices))
        super()._check_value(action, value)

    def _print_message(self, message: str, file: Any = None) -> None:
        """Help and usage on standard output as argparse prints them, except that a reader that went away ends the
        command as any that only prints (reader_gone: 141), not as a help read whole (argparse says nothing)."""
        if message and (file is None or file is sys.stdout):
            sys.stdout.write(message)
            sys.stdout.flush()
            return
        super()._print_message(message, file)

    def error(self, message: str) -> NoReturn:
        if self._parsing:  # argparse's refusal made as it parses ("ambiguous option"): English in --json too
            raise argparse.ArgumentError(None, message)
        refused, self._refused = self._refused, None
        if refused is not None and refused[0] == message:  # argparse's refusal: English in --json
            raise UsageError(refused[1], shown=message)
        raise UsageError(message)


def database_path(option: str | None) -> Path:
    from inspector.store import resolve_db_path

    return resolve_db_path(option)


def check_database_folder(option: str | None) -> None:
    """Refuse, before the command does anything, a run database named in a folder that does not
    exist (only the user data folder is made), or at a device, a named pipe or a socket (SQLite said
    only "disk I/O error"): every command that takes --db says the same."""
    from inspector.store import missing_folder
    from inspector.store.paths import special_file

    path = database_path(option)
    refused = missing_folder(path)
    if refused is not None:
        raise UsageError(refused)
    try:
        os.stat(path)
    except OSError as exc:  # not there yet (it is made), or not to be looked at: opening it says why
        if exc.errno in (errno.ENAMETOOLONG, errno.ELOOP):  # nothing can look at it: said before any command
            from inspector.store.paths import unusable

            raise UsageError(unusable(path, exc)) from None
        return
    refused = special_file(path)
    if refused is not None:
        raise UsageError(refused)


def open_store(option: str | None, lock_wait_s: float | None = None) -> RunStore:
    """Open (creating if needed) the run database, or raise :class:`UsageError` saying why it cannot be used.

    A SIGTERM while it opens (a long wait for another program's lock, an upgrade, a damaged log copied aside)
    ends the command as Ctrl-C does, with a sentence and exit status 130 (it killed the process, saying nothing);
    what the opening had begun is rolled back."""
    from inspector.store import RunStore, StoreError

    from .stopping import Terminated, sigterm_as_ctrl_c

    path = database_path(option)
    try:
        with sigterm_as_ctrl_c():
            store = RunStore.open(path) if lock_wait_s is None else RunStore.open(path, lock_wait_s)
    except StoreError as exc:
        raise UsageError(exc) from None
    except Terminated:
        from inspector.i18n import N_
        from inspector.i18n.messages import Message

        raise CancelledCommand(Message(N_("Ended by a signal (SIGTERM) while the run database was being opened, "
                                          "before the command had done anything."))) from None
    if store.db.log_damage is not None:  # said, and the command goes on with what could be read
        from inspector.i18n import _
        from inspector.i18n.messages import translate
        from inspector.store.wal_damage import damaged_log_sentence

        sentence = translate(damaged_log_sentence(path, store.db.log_damage))
        print(_("run-inspector: {sentence}").format(sentence=sentence), file=sys.stderr)
    return store


def database_fault(args: argparse.Namespace | None, error: sqlite3.Error) -> CommandError | None:
    """The sentence for a damaged, locked or read-only run database met in the middle of a command,
    or None when the error is none of these (a fault of ours, reported as one)."""
    from inspector.store.faults import is_read_only, read_only, store_fault

    if args is None or not hasattr(args, "db"):
        return None
    path = database_path(args.db)
    if is_read_only(error):  # `runs note`, `servers set` on a file that can only be read: exit 1
        return CommandError(read_only(path, error))
    fault = store_fault(path, error)
    return None if fault is None else UsageError(fault)


def open_existing_store(option: str | None) -> RunStore | None:
    """The run database if it exists, else ``None``: reading never creates a database."""
    path = database_path(option)
    if not path.exists():
        return None
    return open_store(option)


def safe(text: str) -> str:
    """Server or file text on a terminal: no escape sequences, other control characters or
    bidirectional controls (see :mod:`.safe_text`; one-line fields use ``one_line``)."""
    return block(text)


def wait_until_stopped(stop: threading.Event) -> None:
    """Return once ``stop`` is set (the parent gone), the user presses Ctrl-C or the process is sent SIGTERM
    (``kill``, a service manager, ``docker stop``): a command that serves until stopped then stops as
    Ctrl-C stops it, finishing what it holds, instead of ending at once."""
    import signal

    # The handler only notes the signal: it runs in this thread, which may hold ``stop``'s lock inside
    # ``stop.wait`` just then, and ``stop.set()`` there waited for that lock for ever (a killed window's
    # demo server, told by stdin's end and SIGTERM at once, stayed up with both threads on the lock).
    terminated: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda number, frame: terminated.append(number))
    try:
        while not terminated and not stop.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)


def chosen_parser(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the sub-command ``parsed`` chose (``runs list``'s), ``parser`` itself for none."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = getattr(parsed, action.dest, None)
            if chosen in (action.choices or {}):
                return chosen_parser(action.choices[chosen], parsed)
    return parser


def chosen_prog(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> str:
    """The command line of the sub-command ``parsed`` chose (``run-inspector runs list``)."""
    return chosen_parser(parser, parsed).prog


def extras_hint(extras: list[str], prog: str) -> UsageError:
    """Words the command does not take: an option (``runs list --since``) or a word where it takes none
    (``tools ADDR ADDR``, ``runs list 5``; ``tools ping ADDR``: cli/command_slips.py): argparse's sentence, and
    the help that says what it takes."""
    from inspector.i18n import N_
    from inspector.i18n.messages import Message
    from inspector.mcp.address_query import typed_to_quote

    if any(extra.startswith("-") for extra in extras):
        said = N_("unrecognized arguments: {extras}. `{command} --help` lists the options it takes.")
    else:
        # Translators: words typed where the command takes none, e.g. "unrecognized arguments: ADDR.
        # `run-inspector tools --help` says what the command takes.".
        said = N_("unrecognized arguments: {extras}. `{command} --help` says what the command takes.")
    # An address among them without a password or a query (a key in either).
    return UsageError(Message(said, {"extras": " ".join(typed_to_quote(extra) for extra in extras), "command": prog}))


def arguments_hint(extras: list[str]) -> UsageError | None:
    """``call … TOOL text=hi``: the words that look like a tool's arguments (NAME=VALUE) said as the
    ``--args`` JSON they go in; ``None`` when none of ``extras`` looks like one."""
    pairs = dict(extra.partition("=")[::2] for extra in extras if "=" in extra and not extra.startswith("-"))
    if not pairs:
        return None
    from inspector.cli.args_hint import arguments_example
    from inspector.i18n import N_
    from inspector.i18n.messages import Message

    return UsageError(Message(N_("unrecognized arguments: {extras}. A tool's arguments go in --args, as "
                                 "JSON: --args {example}"),
                              {"extras": " ".join(extras), "example": arguments_example(pairs)}))
