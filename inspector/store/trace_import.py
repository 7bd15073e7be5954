"""Importing a trace file into the run store: all of it, or nothing.

Accepted: our trace format (``docs/trace-format.md``), a bare JSON list of step payloads (as the
reference stores them), and OTLP JSON (one object, a list of objects, or JSON Lines as the
OpenTelemetry collector's file exporter writes them).

Nothing is written before the whole file has been checked. Pass 1 streams the file, checks
everything and plans the runs, keeping the checked steps in memory up to :data:`CACHE_BUDGET`;
then one transaction writes them. A file too big for that budget is streamed a second time to
write (memory stays bounded either way); a file that changes between the two reads is refused
(its hash is compared) and the transaction rolled back.
"""

from __future__ import annotations

import gc
import hashlib
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

import ijson
from ijson.utils import sendable_list

from inspector.runs import RunStep, RunTrace, StepKind, ToolOutcome, step_outcome

from .database import from_stored_time
from .errors import StoreError
from .otlp import SpanSorter, read_attributes
from .run_store import RunStore
from .trace_format import (FORMAT_NAME, FORMAT_VERSION, MAX_DEPTH, MAX_RECORD_BYTES, MAX_STRING_CHARS, Path,
                           RunHeader, TraceImportError, TraceProblem, TraceStep, describe, dump_json,
                           format_path, read_run_header, read_step_record, read_payload, read_time)

__all__ = ["CACHE_BUDGET", "ImportReport", "Progress", "TraceImportError", "import_trace"]

Progress = Callable[[int, int], None]
"""``progress(done, total)`` with ``total`` twice the file size: reading counts the bytes read,
writing the same share of the file per step written. It may raise (e.g. to cancel): the
import then stops and writes nothing."""

PROGRESS_INTERVAL_S = 0.1

CACHE_BUDGET = 384_000_000
"""Estimated bytes of checked steps pass 1 may keep for writing (see :meth:`_Plan.step`).

Checking a step (building its :class:`RunStep`) is the dearest part of an import; keeping
the checked steps saves doing it twice. Above the budget they are dropped and re-read."""
_CHUNK = 256 * 1024
_BOM = b"\xef\xbb\xbf"
_JSON_ERRORS = (ijson.JSONError,)


@dataclass(frozen=True)
class ImportReport:
    """What an import did. ``file_format`` is ``trace``, ``payloads`` or ``otlp``."""

    file_format: str
    run_ids: tuple[int, ...]
    imported_uids: tuple[str, ...]
    already_present: tuple[str, ...]
    steps_imported: int

    @property
    def runs_imported(self) -> int:
        """How many runs were added."""
        return len(self.run_ids)


def import_trace(store: RunStore, path: str | FilePath, progress: Progress | None = None) -> ImportReport:
    """Import the runs of the file at ``path``; runs whose uid is already stored are skipped.

    Imported runs get source ``imported`` and ``origin`` = the file name, and keep their uid,
    title, server, status and times (a run still ``running`` in the file becomes
    ``interrupted``: no process here is writing it). Raises :class:`TraceImportError`, naming
    the place in the file, for anything wrong; the database is then unchanged.
    """
    source = FilePath(path)
    name = source.name
    try:
        with _without_cyclic_gc():
            total = source.stat().st_size
            meter = _Meter(progress, 2 * total)
            kind = _sniff(source)
            plan = _Plan()
            reader = _reader(kind, plan, checking=True, title=source.stem)
            first_hash = _read(source, kind, reader, meter)
            report = _write(store, source, kind, plan, first_hash, meter)
    except TraceProblem as problem:
        location = format_path(problem.path)
        raise TraceImportError(name, f"line {problem.line}: {location}" if problem.line else location,
                               problem.problem) from None
    except _BadJson as bad:
        raise TraceImportError(name, *_locate(source, bad)) from None
    except OSError as error:
        raise TraceImportError(name, "the file", f"cannot be read ({error.strerror or error})") from None
    except sqlite3.Error as error:
        raise StoreError(f"The runs of {name} could not be written to the run database ({error}). "
                         "Nothing was imported.") from None
    return report


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Pause the cycle collector: an import makes hundreds of thousands of objects, none of
    them in a cycle, and each collection would walk every one kept so far (about 10% of the
    time of a large import). Reference counting still frees everything as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _write(store: RunStore, source: FilePath, kind: _Kind, plan: _Plan, first_hash: str,
           meter: _Meter) -> ImportReport:
    present = [run.header.uid for run in plan.runs.values() if store.find_run_by_uid(run.header.uid)]
    if len(present) == len(plan.runs):
        # Nothing new: the database is not even opened for writing.
        meter.done()
        return ImportReport(kind.name, (), (), tuple(present), 0)
    with store.transaction():
        run_ids: dict[Any, int] = {}
        present = []
        for key, run in plan.runs.items():
            header = run.header
            if store.find_run_by_uid(header.uid):  # imported meanwhile by another process
                present.append(header.uid)
                continue
            # A run still "running" in the file has no process here to finish it.
            status = "interrupted" if header.status == "running" else header.status
            run_ids[key] = store.insert_run(
                header.title, "imported", header.server, from_stored_time(header.started_at), header.uid,
                status, source.name, finished_at=from_stored_time(header.finished_at))
        writer = _Writer(store, run_ids)
        if plan.cache is not None:
            # Every step was kept when it was checked: write them without reading the file again.
            share = meter.half / max(len(plan.cache), 1)
            for number, (key, step) in enumerate(plan.cache, 1):
                writer.step(key, step, ())
                if number % 1000 == 0:
                    meter.advance(int(1000 * share))
        elif run_ids and _read(source, kind, _reader(kind, writer, checking=False), meter) != first_hash:
            raise TraceProblem((), "the file changed while it was being imported; try again")
        meter.done()  # before the commit: a callback that cancels now still writes nothing
    uids = tuple(plan.runs[key].header.uid for key in run_ids)
    return ImportReport(kind.name, tuple(run_ids.values()), uids, tuple(present), writer.count)


