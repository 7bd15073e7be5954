"""Credentials in a list of a command's words (``{"args": ["--api-key", "K"]}``: an MCP client's configuration, a
stdio server's argv in a span attribute), read as a command server's name reads its command line
(:func:`inspector.mcp.command_line.hidden_words`: the word after an option named like a credential, a
``user:password`` after ``-u``, the whole value of one word ``--password=…`` or ``API_KEY=…``, spaces, commas and
quotes included), and a password glued to ``-p`` after a MySQL command, also after a ``command`` given beside its
``args``. An address is left to the text's rules,
which keep its query's other parameters."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.mcp.command_line import MASK, hidden_words, is_database_program


def argv_secrets(words: Sequence[object], mark: str) -> dict[int, str]:
    """What each word of ``words`` (a list of strings; ``{}`` for any other list) that holds a credential becomes, by
    its index: ``mark`` for a value, ``--password=mark``, ``-pmark`` after a MySQL command."""
    if not words or any(type(word) is not str for word in words):
        return {}
    argv: Sequence[str] = words  # type: ignore[assignment]
    shown: dict[int, str] = {}
    for index, (word, hidden) in enumerate(zip(argv, hidden_words(argv), strict=True)):
        kept = hidden.removesuffix(MASK)
        # Only a credential at the word's end (--token=T, Authorization: T): one a word of prose holds ("key is
        # sk-… today") is left to the text's rules, which hide it in its place.
        if hidden != word and "://" not in word and word != mark and kept.count(MASK) == word.count(MASK):
            shown[index] = kept + mark
    return shown


def command_args_secrets(program: object, args: Sequence[object], mark: str) -> dict[int, str]:
    """:func:`argv_secrets` of a command's ``args`` given apart from its ``program`` (``{"command": "mysql", "args":
    ["-pX"]}``, an MCP client's configuration), by their index in ``args``."""
    if type(program) is not str or not is_database_program(program):
        return {}  # read alone: only a database program changes what its arguments hold
    return {index - 1: shown for index, shown in argv_secrets([program, *args], mark).items() if index}
