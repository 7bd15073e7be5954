"""Importing a trace file into the run store: all of it, or nothing.

Accepted: our trace format (``docs/trace-format.md``), a bare JSON list of step payloads (as the
reference stores them), and OTLP JSON (one object, a list of objects, or JSON Lines as the
OpenTelemetry collector's file exporter writes them).

Nothing is written before the whole file has been checked. Pass 1 streams the file, checks
everything and plans the runs, keeping the checked steps in memory up to :data:`CACHE_BUDGET`;
then one transaction writes them. A file too big for that budget is streamed a second time to
write (memory stays bounded either way); a file that changes between the two reads is refused
(its hash is compared) and the transaction rolled back.

This module holds that orchestration and the readers of the three kinds of file; the streaming
JSON they are built on is in :mod:`.json_stream`, telling the kinds apart in :mod:`.trace_sniff`.
"""

from __future__ import annotations

import gc
import hashlib
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any

from inspector.runs import RunStep, RunTrace, StepKind, ToolOutcome, step_outcome

from .database import from_stored_time
from .errors import StoreError
from .json_stream import READ_CHUNK, BadJson, ListShape, ObjectShape, Record, ValueParser, Walker, locate_bad_json
from .otlp import SpanSorter, read_attributes
from .progress_meter import PROGRESS_INTERVAL_S, ProgressMeter
from .run_store import RunStore
from .trace_format import (Path, RunHeader, TraceImportError, TraceProblem, TraceStep, describe, dump_json,
                           format_path, read_run_header, read_step_record, read_payload, read_time)
from .trace_sniff import FileKind, check_format_field, sniff

__all__ = ["CACHE_BUDGET", "ImportReport", "Progress", "TraceImportError", "import_trace"]

Progress = Callable[[int, int], None]
"""``progress(done, total)`` with ``total`` twice the file size: reading counts the bytes read,
writing the same share of the file per step written. It may raise (e.g. to cancel): the
import then stops and writes nothing."""

CACHE_BUDGET = 384_000_000
"""Estimated bytes of checked steps pass 1 may keep for writing (see :meth:`_Plan.step`).

Checking a step (building its :class:`RunStep`) is the dearest part of an import; keeping
the checked steps saves doing it twice. Above the budget they are dropped and re-read."""


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
            meter = ProgressMeter(progress, 2 * total, PROGRESS_INTERVAL_S)
            kind = sniff(source)
            plan = _Plan()
            reader = _reader(kind, plan, checking=True, title=source.stem)
            first_hash = _read(source, kind, reader, meter)
            report = _write(store, source, kind, plan, first_hash, meter)
    except TraceProblem as problem:
        location = format_path(problem.path)
        raise TraceImportError(name, f"line {problem.line}: {location}" if problem.line else location,
                               problem.problem) from None
    except BadJson as bad:
        raise TraceImportError(name, *locate_bad_json(source, bad)) from None
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


def _write(store: RunStore, source: FilePath, kind: FileKind, plan: _Plan, first_hash: str,
           meter: ProgressMeter) -> ImportReport:
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
            cache = plan.cache
            share = meter.total // 2 / max(len(cache), 1)  # writing is the second half of the work
            for number in range(1, len(cache) + 1):
                key, step = cache[number - 1]
                cache[number - 1] = None  # freed once written, while still in the CPU's cache
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
        sequences = self._sequences.get(key)
        if sequences is None:
            sequences = self._sequences[key] = set()
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


# -- the three kinds of file: shapes for json_stream.Walker -----------------------------------------

class _TraceReader:
    """Our trace format: runs with their fields and steps."""

    _RUN_FIELDS = frozenset({"uid", "title", "source", "server", "status", "started_at", "finished_at"})

    def __init__(self, sink: _Plan | _Writer) -> None:
        self._sink = sink
        self._has_runs = False
        self._fields: dict[str, Any] = {}
        self._has_steps = False
        self._run = -1  # the key of the run being read: counted, so a repeated "runs" key cannot merge runs
        step = Record(self._step, sized=True)
        run = ObjectShape({"steps": ListShape(step, on_start=self._steps_start)}, self._RUN_FIELDS,
                          on_start=self._run_start, on_field=self._run_field, on_end=self._run_end)
        self.shape = ObjectShape({"runs": ListShape(run, on_start=self._runs_start)},
                                 frozenset({"format", "version", "exported_at"}),
                                 on_field=self._top_field, on_end=self._top_end)

    def _top_field(self, path: Path, value: Any) -> None:
        if path[-1] == "exported_at":
            read_time(value, path)
        else:
            check_format_field(path[-1], value)

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
        self.shape = ListShape(Record(self._payload, sized=True), on_end=self._end)

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
        scope = ObjectShape({"spans": ListShape(Record(self._span, sized=True))})
        resource_spans = ObjectShape({"scopeSpans": ListShape(scope)}, frozenset({"resource"}),
                                     on_start=self._resource_start, on_field=self._resource)
        traces = ObjectShape({"resourceSpans": ListShape(resource_spans)})
        self.shape = ListShape(traces) if layout == "array" else traces

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


def _reader(kind: FileKind, sink: _Plan | _Writer, *, checking: bool, title: str = "") -> _Reader:
    if kind.name == "trace":
        return _TraceReader(sink)
    if kind.name == "payloads":
        return _PayloadsReader(sink, checking, title)
    return _OtlpReader(sink, kind.layout)


# -- reading the bytes ------------------------------------------------------------------------------

def _read(source: FilePath, kind: FileKind, reader: _Reader, meter: ProgressMeter) -> str:
    """Stream the whole file through ``reader``; return the SHA-256 of its bytes."""
    digest = hashlib.sha256()
    lines = kind.layout == "lines"
    parser = None if lines else ValueParser(Walker(reader.shape), kind.start)
    line, line_start, offset = 1, kind.start, 0
    with source.open("rb") as file:
        while chunk := file.read(READ_CHUNK):
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
                        parser = ValueParser(Walker(reader.shape), line_start, line)
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
