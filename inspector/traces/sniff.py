"""Telling the kinds of importable file apart, from as little of the start of the file as possible.

A file is our trace format (an object with ``format`` and ``version``), a bare list of step
payloads, or OTLP JSON: one ``TracesData`` object, a list of them, or JSON Lines with one on
each line. A UTF-8 byte order mark is skipped; UTF-16 and UTF-32 text is refused, named. The trace
format's ``format`` and ``version`` are checked here already, so a trace from a newer Run Inspector
is refused before anything else.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path as FilePath
from typing import Any

from inspector.i18n import N_

from .format import FORMAT_NAME, FORMAT_VERSION, TraceProblem, describe, said
from .json_stream import (
    JSON_ERRORS,
    READ_CHUNK,
    BadJson,
    QuietBytes,
    event_parser,
    is_overflow,
    json_error_reason,
)
from .wide_text import wide_encoding

_BOM = b"\xef\xbb\xbf"
_LONGEST_CHUNK = 16 * 1024 * 1024
#: How packed files begin (their magic numbers): a collector's file exporter may write zstd, a trace
#: handed on by mail comes gzip-compressed or zipped; said as such, not as "invalid JSON" at byte 0.
_PACKED_STARTS = ((b"\x1f\x8b", "gzip"), (b"PK\x03\x04", "zip"), (b"(\xb5/\xfd", "zstd"), (b"BZh", "bzip2"),
                  (b"\xfd7zXZ\x00", "xz"))


@dataclass(frozen=True)
class FileKind:
    """What :func:`sniff` found: how to read the file."""

    name: str          # "trace", "payloads" or "otlp"
    start: int         # where the JSON begins (after a byte order mark)
    layout: str        # "document", "array" (OTLP objects in a list) or "lines" (JSON Lines)
    exact: bool = False  # whole numbers beyond 64 bits read (json_stream.event_parser)


def sniff(source: FilePath, exact: bool = False) -> FileKind:
    """Look at the start of the file (as little as possible) to tell which kind it is; ``exact``: with
    a parser that reads whole numbers beyond 64 bits (see :func:`.json_stream.event_parser`)."""
    with source.open("rb") as file:
        head = file.read(6)
        wide = wide_encoding(head)
        if wide is not None:
            raise TraceProblem((), said(N_("the file is {encoding} text, not UTF-8: save it as UTF-8 and import it "
                                           "again"), encoding=wide))
        packed = next((packing for begins, packing in _PACKED_STARTS if head.startswith(begins)), None)
        if packed is not None:
            raise TraceProblem((), said(N_("the file is compressed ({packing}), not JSON text: unpack it and import "
                                           "the trace inside"), packing=packed))
        start = len(_BOM) if head.startswith(_BOM) else 0
        file.seek(start)
        events, coro = event_parser(exact)
        sniffer = _Sniffer()
        position, seen_text, quiet, size = start, False, QuietBytes(), READ_CHUNK
        while chunk := file.read(size):
            seen_text = seen_text or bool(chunk.strip())
            try:
                coro.send(chunk)
            except JSON_ERRORS as error:
                # The events before the error may already tell the kind (a JSON Lines file
                # whose third line is broken); then pass 1 reports the error in its place.
                decided = sniffer.feed(events)
                if decided:
                    break
                raise BadJson(json_error_reason(error), start, position, position + len(chunk), exact=exact,
                              overflow=is_overflow(error)) from None
            position += len(chunk)
            quiet.parsed(len(chunk), bool(events))
            # Inside a long token, chunks twice as long (yajl reads the unfinished token again with each).
            size = READ_CHUNK if events else min(size * 2, _LONGEST_CHUNK)
            decided = sniffer.feed(events)
            if decided:
                break
        else:
            if not seen_text:
                raise TraceProblem((), said(N_("the file is empty")))
            try:
                coro.close()
            except JSON_ERRORS as error:
                raise BadJson(json_error_reason(error), start, position, position, exact=exact,
                              overflow=is_overflow(error)) from None
            decided = sniffer.feed(events) or sniffer.at_end()
    if decided == "otlp-object":
        return FileKind("otlp", start, "lines" if _first_line_is_whole(source, start, exact) else "document", exact)
    if decided == "otlp-array":
        return FileKind("otlp", start, "array", exact)
    return FileKind(decided, start, "document", exact)


class _Sniffer:
    """Reads events from the start of the first value until the kind of file is clear."""

    def __init__(self) -> None:
        self._root: str | None = None
        self._depth = 0
        self._key: str | None = None
        self._keys: list[str] = []
        self._format: dict[str, Any] = {}
        self._lone: Any = None

    def feed(self, events: list[tuple[str, Any]]) -> str | None:
        for event, value in events:
            decided = self._event(event, value)
            if decided:
                return decided
        del events[:]
        return None

    def _event(self, event: str, value: Any) -> str | None:
        if type(value) is Decimal:  # a number with a fraction (json_stream.event_parser): only named here
            value = float(value)
        opens, closes = event in ("start_map", "start_array"), event in ("end_map", "end_array")
        if self._root is None:
            if not opens:
                # Said at the end of the file (:meth:`at_end`): text that only begins as JSON (a Python file's
                # docstring, a CSV's quoted head) is invalid JSON further on, which the parser then says where.
                self._root, self._lone = event, value
                return None
            self._root, self._depth = event, 1
            return None
        if self._root not in ("start_map", "start_array"):  # more after a first value that was no object or list
            return None
        depth = self._depth
        self._depth += opens - closes
        if self._root == "start_array":
            if depth == 1:  # the first element decides: OTLP objects, or step payloads
                return None if event == "start_map" else "payloads"
            if depth == 2 and event == "map_key" and value == "resourceSpans":
                return "otlp-array"
            return "payloads" if self._depth == 1 else None
        if depth == 1 and event == "map_key":
            self._key = value
            if len(self._keys) < 8:
                self._keys.append(value)
            return "otlp-object" if value == "resourceSpans" else None
        if depth == 1 and self._key in ("format", "version") and not closes:
            check_format_field(self._key, ({} if event == "start_map" else []) if opens else value)
            self._format[self._key] = value
            return "trace" if len(self._format) == 2 else None
        return self.at_end() if self._depth == 0 else None

    def at_end(self) -> str:
        if self._root not in (None, "start_map", "start_array"):
            raise TraceProblem((), said(N_("the file holds {value}; a trace is a JSON object or list"),
                                        value=describe(self._lone)))
        if "format" in self._format:
            if "version" not in self._format:
                raise TraceProblem((), said(N_("the trace has no 'version'")))
            return "trace"
        if self._root == "start_array":
            return "payloads"
        keys = ", ".join(repr(key[:40]) for key in self._keys)
        if not keys:
            raise TraceProblem((), said(N_("unknown format: an object with neither 'format' (a Run Inspector trace) "
                                           "nor 'resourceSpans' (OTLP); its first keys: none")))
        raise TraceProblem((), said(N_("unknown format: an object with neither 'format' (a Run Inspector trace) "
                                       "nor 'resourceSpans' (OTLP); its first keys: {keys}"), keys=keys))


def _first_line_is_whole(source: FilePath, start: int, exact: bool) -> bool:
    """True when the first line with text holds a whole JSON value: the file is JSON Lines."""
    events, coro = event_parser(exact)
    seen_text, quiet, size = False, QuietBytes(), READ_CHUNK
    with source.open("rb") as file:
        file.seek(start)
        try:
            while chunk := file.read(size):
                position = 0
                while position < len(chunk):
                    newline = chunk.find(b"\n", position)
                    piece = chunk[position:newline] if newline >= 0 else chunk[position:]
                    if piece:  # never send b"": the parser takes it for the end of the file
                        coro.send(piece)
                        try:
                            quiet.parsed(len(piece), bool(events))
                        except TraceProblem:
                            return True  # a token past the limits: reading it as a line says where
                        size = READ_CHUNK if events else min(size * 2, _LONGEST_CHUNK)
                        del events[:]
                        seen_text = seen_text or bool(piece.strip())
                    if newline < 0:
                        break
                    if seen_text:
                        coro.close()
                        return True
                    position = newline + 1
            coro.close()
        except JSON_ERRORS:
            return False  # a pretty-printed document; pass 1 reports any real syntax error
    return True


def check_format_field(key: str, value: Any) -> None:
    """Refuse a trace's top-level ``format`` or ``version`` (``key``) that this code cannot read.

    Used while sniffing, and again by the trace reader as it walks the whole document.
    """
    if key == "format" and not isinstance(value, str):
        raise TraceProblem(("format",), said(N_("must be the string {expected}, got {value}"),
                                             expected=repr(FORMAT_NAME), value=describe(value)))
    if key == "format" and value != FORMAT_NAME:
        raise TraceProblem(("format",), said(N_("unknown format {found} (expected {expected})"),
                                             found=f"{value!r:.60}", expected=repr(FORMAT_NAME)))
    if key == "version":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise TraceProblem(("version",), said(N_("must be a whole number from 1, got {value}"),
                                                  value=describe(value)))
        if value > FORMAT_VERSION:
            raise TraceProblem(("version",), said(N_("the file is format version {version}, written by a newer Run "
                                                     "Inspector; this one reads up to version {newest}: update Run "
                                                     "Inspector"), version=value, newest=FORMAT_VERSION))
