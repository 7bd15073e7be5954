"""Streaming JSON for the importer: bytes in, checked structure and whole records out.

Built on ijson's event parser (yajl), so a file of any size is read in bounded memory:

* :class:`ValueParser` feeds one JSON value, in pieces, to the parser and hands the events on;
  a syntax error becomes :class:`BadJson`, which :func:`locate_bad_json` pins to the byte.
* :class:`Walker` walks those events along a *shape* (:class:`ObjectShape`, :class:`ListShape`,
  :class:`Record`) that says what the document must look like: it checks the structure, builds
  the records the caller wants (a step, a span) and skips everything else unread.

Every string is capped at :data:`MAX_STRING_CHARS`, every record at :data:`MAX_RECORD_BYTES`
and nesting at :data:`MAX_DEPTH`, so no file can make an import take unbounded memory. Problems
with the content are raised as :class:`TraceProblem`, naming the place in the document.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from pathlib import Path as FilePath
from typing import Any

import ijson
from ijson.utils import sendable_list

from inspector.i18n import N_
from inspector.i18n.messages import Count, Message

from .format import (
    MAX_DEPTH,
    MAX_RECORD_BYTES,
    MAX_STRING_CHARS,
    Path,
    TraceProblem,
    describe,
    nested_too_deep,
    said,
)
from .json_reasons import TOO_MANY_DIGITS, parser_reason
from .lone_surrogates import SurrogateGuard

READ_CHUNK = 256 * 1024
"""How many bytes are read from a file at a time."""

_PARSE_PIECE = 16 * 1024
"""How many bytes :class:`ValueParser` parses at a time: their events stay in the CPU's caches."""

_LONGEST_PIECE = 16 * 1024 * 1024
"""The most it parses at a time, inside a long token that gives no event."""

MAX_TOKEN_BYTES = 12 * MAX_STRING_CHARS + 2
"""The most bytes one JSON token within the limits takes: a string of :data:`MAX_STRING_CHARS`
characters, each an escaped surrogate pair (12 bytes), and its quotes. yajl holds an unfinished
token whole and reads it again with each piece, so a string is refused once this many bytes pass
without an event, not once it is whole: a 200 MB string took 42 s and 418 MB to refuse, a 2 GB one
would take 4 GB (see :class:`QuietBytes`)."""

JSON_ERRORS = (ijson.JSONError, UnicodeDecodeError)
"""What the parser raises for bytes that are not JSON. yajl checks UTF-8 itself, but the
strings it hands on (an overlong sequence, an escaped lone low surrogate such as ``\\udc00``)
are decoded by ijson, which raises :class:`UnicodeDecodeError` for those; so does the
:class:`~.lone_surrogates.SurrogateGuard` before it, for a lone high one."""

