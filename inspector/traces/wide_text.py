"""Telling UTF-16 and UTF-32 text from UTF-8 by its first bytes. JSON exchanged between programs is UTF-8
(RFC 8259, section 8.1; OTLP's JSON encoding says so too): an import refuses a file of wider text, and the
receiver a body of it, both naming it. No I/O."""

from __future__ import annotations

#: How wider text begins with a byte order mark (UTF-32's first: it begins as UTF-16's does).
_MARKS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
          (b"\xfe\xff", "UTF-16"))

#: The bytes JSON text may begin with (ASCII): beside zero bytes they are wider text; other bytes beside a zero
#: byte are a binary file's (``00 01 02 …`` is no UTF-16 text), refused as invalid JSON where they stand.
_JSON_FIRST = frozenset(b'{["-0123456789tfn \t\r\n')


def wide_encoding(head: bytes) -> str | None:
    """``"UTF-16"`` or ``"UTF-32"`` when ``head`` (a text's first four bytes or more) begins so, else ``None``.
    Without a byte order mark, by the zero bytes beside JSON's first character, which is ASCII (a brace,
    a bracket, a space or a line's end: Windows' PowerShell writes UTF-16 when a trace is saved with ``>``);
    UTF-8 JSON holds no zero byte outside a string's escapes."""
    mark = next((encoding for begins, encoding in _MARKS if head.startswith(begins)), None)
    if mark is not None:
        return mark
    if len(head) >= 4 and ((head[:3] == b"\x00\x00\x00" and head[3] in _JSON_FIRST)
                           or (head[1:4] == b"\x00\x00\x00" and head[0] in _JSON_FIRST)):
        return "UTF-32"
    if len(head) >= 2 and ((head[0] == 0 and head[1] in _JSON_FIRST) or (head[1] == 0 and head[0] in _JSON_FIRST)):
        return "UTF-16"
    return None
