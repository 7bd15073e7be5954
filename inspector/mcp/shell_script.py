"""A shell's script among a command's words (``sh -c 'API_KEY=K exec srv'``, ``bash -lc '…'``): which word it is,
and the script with some of its own words shown otherwise, the rest of it (other words, quotes, ``;``, ``&&``, new
lines, spacing) as it was written. A command server's name hides each credential of such a script as a word of the
command line it is (``API_KEY=… exec srv``): hidden as one value, the script's other words went with it, and two
servers that differ only in their program (``exec github-mcp``, ``exec slack-mcp``) were named alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence

#: Programs that run the word after their ``-c`` as a script.
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh"})
#: What ends a word of a script unquoted besides a space: the shell's operators and the end of a line.
_OPERATORS = frozenset(";&|()<>\n")


def is_shell(word: str) -> bool:
    """True for a shell named by ``word`` (a path too: ``/bin/sh``)."""
    return word.rpartition("/")[2] in SHELLS


def script_index(argv: Sequence[str]) -> int | None:
    """The index of the word of ``argv`` a shell runs as its script: the first word not an option after a shell whose
    options hold ``c`` (``sh -c S``, ``bash -lc S``, ``sh -e -c S``); ``None`` when there is none."""
    for index, word in enumerate(argv):
        if not is_shell(word):
            continue
        command = False
        for after in range(index + 1, len(argv)):
            option = argv[after]
            if not option.startswith("-") or option == "-":
                return after if command else None
            command = command or (not option.startswith("--") and "c" in option[1:])
        return None
    return None


def word_spans(script: str) -> list[tuple[int, int, str]] | None:
    """Where each word of ``script`` begins and ends, and what it says (its quotes removed, as the shell passes it
    on); ``None`` for a script a shell could not read (a quote left open). A ``#`` beginning a word begins a comment
    to the end of its line; an operator (``;``, ``&&``, ``|``…) is no word."""
    spans: list[tuple[int, int, str]] = []
    position, end = 0, len(script)
    while position < end:
        character = script[position]
        if character.isspace() or character in _OPERATORS:
            position += 1
            continue
        if character == "#":
            line_end = script.find("\n", position)
            position = end if line_end < 0 else line_end
            continue
        start, said = position, []
        while position < end and not (script[position].isspace() or script[position] in _OPERATORS):
            character = script[position]
            if character == "'":
                closing = script.find("'", position + 1)
                if closing < 0:
                    return None
                said.append(script[position + 1:closing])
                position = closing + 1
            elif character == '"':
                position = _double_quoted(script, position + 1, said)
                if position < 0:
                    return None
            elif character == "\\":
                said.append(script[position + 1:position + 2] if script[position + 1:position + 2] != "\n" else "")
                position += 2
            else:
                said.append(character)
                position += 1
        spans.append((start, min(position, end), "".join(said)))
    return spans


def _double_quoted(script: str, position: int, said: list[str]) -> int:
    """Read a word's part in double quotes from ``position`` (after its opening quote) into ``said``: where it ends
    (after its closing quote), or -1 when it is left open."""
    while position < len(script):
        character = script[position]
        if character == '"':
            return position + 1
        if character == "\\" and script[position + 1:position + 2] in ('"', "\\", "$", "`"):
            said.append(script[position + 1])
            position += 2
            continue
        said.append(character)
        position += 1
    return -1


def script_shown(script: str, shown_words: Callable[[list[str]], list[str]],
                 quoted: Callable[[str], str]) -> str | None:
    """``script`` with each of its words that ``shown_words`` (given them all, in their order) shows otherwise
    written as ``quoted`` gives that; the rest of it as it is. ``None`` for a script a shell could not read."""
    spans = word_spans(script)
    if spans is None:
        return None
    shown = shown_words([said for _start, _end, said in spans])
    parts: list[str] = []
    done = 0
    for (start, end, said), word in zip(spans, shown, strict=True):
        if word != said:
            parts += (script[done:start], _in_its_quotes(script[start:end], word) or quoted(word))
            done = end
    return "".join((*parts, script[done:])) if parts else script


def _in_its_quotes(written: str, word: str) -> str | None:
    """``word`` in the quotes the word it stands for was ``written`` in whole (``"Authorization: …"``), as the
    script had it; ``None`` for a word written otherwise, or one those quotes cannot hold."""
    if len(written) < 2 or written[0] != written[-1] or written[0] not in "'\"":
        return None
    if written[0] == "'":
        return None if "'" in word else f"'{word}'"
    return '"' + "".join("\\" + character if character in '"\\$`' else character for character in word) + '"'


__all__ = ["SHELLS", "is_shell", "script_index", "script_shown", "word_spans"]