_NOT_TEXT = said(N_("a string that is not valid UTF-8 text (an overlong sequence or an escaped lone surrogate)"))
_ENDLESS_TOKEN = said(N_("more than {size} MB of the file without the end of a string, key or number: a string "
                         "longer than the limit of {limit} characters (or as much blank space between two values)"),
                      size=MAX_TOKEN_BYTES // 1_000_000, limit=Count(MAX_STRING_CHARS))


class QuietBytes:
    """Counts the bytes parsed since the parser last gave an event; too many is a token past the limits."""

    def __init__(self) -> None:
        self.count = 0

    def parsed(self, size: int, events: bool) -> None:
        """``size`` more bytes were parsed, giving ``events`` or not; raise :class:`TraceProblem`
        (at the top level: the caller may say where) once :data:`MAX_TOKEN_BYTES` gave none."""
        self.count = 0 if events else self.count + size
        if self.count > MAX_TOKEN_BYTES:
            raise TraceProblem((), _ENDLESS_TOKEN)


def event_parser(exact: bool = False) -> tuple[list[tuple[str, Any]], Any]:
    """A fresh parser: the list its events collect in, and the coroutine to send bytes to.

    It accepts several values one after the other, so that more than one is reported by
    :class:`Walker` (or the sniffer) with a clear message rather than as a syntax error.

    yajl reads whole numbers of at most 64 bits (``integer overflow``, see :data:`OVERFLOW`). An
    ``exact`` parser reads one of any size as an ``int`` (JSON allows it, and a live call's arguments
    or a server's answer may hold one) and any other number as a :class:`~decimal.Decimal`, which the
    walker makes the float it spells (:func:`exact_float`); a run of more digits than Python reads as
    a whole number (4,300) is bad JSON to it. The importer reads a file so only after the quick parser
    met such a number (see :func:`~inspector.transfer.importing.import_trace`).
    """
    if ijson.backend == "yajl2_c":
        events: list[tuple[str, Any]] = []
        target: Any = _AppendTo(events)
    else:
        events = target = sendable_list()
    coro = SurrogateGuard(ijson.basic_parse_coro(target, use_float=not exact, multiple_values=True))
    return events, _DigitGuard(coro) if exact else coro


OVERFLOW = "integer overflow"
"""yajl's reason (see :func:`json_error_reason`) for a whole number beyond 64 bits."""

_DIGIT_MARKS = bytes.maketrans(b"0123456789", b"0000000000")


class _DigitGuard:
    """An exact parser's coroutine, refusing a run of more digits than ``int()`` reads before the parser
    sees it: ijson's C backend fails on such a number in ways no caller can handle (a ``SystemError``, an
    event without a value, an error left pending). A run inside a string is refused too."""

    def __init__(self, coro: Any) -> None:
        self._coro = coro
        self._limit = sys.get_int_max_str_digits() or None
        self._run = 0  # digits at the end of what was sent so far

    def send(self, data: bytes) -> None:
        long_run = self._long_run(data) if self._limit is not None else None
        if long_run is None:
            self._coro.send(data)
            return
        if long_run:
            self._coro.send(data[:long_run])  # its events: the sniffer may know the kind of file from them
        raise ijson.JSONError(f"parse error: {TOO_MANY_DIGITS}")

    def close(self) -> None:
        self._coro.close()

    def _long_run(self, data: bytes) -> int | None:
        """Where in ``data`` a run of too many digits (with those sent before) begins, or None."""
        limit = self._limit
        marked = data.translate(_DIGIT_MARKS)  # every digit a "0"
        leading = len(marked) - len(marked.lstrip(b"0"))
        if self._run + leading > limit:
            return 0
        if leading == len(marked):
            self._run += leading
            return None
        found = marked.find(b"0" * (limit + 1))
        if found >= 0:
            return found
        self._run = len(marked) - len(marked.rstrip(b"0"))
        return None


def exact_float(number: Decimal) -> float:
    """The float a number with a fraction or an exponent spells (correctly rounded, as yajl reads it);
    raises :class:`ValueError` for one too large for a float (``1e999``), which yajl refused too."""
    value = float(number)
    if value in (_INFINITY, -_INFINITY):
        raise ValueError(number)
    return value


def float_at(number: Decimal, path: Path) -> float:
    """:func:`exact_float` of the number at ``path``; one too large is a :class:`TraceProblem` there."""
    try:
        return exact_float(number)
    except ValueError:
        raise TraceProblem(path, too_large(number)) from None


_INFINITY = float("inf")
_TOO_LARGE = N_("the number {number} is too large for a floating-point number")


def too_large(number: Decimal) -> Message:
    """The problem with a number :func:`exact_float` refuses."""
    return said(_TOO_LARGE, number=f"{number!s:.40}")


class _AppendTo:
    """A parser target whose ``send`` is the events list itself: ijson's C backend appends each
    event to a list it is given as ``send`` directly, instead of calling ``send`` for each."""

    def __init__(self, events: list[tuple[str, Any]]) -> None:
        self.send = events


# -- feeding the parser -----------------------------------------------------------------------------

class BadJson(Exception):
    """The parser refused the bytes fed between ``good`` and ``bad`` (file offsets)."""

    def __init__(self, reason: str | Message, start: int, good: int, bad: int, line: int | None = None, *,
                 exact: bool = False, overflow: bool = False) -> None:
        super().__init__(str(reason))
        self.reason, self.start, self.good, self.bad, self.line = reason, start, good, bad, line
        #: Read by an ``exact`` parser (see :func:`event_parser`); ``overflow``: a whole number beyond 64 bits.
        self.exact, self.overflow = exact, overflow


class ValueParser:
    """One JSON value (the document, or one line) fed in pieces to yajl and on to a walker."""

    def __init__(self, walker: Walker, start: int, line: int | None = None, exact: bool = False) -> None:
        self._events, self._coro = event_parser(exact)
        self._exact = exact
        self._walker = walker
        self._start = start
        self._line = line
        self._fed = start
        self._piece = _PARSE_PIECE
        self._quiet = QuietBytes()

    def feed(self, data: bytes) -> None:
        """Parse and walk ``data``, a piece at a time (fewer events held at once: faster).

        What is reported is what parsing all of ``data`` first and then walking it would report:
        bytes that are not JSON anywhere in ``data`` before any problem with its content.
        """
        start = 0
        while True:
            piece = data[start:start + self._piece]
            self._parse(data, piece)
            start += len(piece)
            # Inside one long token (a string of megabytes) yajl reads its unfinished bytes again with each
            # piece: pieces twice as long while no event comes out (a 24 MB string was 6 s to refuse).
            self._piece = _PARSE_PIECE if self._events else min(self._piece * 2, _LONGEST_PIECE)
            try:
                self._quiet.parsed(len(piece), bool(self._events))
            except TraceProblem as problem:
                raise TraceProblem(self._walker.where(), problem.sentence, self._line) from None
            try:
                self._pass_on()
            except BaseException:  # raised while walking: bytes of data that are not JSON come first
                for rest in range(start, len(data), _PARSE_PIECE):
                    self._parse(data, data[rest:rest + _PARSE_PIECE])
                    del self._events[:]
                raise
            if start >= len(data):  # (b"" is sent on, as it always was)
                break
        self._fed += len(data)

    @property
    def wants(self) -> int:
        """How many bytes to read for the next :meth:`feed`: more inside a long token."""
        return max(READ_CHUNK, self._piece)

    def _parse(self, data: bytes, piece: bytes) -> None:
        try:
            self._coro.send(piece)
        except JSON_ERRORS as error:
            raise BadJson(json_error_reason(error), self._start, self._fed, self._fed + len(data), self._line,
                          exact=self._exact, overflow=is_overflow(error)) from None

    def close(self) -> None:
        try:
            self._coro.close()
        except JSON_ERRORS as error:
            raise BadJson(json_error_reason(error), self._start, self._fed, self._fed, self._line,
                          exact=self._exact, overflow=is_overflow(error)) from None
        self._pass_on()

    def _pass_on(self) -> None:
        if self._events:
            try:
                self._walker.feed(self._events)
            except TraceProblem as problem:
                problem.line = problem.line or self._line
                raise
            del self._events[:]


def is_overflow(error: Exception) -> bool:
    """True when the parser refused a whole number beyond 64 bits (an ``exact`` one reads it)."""
    return f"error: {OVERFLOW}" in str(error)


def json_error_reason(error: Exception) -> str | Message:
    """The reason in the parser's message (what follows ``lexical error:`` or ``parse error:``): the
    parser's own English words, or our sentence (translatable) where we have one."""
    if isinstance(error, UnicodeDecodeError):
        return _NOT_TEXT
    # A message quoting bytes that are not UTF-8 comes as bytes: its str() is their repr, whose \' cut it short.
    text = error.args[0].decode("utf-8", "replace") if error.args and isinstance(error.args[0], bytes) else str(error)
    found = re.search(r"(?:lexical|parse) error: ([^\n\\]*)", text)
    reason = (found.group(1) if found else text.splitlines()[0] if text else "").strip(" .")
    if reason == "premature EOF":
        return said(N_("the JSON ends too early (is the file truncated?)"))
    return parser_reason(reason) if reason else said(N_("not JSON"))


def locate_bad_json(source: FilePath, bad: BadJson) -> tuple[Message, Message]:
    """Find the exact byte yajl stops at by parsing again (:func:`_failing_byte`).

    Returns the location (``byte …`` or, for JSON Lines, ``line …``) and the problem to report.
    """
    offset = _failing_byte(source, bad)
    with source.open("rb") as file:
        before = file.read(offset)
    line = before.count(b"\n") + 1
    column = offset - (before.rfind(b"\n") + 1) + 1
    problem = said(N_("invalid JSON: {reason}"), reason=bad.reason)
    if bad.line is not None:  # JSON Lines: the line says more than the byte
        return said(N_("line {line}, column {column} (byte {offset})"), line=Count(bad.line), column=Count(column),
                    offset=Count(offset)), problem
    return said(N_("byte {offset} (line {line}, column {column})"), offset=Count(offset), line=Count(line),
                column=Count(column)), problem


_QUIET_BYTES = 4096
"""Bytes fed one at a time without an event after which :func:`_failing_byte` halves the rest instead: inside
one long token yajl reads its unfinished bytes again with each byte fed (a 300 KB string before the error took
7 s to locate, a 1 MB one more than 4 minutes; now 0.1 s)."""


def _failing_byte(source: FilePath, bad: BadJson) -> int:
    """The offset of the byte yajl gives up at (``bad.bad`` when it gives up at the end): the bytes after
    ``bad.good`` are fed one at a time; once :data:`_QUIET_BYTES` of them gave no event, the rest is halved,
    each half tried by a parser of its own (:func:`_refuses`)."""
    events, coro = event_parser(bad.exact)
    with source.open("rb") as file:
        file.seek(bad.start)
        position = quiet = bad.start
        try:
            while position < bad.good:
                data = file.read(min(READ_CHUNK, bad.good - position))
                coro.send(data)
                position += len(data)
                if events:
                    del events[:]
                    quiet = position
            for byte in file.read(bad.bad - bad.good):
                coro.send(bytes((byte,)))
                position += 1
                if events:
                    del events[:]
                    quiet = position
                elif position - quiet > _QUIET_BYTES and _halving_cheaper(position - bad.start, position - quiet,
                                                                          bad.bad - position):
                    break
            else:
                coro.close()
                return bad.bad
        except JSON_ERRORS:
            return position  # the byte being fed when yajl gave up
    accepted, refused = position, bad.bad  # the bytes up to ``accepted`` are JSON so far, up to ``refused`` not
    if not _refuses(source, bad, quiet, refused):
        return refused  # (refused when the value is closed)
    while refused - accepted > 1:
        middle = (accepted + refused) // 2
        if _refuses(source, bad, quiet, middle):
            refused = middle
        else:
            accepted = middle
    return accepted


#: How many bytes of an unfinished token yajl reads again (a copy, with each byte fed) in the time it parses one
#: byte anew with its events (about 6 GB/s against 120 MB/s, measured).
_REREAD_SPEEDUP = 50


def _halving_cheaper(parsed: int, token: int, left: int) -> bool:
    """Whether halving the ``left`` bytes is cheaper than feeding them one at a time: each byte fed reads the
    unfinished ``token`` (and the bytes fed after it) again; each try of the halving parses all the ``parsed``
    bytes before them anew. In a short file a long string's end is found by halving (a 300 KB one took 7 s fed
    a byte at a time); after 50 MB the bytes are fed (halving took 6.7 s there, feeding them 0.6 s)."""
    return left * (token + left // 2) // _REREAD_SPEEDUP > left.bit_length() * (parsed + left)


def _refuses(source: FilePath, bad: BadJson, quiet: int, end: int) -> bool:
    """Whether yajl refuses the bytes from ``bad.start`` to ``end``: read a chunk at a time up to ``quiet``,
    where a long token begins, and the rest in one piece (once, not again with each piece)."""
    events, coro = event_parser(bad.exact)
    with source.open("rb") as file:
        file.seek(bad.start)
        position = bad.start
        try:
            while position < end:
                data = file.read(min(READ_CHUNK, quiet - position) if position < quiet else end - position)
                coro.send(data)
                position += len(data)
                del events[:]
        except JSON_ERRORS:
            return True
    return False


# -- walking the events -----------------------------------------------------------------------------

class Record:
    """A value to build whole and hand to ``on_value(path, value)`` (a step, a span).

    When ``sized``, ``on_value(path, value, size)`` also gets an estimate of the bytes the
    value holds in memory (the budget :data:`MAX_RECORD_BYTES` is counted in).
    """

    def __init__(self, on_value: Callable[..., None], *, sized: bool = False) -> None:
        self.on_value = on_value
        self.sized = sized


class ObjectShape:
    """An object walked key by key: ``children`` have shapes of their own, ``fields`` are built
    and handed to ``on_field(path, value)``, any other key is skipped unread."""

    def __init__(self, children: Mapping[str, Any], fields: frozenset[str] = frozenset(), *,
                 on_start: Callable[[Path], None] | None = None,
                 on_field: Callable[[Path, Any], None] | None = None,
                 on_end: Callable[[Path], None] | None = None) -> None:
        self.children, self.fields = children, fields
        self.on_start, self.on_end = on_start, on_end
        self.field = Record(on_field) if on_field else None


class ListShape:
    """A list whose items all have the shape ``item``."""

    def __init__(self, item: Any, *, on_start: Callable[[Path], None] | None = None,
                 on_end: Callable[[Path, int], None] | None = None) -> None:
        self.item, self.on_start, self.on_end = item, on_start, on_end


_SKIP = Record(lambda path, value: None)
_TOO_BIG = said(N_("the record is larger than the limit of {limit} MB (estimated in memory)"),
               limit=MAX_RECORD_BYTES // 1_000_000)
_STARTS = ("start_map", "start_array")
_ENDS = ("end_map", "end_array")
_STRUCTURE, _BUILDING, _SKIPPING = 0, 1, 2


class Walker:
    """Walks parser events along a shape: checks structure, builds records, skips the rest.

    Every string (and key) is capped at :data:`MAX_STRING_CHARS`, every record at
    :data:`MAX_RECORD_BYTES`, nesting at :data:`MAX_DEPTH`, and exactly one value is allowed.
    """

    def __init__(self, root: Any) -> None:
        self._root = root
        self._frames: list[list[Any]] = []  # [shape, path, key or next index]
        self._mode = _STRUCTURE
        self._started = False
        # The record being built.
        self._target: Record = _SKIP
        self._target_path: Path = ()
        self._stack: list[tuple[Any, Any, bool]] = []
        self._current: Any = None
        self._is_dict = False
        self._key: Any = None
        self._budget = 0
        self._skip_depth = 0

    def feed(self, events: list[tuple[str, Any]]) -> None:
        """Take the next batch of parser events.

        The events are consumed from one iterator by three loops, one per mode: structure
        (the levels above the records, an event at a time), building a record and skipping a
        value. The last two run once per JSON token of the file, so they hold their state in
        local variables and test the commonest events first.
        """
        it = iter(events)
        while True:
            mode = self._mode
            if mode == _BUILDING:
                if not self._build(it):
                    return
            elif mode == _SKIPPING:
                if not self._skip(it):
                    return
            else:
                for event, value in it:
                    self._structure(event, value)
                    if self._mode != _STRUCTURE:
                        break
                else:
                    return

    def _build(self, it: Iterator[tuple[str, Any]]) -> bool:
        """Build the record from the events of ``it``; True once it is whole (and handed on),
        False when the events ran out first (the state is kept for the next batch).

        Records are built with an estimated-memory budget: 24 per value, 48 or 8 per string
        or key plus its characters, 160 per list or object (see MAX_RECORD_BYTES).
        """
        stack, current, is_dict, key, budget = self._stack, self._current, self._is_dict, self._key, self._budget
        room = MAX_DEPTH - len(self._frames)
        for event, value in it:
            if event == "map_key":
                key = value
                size = len(value)
                budget -= size + 8
                if size > MAX_STRING_CHARS:
                    self._fail(stack, current, is_dict, key, _too_long("an object key", value))
                continue
            if event == "number":
                budget -= 24
                if type(value) is Decimal:
                    try:
                        value = exact_float(value)
                    except ValueError:
                        self._fail(stack, current, is_dict, key, too_large(value))
            elif event == "string":
                size = len(value)
                budget -= size + 48
                if size > MAX_STRING_CHARS:
                    self._fail(stack, current, is_dict, key, _too_long("a string", value))
            elif event == "end_map" or event == "end_array":
                if stack:  # the end of a list or object inside the record
                    current, key, is_dict = stack.pop()
                    continue
                # The end of the record.
                self._mode, self._current = _STRUCTURE, None
                target = self._target
                if target.sized:
                    target.on_value(self._target_path, current, MAX_RECORD_BYTES - budget)
                else:
                    target.on_value(self._target_path, current)
                return True
            elif event == "start_map" or event == "start_array":
                child: Any = {} if event == "start_map" else []
                if is_dict:
                    current[key] = child
                else:
                    current.append(child)
                stack.append((current, key, is_dict))
                current, is_dict, key = child, event == "start_map", None
                budget -= 160
                if len(stack) >= room:
                    self._fail(stack, current, is_dict, key, nested_too_deep(MAX_DEPTH))
                if budget < 0:
                    self._fail(stack, current, is_dict, key, _TOO_BIG)
                continue
            else:  # boolean, null
                budget -= 24
            if budget < 0:
                self._fail(stack, current, is_dict, key, _TOO_BIG)
            if is_dict:
                current[key] = value
            else:
                current.append(value)
        self._current, self._is_dict, self._key, self._budget = current, is_dict, key, budget
        return False

    def _skip(self, it: Iterator[tuple[str, Any]]) -> bool:
        """Skip the value being read (checking its nesting and strings); True once it has ended."""
        depth, room = self._skip_depth, MAX_DEPTH - len(self._frames)
        for event, value in it:
            if event == "start_map" or event == "start_array":
                depth += 1
                if depth > room:
                    raise TraceProblem(self._target_path, nested_too_deep(MAX_DEPTH))
            elif event == "end_map" or event == "end_array":
                depth -= 1
                if depth == 0:
                    self._mode = _STRUCTURE
                    return True
            elif (event == "string" or event == "map_key") and len(value) > MAX_STRING_CHARS:
                raise TraceProblem(self._target_path, said(N_("holds {thing}"), thing=_too_long("a string", value)))
        self._skip_depth = depth
        return False

    # Structure: the levels above the records, one event at a time.
    def _structure(self, event: str, value: Any) -> None:
        frames = self._frames
        if not frames:
            if self._started:
                raise TraceProblem((), said(N_("more than one JSON value (only one is allowed)")))
            self._started = True
            self._begin(self._root, (), event, value)
            return
        frame = frames[-1]
        shape, path = frame[0], frame[1]
        if event in _ENDS:
            frames.pop()
            if isinstance(shape, ObjectShape):
                if shape.on_end:
                    shape.on_end(path)
            elif shape.on_end:
                shape.on_end(path, frame[2])
            return
        if isinstance(shape, ObjectShape):
            if event == "map_key":
                _check_string(value, path, "key")
                frame[2] = value
                return
            key = frame[2]
            child = shape.children.get(key)
            if child is None:
                child = shape.field if key in shape.fields and shape.field else _SKIP
            self._begin(child, (*path, key), event, value)
        else:
            index = frame[2]
            frame[2] = index + 1
            self._begin(shape.item, (*path, index), event, value)

    def _begin(self, shape: Any, path: Path, event: str, value: Any) -> None:
        if type(value) is Decimal:
            value = float_at(value, path)
        opens = event in _STARTS
        if opens and len(self._frames) + 1 > MAX_DEPTH:
            raise TraceProblem(path, nested_too_deep(MAX_DEPTH))
        if isinstance(shape, Record):
            if not opens:
                if event == "string":
                    _check_string(value, path, "string")
                if shape.sized:
                    shape.on_value(path, value, len(value) + 48 if event == "string" else 24)
                else:
                    shape.on_value(path, value)
            elif shape is _SKIP:
                self._mode, self._skip_depth, self._target_path = _SKIPPING, 1, path
            else:
                self._mode, self._target, self._target_path = _BUILDING, shape, path
                self._current, self._is_dict = ({}, True) if event == "start_map" else ([], False)
                self._stack, self._key = [], None
                self._budget = MAX_RECORD_BYTES - 160
            return
        wanted = "start_map" if isinstance(shape, ObjectShape) else "start_array"
        if event != wanted:
            found = (said(N_("an object")) if event == "start_map" else said(N_("a list")) if event == "start_array"
                     else describe(value))
            template = (N_("must be an object, got {value}") if wanted == "start_map"
                        else N_("must be a list, got {value}"))
            raise TraceProblem(path, said(template, value=found))
        self._frames.append([shape, path, None if isinstance(shape, ObjectShape) else 0])
        if shape.on_start:
            shape.on_start(path)

    def where(self) -> Path:
        """The place of the value being read now (the one whose end has not come yet)."""
        if self._mode == _BUILDING:
            return self._inside(self._stack, self._current, self._is_dict, self._key)
        if self._mode == _SKIPPING or not self._frames:
            return self._target_path if self._mode == _SKIPPING else ()
        shape, path, key = self._frames[-1]
        return (*path, key) if key is not None else path

    def _inside(self, stack: list[tuple[Any, Any, bool]], current: Any, is_dict: bool, key: Any) -> Path:
        path = list(self._target_path)
        for container, child_key, container_is_dict in stack:
            path.append(child_key if container_is_dict else len(container) - 1)
        if is_dict and key is not None:
            path.append(key)
        elif not is_dict:
            path.append(len(current))
        return tuple(path)

    def _fail(self, stack: list[tuple[Any, Any, bool]], current: Any, is_dict: bool, key: Any,
              problem: Message) -> None:
        raise TraceProblem(self._inside(stack, current, is_dict, key), problem)


_TOO_LONG = {
    "a string": N_("a string of {count} characters, longer than the limit of {limit}"),
    "an object key": N_("an object key of {count} characters, longer than the limit of {limit}"),
    "a key": N_("a key of {count} characters, longer than the limit of {limit}"),
}


def _too_long(what: str, value: str) -> Message:
    """The phrase for a string (``what``: "a string", "an object key", "a key") over the limit."""
    return said(_TOO_LONG[what], count=len(value), limit=MAX_STRING_CHARS)


def _check_string(value: str, path: Path, what: str) -> None:
    if len(value) > MAX_STRING_CHARS:
        raise TraceProblem(path, _too_long(f"a {what}", value))
