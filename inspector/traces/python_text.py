"""A Python string literal as the text it spells, read without compiling it.

OpenLIT writes an MCP content block as its Python ``repr`` (``type='text' text='it\\'s' …``): the text inside is a
string literal. ``ast.literal_eval`` reads one, but compiles a stranger's text to do it: an unknown escape
(``'C:\\q'``) makes the compiler warn (a ``SyntaxWarning`` on the user's terminal from Python 3.12 on; it raises
where warnings are errors), and ``'\\ud800'`` spells a lone surrogate, which no UTF-8 text can hold (storing the step
failed with a traceback). Here each escape is read as Python reads it, an unknown one kept as it is written (as Python
keeps it), and each lone surrogate made U+FFFD, as everywhere text from the wire enters. Linear in the literal's
length. No I/O.
"""

from __future__ import annotations

import re
import unicodedata

from inspector.mcp.text import repair_string

__all__ = ["python_string"]

#: One escape of a Python string literal: the letter escapes, octal, ``\xhh``, ``\uhhhh``, ``\Uhhhhhhhh``, ``\N{…}``.
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|N\{[^}\\]{1,200}\}|[0-7]{1,3}|.|\n|$)")
_LETTERS = {"\\": "\\", "'": "'", '"': '"', "n": "\n", "r": "\r", "t": "\t", "a": "\a", "b": "\b", "f": "\f",
            "v": "\v", "\n": ""}


#: A backslash that begins no escape the ``unicode_escape`` codec reads as a literal does without a word (an unknown
#: escape, ``\N{…}``, one cut short, an octal one past ``\377``, the end): such a text is read escape by escape. It
#: may find one in an escaped backslash's second half (``\\q``): that text is read escape by escape too, the same
#: text more slowly.
_NOT_PLAIN = re.compile(r"\\(?![\\'\"abfnrtv\n]|[0-3][0-7]{2}|[0-7]{1,2}(?![0-7])|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}"
                        r"|U[0-9a-fA-F]{8})")


def python_string(literal: str) -> str | None:
    """The text a Python string literal (``'…'`` or ``"…"``, no prefix) spells; ``None`` when ``literal`` is not one
    quoted so (its quotes are the caller's to have matched)."""
    if len(literal) < 2 or literal[0] not in "'\"" or literal[-1] != literal[0]:
        return None
    body = literal[1:-1]
    if "\\" not in body:
        return repair_string(body)
    if _NOT_PLAIN.search(body) is None:
        # The codec in C (a hundred times quicker for a text of escapes); a character beyond Latin-1 goes through it
        # as its own escape. A \U beyond U+10FFFF is refused by it: read escape by escape below.
        try:
            return repair_string(body.encode("latin-1", "backslashreplace").decode("unicode_escape"))
        except UnicodeDecodeError:
            pass
    return repair_string(_ESCAPE.sub(_unescaped, body))


def _unescaped(found: re.Match[str]) -> str:
    escape = found.group(1)
    if escape in _LETTERS:
        return _LETTERS[escape]
    head = escape[:1]
    if head in "xuU" and len(escape) > 1:
        code = int(escape[1:], 16)
        return chr(code) if code <= 0x10FFFF else found.group(0)
    if head == "N" and escape.startswith("N{"):
        try:
            return unicodedata.lookup(escape[2:-1])
        except KeyError:
            return found.group(0)
    if head.isdigit() and head in "01234567":
        return chr(int(escape, 8))
    return found.group(0)  # an escape Python does not know stays as written (a backslash and the letter)