# -- what pass 1 learns, and what pass 2 does with it -----------------------------------------------

@dataclass
class _PlannedRun:
    header: RunHeader
    path: Path


# A kept step costs about this much besides what its record held (objects, times, the list slot).
_STEP_OVERHEAD = 512


class _Plan:
    """Pass 1's sink: the runs to create, in file order, and (within the budget) the checked
    steps; refuses duplicate uids and sequences."""

    def __init__(self) -> None:
        self.runs: dict[Any, _PlannedRun] = {}
        self.cache: list[tuple[Any, TraceStep]] | None = []
        self._budget = CACHE_BUDGET
        self._uids: dict[str, Path] = {}
        self._sequences: dict[Any, set[int]] = {}

    def run(self, key: Any, header: RunHeader, path: Path) -> None:
        if header.uid in self._uids:
            raise TraceProblem(path, f"the run uid {header.uid!r} appears twice in the file "
                               f"(first at {format_path(self._uids[header.uid])})")
        self._uids[header.uid] = path
        self.runs[key] = _PlannedRun(header, path)

    def step(self, key: Any, step: TraceStep, path: Path, size: int = 0) -> None:
        """Account for one checked step; ``size`` estimates the bytes it holds in memory."""
        sequences = self._sequences.setdefault(key, set())
        if step.sequence in sequences:
            raise TraceProblem((*path, "sequence"), f"sequence {step.sequence} appears twice in this run")
        sequences.add(step.sequence)
        if self.cache is not None:
            self._budget -= size + _STEP_OVERHEAD
            if self._budget < 0:
                self.cache = None  # too big to keep: pass 2 reads the file again
            else:
                self.cache.append((key, step))


class _Writer:
    """Pass 2's sink: stores the steps of the runs being imported (inside the transaction)."""

    def __init__(self, store: RunStore, run_ids: dict[Any, int]) -> None:
        self._store = store
        self._run_ids = run_ids
        self.count = 0

    def run(self, key: Any, header: RunHeader, path: Path) -> None:
        pass  # runs were created from pass 1's plan

    def step(self, key: Any, step: TraceStep, path: Path, size: int = 0) -> None:
        run_id = self._run_ids.get(key)
        if run_id is not None:  # None: a run already present, skipped
            self._store.insert_step(run_id, step.sequence, step.step, step.started_at)
            self.count += 1


# -- the three kinds of file ------------------------------------------------------------------------

@dataclass(frozen=True)
class _Kind:
    name: str          # "trace", "payloads" or "otlp"
    start: int         # where the JSON begins (after a byte order mark)
    layout: str        # "document", "array" (OTLP objects in a list) or "lines" (JSON Lines)


