"""A command's name typed where a command takes its server (``tools ping ADDR``, ``call tools ADDR``, ``ping tools``),
or ``tools list ADDR`` (``resources list`` and ``prompts list`` are actions; ``tools`` lists with none), said as the
line that was probably meant: ``did you mean `run-inspector ping ADDR`?``.

They were taken for a server's name: ``tools ping ADDR`` said "unrecognized arguments: ADDR" (the address, the one
word that was right), ``tools ping`` "'ping' is not a server address …: write --stdio "ping"" (a way to start the
system's ping as an MCP server). Words that may carry a credential are repeated as :mod:`.typed_secrets` hides
them: an address without its password or query, a header's or a variable's value as ``…``."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Sequence

from inspector.i18n import N_
from inspector.i18n.messages import Message

from .common import chosen_parser
from .safe_text import one_line
from .typed_secrets import masked
from .unknown_command import LISTING_WORDS

#: The commands that list what a server offers given no action: ``tools list ADDR`` means ``tools ADDR``.
LIST_WITHOUT_ACTION = frozenset({"tools"})
#: Where the server was written as a word (``replay --server`` takes it as an option's value: no slip there).
_SERVER_WORD = "url"


def command_slip(parser: argparse.ArgumentParser, parsed: argparse.Namespace, extras: Sequence[str]) -> Message | None:
    """The sentence for a command's name (or ``list``) in the place of ``parsed``'s server, with the line meant;
    ``None`` for any other server word. ``parser``: the whole command line's; ``extras``: words it did not take
    (with some, the line cannot be what was meant, whatever servers are configured: said as a slip of the words;
    without, a configured server may have that name: cli/server_choice.py says it when none has)."""
    word, chosen = getattr(parsed, _SERVER_WORD, None), chosen_parser(parser, parsed)
    if word is None or not _takes_server_word(chosen):
        return None
    commands = _commands(parser)
    listing = word.lower() in LISTING_WORDS and parsed.command in LIST_WITHOUT_ACTION
    if word not in commands and not listing:
        return None
    given = list(getattr(chosen, "_given", []))
    rest = given[:given.index(word)] + given[given.index(word) + 1:] if word in given else given
    meant = chosen if listing else _grammar(parser, word)
    rest = _known_to(rest, chosen, meant)
    shown = [masked(part, given) for part in rest]
    if not extras and _takes_server_word(meant) and not any(
            getattr(parsed, action.dest, None) for action in chosen._actions
            if not action.option_strings and action.dest != _SERVER_WORD):
        shown.append("SERVER")  # nothing after it that could be the server: where it goes (not `servers SERVER`)
    line = one_line(" ".join(["run-inspector", *([parsed.command] if listing else [word]), *map(_quoted, shown)]))
    values = {"word": repr(word), "command": parsed.command, "line": line}
    if listing:
        return Message(N_("{word} is not a server: {command} lists what the server written right after it offers. "
                          "Did you mean `{line}`?"), values)
    if extras:
        return Message(N_("{word} is a command of run-inspector, not a server: did you mean `{line}`?"), values)
    return Message(N_("{word} is not a server address and no configured server has that name; it is a command of "
                      "run-inspector: did you mean `{line}`?"), values)


def _quoted(word: str) -> str:
    """``word`` as a shell takes it (a placeholder, a hidden value's ``…`` as they are)."""
    return word if word == "SERVER" else shlex.quote(word)


def _grammar(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``command`` with its words (the command line's holds only its name, :mod:`.one_command`)."""
    from .parser import build_parser

    whole = build_parser([command])
    return next((action.choices or {})[command] for action in whole._actions
                if isinstance(action, argparse._SubParsersAction))


def _known_to(words: Sequence[str], typed_for: argparse.ArgumentParser,
              meant: argparse.ArgumentParser) -> list[str]:
    """``words`` without the options of ``typed_for`` that ``meant`` does not take, and their values (``complete
    call --prompt P``: `call` takes no --prompt); every other word as it is."""
    kept: list[str] = []
    value_next = False
    for word in words:
        if value_next:
            value_next = False
            continue
        option, equals, _value = word.partition("=")
        action = typed_for._option_string_actions.get(option) if word.startswith("-") else None
        if action is None or option in meant._option_string_actions:
            kept.append(word)
        else:  # left out, with the value that follows it
            value_next = not equals and action.nargs not in (0, "?")
    return kept


def _takes_server_word(parser: argparse.ArgumentParser) -> bool:
    return any(not action.option_strings and action.dest == _SERVER_WORD for action in parser._actions)


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    return next(list(action.choices or ()) for action in parser._actions
                if isinstance(action, argparse._SubParsersAction))


__all__ = ["LIST_WITHOUT_ACTION", "command_slip"]
