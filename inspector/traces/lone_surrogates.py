"""Escaped lone high surrogates, refused before yajl makes text of them.

JSON may spell a surrogate alone (``"\\ud800"``): valid JSON, but no text. yajl refuses a lone *low*
one (ijson cannot decode what it makes of it), but reads a lone *high* one as ``?`` and joins one
with whatever ``\\u`` escape follows (``"\\ud800\\u0041"`` reads as U+10041): an import would store
text the file never held. :class:`SurrogateGuard` sits before the parser and refuses such an escape
at the byte that shows it is alone, as the parser refuses a low one. No I/O.
"""

from __future__ import annotations

import re
from typing import Any

_HEX = b"0123456789abcdefABCDEF"

_HIGH = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})")
"""An escaped high surrogate that no whole escaped low one follows: a pair (an emoji written with ``\\u``
escapes) is passed over in the regular expression, not looked at one by one."""

_HIGH_START = (b"\\", b"u", b"dD", b"89abAB", _HEX, _HEX)
"""What each byte of an escaped high surrogate may be."""

_LOW = (b"\\", b"u", b"dD", b"cdefCDEF", _HEX, _HEX)
"""What each byte of the escape that must follow a high one may be: a low surrogate, ``\\udc00`` to ``\\udfff``."""

_BACKSLASH = ord("\\")

_ESCAPE = 6
"""The bytes of one ``\\uXXXX`` escape."""


class SurrogateGuard:
    """A parser's coroutine, refusing an escaped high surrogate that no escaped low one follows.

    The refusal is a :class:`UnicodeDecodeError`, as the parser's own for a lone low surrogate, raised
    once the bytes before the deciding one have gone to the parser (bytes that are not JSON before it
    are the parser's to refuse first). Bytes may come in pieces of any size, a byte at a time too.
    """

    def __init__(self, coro: Any) -> None:
        self._coro = coro
        #: The bytes sent from the first escape not yet decided on (too few bytes after it came yet).
        self._held = b""
        #: Whether an odd run of backslashes came right before ``_held`` (its first byte is then escaped).
        self._odd = False

    def send(self, data: bytes) -> None:
        lone = self._lone(data)
        if lone is None:
            self._coro.send(data)
            return
        if lone:
            self._coro.send(data[:lone])
        raise UnicodeDecodeError("utf-8", data, lone, lone + 1, "an escaped lone high surrogate")

    def close(self) -> None:
        self._coro.close()

    def _lone(self, data: bytes) -> int | None:
        """Where in ``data`` the byte is that shows an escaped high surrogate is alone, or None."""
        held = self._held
        if not held and b"\\" not in data[-_ESCAPE + 1:] and _HIGH.search(data) is None:  # most pieces
            self._odd = self._odd and not data  # (it ends with no backslash)
            return None
        text = held + data if held else data
        base = len(held)
        for found in _HIGH.finditer(text):
            start, after = found.span()
            if _odd_before(text, start, self._odd):
                continue  # "\\ud800": an escaped backslash, then letters
            for place in range(after, min(after + _ESCAPE, len(text))):
                if text[place] not in _LOW[place - after]:
                    return max(place - base, 0)
            if len(text) < after + _ESCAPE:  # what follows may still be a low surrogate: wait for it
                self._hold(text, start)
                return None
        for start in range(max(len(text) - _ESCAPE + 1, 0), len(text)):  # a high one's start, cut short?
            if all(byte in _HIGH_START[index] for index, byte in enumerate(text[start:])) \
                    and not _odd_before(text, start, self._odd):
                self._hold(text, start)
                return None
        self._held = b""
        self._odd = _odd_after(text, self._odd)
        return None

    def _hold(self, text: bytes, start: int) -> None:
        """Keep ``text`` from ``start``, where an escape begins, until what follows it has come."""
        self._held = text[start:]
        self._odd = False


def _odd_before(text: bytes, end: int, odd_before_text: bool) -> bool:
    """Whether an odd run of backslashes ends at ``end`` in ``text`` (with those before ``text``)."""
    run = 0
    while run < end and text[end - 1 - run] == _BACKSLASH:  # (runs before different escapes are apart: linear)
        run += 1
    return (run % 2 == 1) != (run == end and odd_before_text)


def _odd_after(text: bytes, odd_before_text: bool) -> bool:
    """Whether ``text`` ends with an odd run of backslashes (with those before it)."""
    run = len(text) - len(text.rstrip(b"\\"))
    return (run % 2 == 1) != (run == len(text) and odd_before_text)