class _TraceReader:
    """Our trace format: runs with their fields and steps."""

    _RUN_FIELDS = frozenset({"uid", "title", "source", "server", "status", "started_at", "finished_at"})

    def __init__(self, sink: _Plan | _Writer) -> None:
        self._sink = sink
        self._has_runs = False
        self._fields: dict[str, Any] = {}
        self._has_steps = False
        self._run = -1  # the key of the run being read: counted, so a repeated "runs" key cannot merge runs
        step = _Rec(self._step, sized=True)
        run = _Obj({"steps": _Arr(step, on_start=self._steps_start)}, self._RUN_FIELDS,
                   on_start=self._run_start, on_field=self._run_field, on_end=self._run_end)
        self.shape = _Obj({"runs": _Arr(run, on_start=self._runs_start)},
                          frozenset({"format", "version", "exported_at"}),
                          on_field=self._top_field, on_end=self._top_end)

    def _top_field(self, path: Path, value: Any) -> None:
        if path[-1] == "exported_at":
            read_time(value, path)
        else:
            _check_format_field(path[-1], value)

    def _runs_start(self, path: Path) -> None:
        self._has_runs = True

    def _top_end(self, path: Path) -> None:
        if not self._has_runs:
            raise TraceProblem(path, "the trace has no 'runs' list")

    def _run_start(self, path: Path) -> None:
        self._fields = {}
        self._has_steps = False
        self._run += 1

    def _run_field(self, path: Path, value: Any) -> None:
        self._fields[path[-1]] = value

    def _steps_start(self, path: Path) -> None:
        self._has_steps = True

    def _step(self, path: Path, value: Any, size: int) -> None:
        self._sink.step(self._run, read_step_record(value, path), path, size)

    def _run_end(self, path: Path) -> None:
        if not self._has_steps:
            raise TraceProblem(path, "the run has no 'steps' list")
        self._sink.run(self._run, read_run_header(self._fields, path), path)

    def finish(self) -> None:
        """Nothing is left to check once the document has ended."""


class _PayloadsReader:
    """A bare list of reference step payloads: one run, titled after the file.

    Its uid hashes the steps' canonical JSON, so importing the same steps again (even
    re-indented) finds the run already present.
    """

    def __init__(self, sink: _Plan | _Writer, checking: bool, title: str) -> None:
        self._sink = sink
        self._checking = checking
        self._title = title
        self._hash = hashlib.sha256()
        self._first_failed: RunStep | None = None
        self._last_tool: RunStep | None = None
        self.shape = _Arr(_Rec(self._payload, sized=True), on_end=self._end)

    def _payload(self, path: Path, value: Any, size: int) -> None:
        step = read_payload(value, path)
        if self._checking:
            payload = step.to_payload()
            self._hash.update(dump_json(payload).encode() + b"\n")
            if step.kind is StepKind.TOOL:
                self._last_tool = step
                if self._first_failed is None and step_outcome(payload) == ToolOutcome.FAILED:
                    self._first_failed = step
        self._sink.step(0, TraceStep(int(path[-1]) + 1, "", step), path, size)

    def _end(self, path: Path, count: int) -> None:
        if count == 0:
            raise TraceProblem(path, "the list is empty: there are no steps to import")
        if self._checking:
            # RunTrace holds the one rule for a run's status; these two steps decide it.
            steps = [step for step in (self._first_failed, self._last_tool) if step is not None]
            status = RunTrace(steps).outcome.value
            uid = f"payloads-{self._hash.hexdigest()[:32]}"
            self._sink.run(0, RunHeader(uid, self._title, "imported", None, status, "", ""), path)

    def finish(self) -> None:
        """Nothing is left to check once the list has ended."""


class _OtlpReader:
    """OTLP ``TracesData`` objects: spans grouped into runs by trace id."""

    def __init__(self, sink: _Plan | _Writer, layout: str) -> None:
        self._sorter = SpanSorter(sink.run, sink.step)
        self._service: str | None = None
        self.line: int | None = None
        scope = _Obj({"spans": _Arr(_Rec(self._span, sized=True))})
        resource_spans = _Obj({"scopeSpans": _Arr(scope)}, frozenset({"resource"}),
                              on_start=self._resource_start, on_field=self._resource)
        traces = _Obj({"resourceSpans": _Arr(resource_spans)})
        self.shape = _Arr(traces) if layout == "array" else traces

    def _resource_start(self, path: Path) -> None:
        self._service = None

    def _resource(self, path: Path, value: Any) -> None:
        if not isinstance(value, Mapping):
            raise TraceProblem(path, f"must be an object, got {describe(value)}")
        service = read_attributes(value.get("attributes"), (*path, "attributes")).get("service.name")
        self._service = service if isinstance(service, str) else None

    def _span(self, path: Path, value: Any, size: int) -> None:
        self._sorter.span(value, path, self._service, self.line, size)

    def finish(self) -> None:
        """Report the foreign traces' runs; refuse steps whose run span never came."""
        self._sorter.finish()


