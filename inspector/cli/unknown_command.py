"""A command word the command line does not know (``run-inspector run list``, ``runs shwo``), said in
words a user can act on: the nearest command when one is close, and where the commands are listed.

argparse's own sentence named its internal name ("argument command: invalid choice: 'run'", in German
"Argument command: ungültige Wahl") and no way on.

A word the window or the README uses for what a command does under another name (the window's Play is
``scenario``; ``list``, ``show`` and ``note`` are actions of ``runs``) names that command: the nearest
spelling would mislead (``play`` was taken for ``replay``, which calls a stored step again). A group that lists
its things given no action (``run-inspector servers``) says so for ``list`` written after it, where the nearest
spelling named none of its actions and nothing said how to list them."""

from __future__ import annotations

from collections.abc import Iterable
from difflib import get_close_matches

from inspector.i18n import N_
from inspector.i18n.messages import Message

#: Words a user brings from the window or the README, and the command (with its action) that does it.
ELSEWHERE = {"play": "scenario", "list": "runs list", "show": "runs show", "note": "runs note"}
#: The groups that list their things when given no action (``servers``), and the words a user writes for that.
LISTED_WITHOUT_ACTION = frozenset({"servers"})
LISTING_WORDS = frozenset({"list", "ls"})


def unknown_command(prog: str, word: str, commands: Iterable[str]) -> Message:
    """``word`` is not one of ``commands`` of ``prog`` (``run-inspector``, ``run-inspector runs``)."""
    from inspector.mcp.address_query import typed_to_quote

    known = list(commands)
    # An address typed where the command goes is repeated without a password or a query (a key in either).
    values = {"word": repr(typed_to_quote(word)), "command": prog, "commands": ", ".join(known)}
    if word.lower() in LISTING_WORDS and prog.rsplit(" ", 1)[-1] in LISTED_WITHOUT_ACTION:
        return Message(N_("{word} is not a command of {command}: `{command}` without a command lists them. "
                          "`{command} --help` lists its commands: {commands}."), values)
    instead = ELSEWHERE.get(word.lower())
    if instead is not None and instead.split()[0] in known:
        return Message(N_("{word} is not a command of {command}: did you mean `{command} {instead}`? "
                          "`{command} --help` lists its commands: {commands}."), {**values, "instead": instead})
    close = get_close_matches(word.lower(), known, n=1)
    if close:
        return Message(N_("{word} is not a command of {command}: did you mean {close}? `{command} --help` lists "
                          "its commands: {commands}."), {**values, "close": close[0]})
    return Message(N_("{word} is not a command of {command}. `{command} --help` lists its commands: {commands}."),
                   values)


__all__ = ["ELSEWHERE", "LISTED_WITHOUT_ACTION", "LISTING_WORDS", "unknown_command"]
