"""The quick way through a line of OTLP JSON Lines: ``json.loads`` and a walk of its few levels.

The streaming parser (:mod:`.json_stream`) checks every token of a file in Python, which is most
of the time an OTLP import spends reading. A line of JSON Lines that is short and plain can be
parsed whole by ``orjson`` instead, *when that is certain to give what the stream gives*:

* no limit of the stream can be reached: the line is at most :data:`MAX_LINE_BYTES` (so no string
  is longer than ``MAX_STRING_CHARS`` and no record's estimate reaches ``MAX_RECORD_BYTES``) and
  it nests at most :data:`_SAFE_DEPTH` levels (under ``MAX_DEPTH``);
* the bytes are JSON to both parsers, read as the same values: numbers beyond what yajl reads
  (integers of 19 digits and more, which orjson reads as doubles past 64 bits; orjson refuses
  doubles that overflow, ``NaN`` and ``Infinity``) and escaped surrogates (the stream refuses one
  alone) are left to the stream;
* no key of the levels walked appears twice in an object (the stream would hand on both, a dict
  keeps one): their spellings are counted in the line's bytes, and a key written with a ``\\u``
  escape sends the line the long way.

:func:`parse_line` answers ``None`` for any line it cannot vouch for (or that is not JSON): the
caller then streams that line as before, which finds and words every problem. No I/O here.
"""

from __future__ import annotations

import re
from typing import Any

from orjson import loads

from .format import MAX_DEPTH, MAX_RECORD_BYTES, MAX_STRING_CHARS

__all__ = ["MAX_LINE_BYTES", "count_key", "parse_line"]

MAX_LINE_BYTES = min(MAX_STRING_CHARS, MAX_RECORD_BYTES // 100)
"""Longer lines are streamed. A record's estimate (see ``json_stream.Walker._build``) is at most 80
per byte of JSON (160 for the two bytes of ``[]``) besides its characters: 81 per byte in all."""

_SAFE_DEPTH = MAX_DEPTH - 10
_KEEP = frozenset(b'[]{}"')
_NOT_SKELETON = bytes(byte for byte in range(256) if byte not in _KEEP)
_STRING = re.compile(rb'"[^"]*"')
_ESCAPE = re.compile(rb"\\.")
_RISKY_ESCAPE = re.compile(rb'\\u(?:[dD][89a-fA-F]|[^"]*"\s*:)')  # a surrogate, or an escape in a key


# A number of 19 digits or more (the digits after one of the bytes a number can follow): yajl refuses
# integers beyond 64 bits, orjson reads them as doubles; such a line is streamed. Digits inside a
# string (times, ids) follow a quote or a letter and do not count; a string holding ":" and 19
# digits only sends its line the long way.
_NUMBER_MARKS = bytes.maketrans(b"0123456789:,[- \t\r\n", b"0000000000" + b"!" * 8)
_LONG_NUMBER = b"!" + b"0" * 19


def parse_line(line: bytes) -> Any:
    """The JSON value of ``line`` when the quick way is certain to agree with the stream, else ``None``."""
    if len(line) > MAX_LINE_BYTES:
        return None
    if b"\\" in line:
        if b"\\u" in line and _RISKY_ESCAPE.search(line):
            return None
        skeleton = _ESCAPE.sub(b"", line)
    else:
        skeleton = line
    skeleton = skeleton.translate(None, _NOT_SKELETON)
    if not _shallow(skeleton, b'""', _SAFE_DEPTH // 3) and not _shallow(_STRING.sub(b"", skeleton), b"",
                                                                           _SAFE_DEPTH // 2):
        return None
    if _LONG_NUMBER in line.translate(_NUMBER_MARKS):
        return None
    try:
        return loads(line)
    except (ValueError, RecursionError):  # not JSON (or UTF-8, or an infinite double): the stream says what is wrong
        return None


def _shallow(skeleton: bytes, strings: bytes, rounds: int) -> bool:
    """True when the brackets and quotes of a JSON value (its escapes taken out) nest at most
    :data:`_SAFE_DEPTH` levels. A round takes away the innermost ``strings`` (``""``: the quotes of
    a string whose brackets are gone, themselves paired; ``b""``: none, strings were taken out),
    then ``[]`` pairs, then ``{}`` pairs: at most one level of each. A bracket inside a string can
    only pair with one in the same string (its quotes stand between it and any other), so a
    value gone within ``rounds`` rounds nests no deeper than ``rounds`` times the kinds of pair."""
    for _ in range(rounds):
        if not skeleton:
            return True
        if strings:
            skeleton = skeleton.replace(strings, b"")
        skeleton = skeleton.replace(b"[]", b"").replace(b"{}", b"")
    return not skeleton


def count_key(line: bytes, key: str) -> int:
    """How often ``"key"`` is spelled in ``line`` (as a key or inside a value): never fewer times
    than it is a key of some object, unless escaped (which :func:`parse_line` refuses)."""
    return line.count(b'"' + key.encode() + b'"')