_Reader = _TraceReader | _PayloadsReader | _OtlpReader


def _reader(kind: _Kind, sink: _Plan | _Writer, *, checking: bool, title: str = "") -> _Reader:
    if kind.name == "trace":
        return _TraceReader(sink)
    if kind.name == "payloads":
        return _PayloadsReader(sink, checking, title)
    return _OtlpReader(sink, kind.layout)


def _check_format_field(key: str, value: Any) -> None:
    if key == "format" and value != FORMAT_NAME:
        raise TraceProblem(("format",), f"unknown format {value!r:.60} (expected {FORMAT_NAME!r})")
    if key == "version":
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise TraceProblem(("version",), f"must be a whole number from 1, got {describe(value)}")
        if value > FORMAT_VERSION:
            raise TraceProblem(("version",), f"the file is format version {value}, written by a newer Run "
                               f"Inspector; this one reads up to version {FORMAT_VERSION}: update Run Inspector")


# -- reading the bytes ------------------------------------------------------------------------------

class _BadJson(Exception):
    """The parser refused the bytes fed between ``good`` and ``bad`` (file offsets)."""

    def __init__(self, reason: str, start: int, good: int, bad: int, line: int | None = None) -> None:
        super().__init__(reason)
        self.reason, self.start, self.good, self.bad, self.line = reason, start, good, bad, line


class _Meter:
    """Calls the progress callback at most every :data:`PROGRESS_INTERVAL_S` seconds."""

    def __init__(self, callback: Progress | None, total: int) -> None:
        self._callback = callback
        self._total = total
        self._done = 0
        self._last = time.monotonic()

    def advance(self, count: int) -> None:
        self._done = min(self._done + count, self._total)
        now = time.monotonic()
        if self._callback is not None and now - self._last >= PROGRESS_INTERVAL_S:
            self._last = now
            self._callback(self._done, self._total)

    @property
    def half(self) -> int:
        """The share of the total that writing accounts for."""
        return self._total // 2

    def done(self) -> None:
        if self._callback is not None:
            self._callback(self._total, self._total)


class _Parser:
    """One JSON value (the document, or one line) fed in pieces to yajl and on to a walker."""

    def __init__(self, walker: _Walker, start: int, line: int | None = None) -> None:
        self._events = sendable_list()
        self._coro = ijson.basic_parse_coro(self._events, use_float=True, multiple_values=True)
        self._walker = walker
        self._start = start
        self._line = line
        self._fed = start

    def feed(self, data: bytes) -> None:
        try:
            self._coro.send(data)
        except _JSON_ERRORS as error:
            raise _BadJson(_reason(error), self._start, self._fed, self._fed + len(data), self._line) from None
        self._fed += len(data)
        self._pass_on()

    def close(self) -> None:
        try:
            self._coro.close()
        except _JSON_ERRORS as error:
            raise _BadJson(_reason(error), self._start, self._fed, self._fed, self._line) from None
        self._pass_on()

    def _pass_on(self) -> None:
        if self._events:
            try:
                self._walker.feed(self._events)
            except TraceProblem as problem:
                problem.line = problem.line or self._line
                raise
            del self._events[:]


def _read(source: FilePath, kind: _Kind, reader: _Reader, meter: _Meter) -> str:
    """Stream the whole file through ``reader``; return the SHA-256 of its bytes."""
    digest = hashlib.sha256()
    lines = kind.layout == "lines"
    parser = None if lines else _Parser(_Walker(reader.shape), kind.start)
    line, line_start, offset = 1, kind.start, 0
    with source.open("rb") as file:
        while chunk := file.read(_CHUNK):
            digest.update(chunk)
            position = max(kind.start - offset, 0)  # skip a byte order mark
            if not lines:
                if position < len(chunk):
                    parser.feed(chunk[position:])
            else:
                while position < len(chunk):
                    newline = chunk.find(b"\n", position)
                    end = newline if newline >= 0 else len(chunk)
                    piece = chunk[position:end]
                    if parser is None and piece.strip():
                        reader.line = line
                        parser = _Parser(_Walker(reader.shape), line_start, line)
                    if parser is not None and piece:
                        parser.feed(piece)
                    if newline < 0:
                        break
                    if parser is not None:
                        parser.close()
                        parser = None
                    line, line_start, position = line + 1, offset + newline + 1, newline + 1
            offset += len(chunk)
            meter.advance(len(chunk))
    if parser is not None:
        parser.close()
    reader.finish()
    return digest.hexdigest()


def _reason(error: Exception) -> str:
    found = re.search(r"(?:lexical|parse) error: ([^\n\\]*)", str(error))
    reason = (found.group(1) if found else str(error).splitlines()[0] if str(error) else "").strip(" .")
    if reason == "premature EOF":
        return "the JSON ends too early (is the file truncated?)"
    return reason or "not JSON"


def _locate(source: FilePath, bad: _BadJson) -> tuple[str, str]:
    """Find the exact byte yajl stops at by parsing again, one byte at a time near the error."""
    events = sendable_list()
    coro = ijson.basic_parse_coro(events, use_float=True, multiple_values=True)
    offset = bad.bad
    with source.open("rb") as file:
        file.seek(bad.start)
        position = bad.start
        try:
            while position < bad.good:
                data = file.read(min(_CHUNK, bad.good - position))
                coro.send(data)
                position += len(data)
                del events[:]
            for byte in file.read(bad.bad - bad.good):
                coro.send(bytes((byte,)))
                position += 1
                del events[:]
            coro.close()
        except _JSON_ERRORS:
            offset = position  # the byte being fed when yajl gave up
        file.seek(0)
        before = file.read(offset)
    line = before.count(b"\n") + 1
    column = offset - (before.rfind(b"\n") + 1) + 1
    if bad.line is not None:  # JSON Lines: the line says more than the byte
        return f"line {bad.line}, column {column} (byte {offset})", f"invalid JSON: {bad.reason}"
    return f"byte {offset} (line {line}, column {column})", f"invalid JSON: {bad.reason}"


# -- telling the kinds of file apart ----------------------------------------------------------------

def _sniff(source: FilePath) -> _Kind:
    """Look at the start of the file (as little as possible) to tell which kind it is."""
    with source.open("rb") as file:
        start = len(_BOM) if file.read(len(_BOM)) == _BOM else 0
        file.seek(start)
        events = sendable_list()
        coro = ijson.basic_parse_coro(events, use_float=True, multiple_values=True)
        sniffer = _Sniffer()
        position, seen_text = start, False
        while chunk := file.read(_CHUNK):
            seen_text = seen_text or bool(chunk.strip())
            try:
                coro.send(chunk)
            except _JSON_ERRORS as error:
                # The events before the error may already tell the kind (a JSON Lines file
                # whose third line is broken); then pass 1 reports the error in its place.
                decided = sniffer.feed(events)
                if decided:
                    break
                raise _BadJson(_reason(error), start, position, position + len(chunk)) from None
            position += len(chunk)
            decided = sniffer.feed(events)
            if decided:
                break
        else:
            if not seen_text:
                raise TraceProblem((), "the file is empty")
            try:
                coro.close()
            except _JSON_ERRORS as error:
                raise _BadJson(_reason(error), start, position, position) from None
            decided = sniffer.feed(events) or sniffer.at_end()
    if decided == "otlp-object":
        return _Kind("otlp", start, "lines" if _first_line_is_whole(source, start) else "document")
    if decided == "otlp-array":
        return _Kind("otlp", start, "array")
    return _Kind(decided, start, "document")


class _Sniffer:
    """Reads events from the start of the first value until the kind of file is clear."""

    def __init__(self) -> None:
        self._root: str | None = None
        self._depth = 0
        self._key: str | None = None
        self._keys: list[str] = []
        self._format: dict[str, Any] = {}

    def feed(self, events: list[tuple[str, Any]]) -> str | None:
        for event, value in events:
            decided = self._event(event, value)
            if decided:
                return decided
        del events[:]
        return None

    def _event(self, event: str, value: Any) -> str | None:
        opens, closes = event in ("start_map", "start_array"), event in ("end_map", "end_array")
        if self._root is None:
            if not opens:
                raise TraceProblem((), f"the file holds {describe(value)}; a trace is a JSON object or list")
            self._root, self._depth = event, 1
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
            _check_format_field(self._key, ({} if event == "start_map" else []) if opens else value)
            self._format[self._key] = value
            return "trace" if len(self._format) == 2 else None
        return self.at_end() if self._depth == 0 else None

    def at_end(self) -> str:
        if "format" in self._format:
            if "version" not in self._format:
                raise TraceProblem((), "the trace has no 'version'")
            return "trace"
        if self._root == "start_array":
            return "payloads"
        keys = ", ".join(repr(key[:40]) for key in self._keys) or "none"
        raise TraceProblem((), "unknown format: an object with neither 'format' (a Run Inspector trace) "
                           f"nor 'resourceSpans' (OTLP); its first keys: {keys}")


def _first_line_is_whole(source: FilePath, start: int) -> bool:
    """True when the first line with text holds a whole JSON value: the file is JSON Lines."""
    events = sendable_list()
    coro = ijson.basic_parse_coro(events, use_float=True, multiple_values=True)
    seen_text = False
    with source.open("rb") as file:
        file.seek(start)
        try:
            while chunk := file.read(_CHUNK):
                position = 0
                while position < len(chunk):
                    newline = chunk.find(b"\n", position)
                    piece = chunk[position:newline] if newline >= 0 else chunk[position:]
                    if piece:  # never send b"": the parser takes it for the end of the file
                        coro.send(piece)
                        del events[:]
                        seen_text = seen_text or bool(piece.strip())
                    if newline < 0:
                        break
                    if seen_text:
                        coro.close()
                        return True
                    position = newline + 1
            coro.close()
        except _JSON_ERRORS:
            return False  # a pretty-printed document; pass 1 reports any real syntax error
    return True


# -- walking the events -----------------------------------------------------------------------------

class _Rec:
    """A value to build whole and hand to ``on_value(path, value)`` (a step, a span).

    When ``sized``, ``on_value(path, value, size)`` also gets an estimate of the bytes the
    value holds in memory (the budget :data:`MAX_RECORD_BYTES` is counted in).
    """

    def __init__(self, on_value: Callable[..., None], *, sized: bool = False) -> None:
        self.on_value = on_value
        self.sized = sized


class _Obj:
    """An object walked key by key: ``children`` have shapes of their own, ``fields`` are built
    and handed to ``on_field(path, value)``, any other key is skipped unread."""

    def __init__(self, children: Mapping[str, Any], fields: frozenset[str] = frozenset(), *,
                 on_start: Callable[[Path], None] | None = None,
                 on_field: Callable[[Path, Any], None] | None = None,
                 on_end: Callable[[Path], None] | None = None) -> None:
        self.children, self.fields = children, fields
        self.on_start, self.on_end = on_start, on_end
        self.field = _Rec(on_field) if on_field else None


class _Arr:
    """A list whose items all have the shape ``item``."""

    def __init__(self, item: Any, *, on_start: Callable[[Path], None] | None = None,
                 on_end: Callable[[Path, int], None] | None = None) -> None:
        self.item, self.on_start, self.on_end = item, on_start, on_end


_SKIP = _Rec(lambda path, value: None)
_TOO_BIG = f"the record is larger than the limit of {MAX_RECORD_BYTES // 1_000_000} MB (estimated in memory)"
_STARTS = ("start_map", "start_array")
_ENDS = ("end_map", "end_array")
_STRUCTURE, _BUILDING, _SKIPPING = 0, 1, 2


class _Walker:
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
        self._target: _Rec = _SKIP
        self._target_path: Path = ()
        self._stack: list[tuple[Any, Any, bool]] = []
        self._current: Any = None
        self._is_dict = False
        self._key: Any = None
        self._budget = 0
        self._skip_depth = 0

    def feed(self, events: list[tuple[str, Any]]) -> None:
        """Take the next batch of parser events.

        One loop for all modes, with the record being built held in local variables: this
        loop runs once per JSON token of the file, so every attribute lookup saved counts.
        Records are built with an estimated-memory budget: 24 per value, 48 or 8 per string
        or key plus its characters, 160 per list or object (see MAX_RECORD_BYTES).
        """
        mode = self._mode
        stack, current, is_dict, key, budget = self._stack, self._current, self._is_dict, self._key, self._budget
        depth, room = self._skip_depth, MAX_DEPTH - len(self._frames)
        for event, value in events:
            if mode == _BUILDING:
                if event == "map_key":
                    key = value
                    budget -= len(value) + 8
                    if len(value) > MAX_STRING_CHARS:
                        self._fail(stack, current, is_dict, key, _too_long("an object key", value))
                    continue
                if event == "string":
                    budget -= len(value) + 48
                    if len(value) > MAX_STRING_CHARS:
                        self._fail(stack, current, is_dict, key, _too_long("a string", value))
                elif event == "number" or event == "boolean" or event == "null":
                    budget -= 24
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
                        self._fail(stack, current, is_dict, key, f"nested deeper than {MAX_DEPTH} levels")
                    if budget < 0:
                        self._fail(stack, current, is_dict, key, _TOO_BIG)
                    continue
                elif stack:  # the end of a list or object inside the record
                    current, key, is_dict = stack.pop()
                    continue
                else:  # the end of the record
                    mode = self._mode = _STRUCTURE
                    record, current = current, None
                    if self._target.sized:
                        self._target.on_value(self._target_path, record, MAX_RECORD_BYTES - budget)
                    else:
                        self._target.on_value(self._target_path, record)
                    continue
                if budget < 0:
                    self._fail(stack, current, is_dict, key, _TOO_BIG)
                if is_dict:
                    current[key] = value
                else:
                    current.append(value)
            elif mode == _SKIPPING:
                if event == "start_map" or event == "start_array":
                    depth += 1
                    if depth > room:
                        raise TraceProblem(self._target_path, f"nested deeper than {MAX_DEPTH} levels")
                elif event == "end_map" or event == "end_array":
                    depth -= 1
                    if depth == 0:
                        mode = self._mode = _STRUCTURE
                elif (event == "string" or event == "map_key") and len(value) > MAX_STRING_CHARS:
                    raise TraceProblem(self._target_path, f"holds {_too_long('a string', value)}")
            else:
                self._structure(event, value)
                mode, room = self._mode, MAX_DEPTH - len(self._frames)
                if mode == _BUILDING:
                    stack, current, is_dict, key, budget = [], self._current, self._is_dict, None, self._budget
                elif mode == _SKIPPING:
                    depth = 1
        self._stack, self._current, self._is_dict, self._key, self._budget = stack, current, is_dict, key, budget
        self._skip_depth = depth

    # Structure: the levels above the records, one event at a time.
    def _structure(self, event: str, value: Any) -> None:
        frames = self._frames
        if not frames:
            if self._started:
                raise TraceProblem((), "more than one JSON value (only one is allowed)")
            self._started = True
            self._begin(self._root, (), event, value)
            return
        frame = frames[-1]
        shape, path = frame[0], frame[1]
        if event in _ENDS:
            frames.pop()
            if isinstance(shape, _Obj):
                if shape.on_end:
                    shape.on_end(path)
            elif shape.on_end:
                shape.on_end(path, frame[2])
            return
        if isinstance(shape, _Obj):
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
        opens = event in _STARTS
        if opens and len(self._frames) + 1 > MAX_DEPTH:
            raise TraceProblem(path, f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(shape, _Rec):
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
                self._budget = MAX_RECORD_BYTES - 160
            return
        wanted = "start_map" if isinstance(shape, _Obj) else "start_array"
        if event != wanted:
            found = {"start_map": "an object", "start_array": "a list"}.get(event) or describe(value)
            raise TraceProblem(path, f"must be {'an object' if wanted == 'start_map' else 'a list'}, got {found}")
        self._frames.append([shape, path, None if isinstance(shape, _Obj) else 0])
        if shape.on_start:
            shape.on_start(path)

    def _fail(self, stack: list[tuple[Any, Any, bool]], current: Any, is_dict: bool, key: Any,
              problem: str) -> None:
        path = list(self._target_path)
        for container, child_key, container_is_dict in stack:
            path.append(child_key if container_is_dict else len(container) - 1)
        if is_dict and key is not None:
            path.append(key)
        elif not is_dict:
            path.append(len(current))
        raise TraceProblem(tuple(path), problem)


def _too_long(what: str, value: str) -> str:
    return f"{what} of {len(value)} characters, longer than the limit of {MAX_STRING_CHARS}"


def _check_string(value: str, path: Path, what: str) -> None:
    if len(value) > MAX_STRING_CHARS:
        raise TraceProblem(path, _too_long(f"a {what}", value))
