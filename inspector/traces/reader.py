"""Reading trace files: our format, bare lists of reference step payloads, and OTLP JSON.

A reader streams a file (never holding it whole) and hands each run header and each checked
step to a *sink*, an object with ``run(key, header, path)`` and ``step(key, step, path, size)``.
:class:`TracePlan` is the sink that checks a whole file and remembers what it found; the
importer (:mod:`inspector.transfer.importing`) passes another sink that writes to the database.
Nothing here knows about SQLite.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Any, Protocol

from inspector.i18n import N_
from inspector.runs import RunStep, RunTrace, StepKind, ToolOutcome, step_outcome

from .fast_lines import MAX_LINE_BYTES, count_key, parse_line
from .file_hash import FileHash
from .format import (
    Path,
    RunHeader,
    TraceProblem,
    TraceStep,
    dump_json,
    place,
    read_payload,
    read_run_header,
    read_step_record,
    read_time,
    said,
)
from .json_stream import READ_CHUNK, ListShape, ObjectShape, Record, ValueParser, Walker
from .kept_span import check_kept_spans
from .otlp import STEP_SEQUENCE, read_attributes
from .plumbing_mark import mark_kept_spans
from .progress import ProgressMeter
from .sniff import FileKind, check_format_field
from .span_parts import NO_RESOURCE, NO_SCOPE, read_resource, read_scope
from .span_repeats import SpanRepeats
from .span_sorter import SpanSorter

__all__ = ["CACHE_BUDGET", "PlannedRun", "TraceSink", "TracePlan", "read_file", "reader_for"]

CACHE_BUDGET = 64_000_000
"""Estimated bytes of checked steps a :class:`TracePlan` may keep for writing.

Checking a step (building its :class:`RunStep`) is the dearest part of an import; keeping
the checked steps saves doing it twice. Above the budget they are dropped and re-read."""


class TraceSink(Protocol):
    """Where a reader sends what it reads."""

    def run(self, key: Any, header: RunHeader, path: Path) -> None: ...

    def step(self, key: Any, step: TraceStep, path: Path, size: int = 0) -> None: ...


# -- what a check of the whole file learns ----------------------------------------------------------

@dataclass
class PlannedRun:
    header: RunHeader
    path: Path


# A kept step costs about this much besides what its record held (objects, times, the list slot).
_STEP_OVERHEAD = 512


NewTable = Callable[[], MutableMapping[Any, Any]]
"""Makes the tables that hold per-run facts: ``dict`` by default; the importer passes tables
that move to disk once they grow (so a file of a million runs needs no gigabytes)."""


class TracePlan:
    """The checking sink: the runs to create, in file order, and (within the budget) the checked
    steps; refuses duplicate uids and sequences."""

    def __init__(self, cache_budget: int = CACHE_BUDGET, new_table: NewTable = dict) -> None:
        self.runs: MutableMapping[Any, PlannedRun] = new_table()
        self.cache: list[tuple[Any, TraceStep]] | None = []
        self._budget = cache_budget
        self._uids: MutableMapping[str, Path] = new_table()
        # Sequences seen, per run while there are few runs; (run, sequence) pairs in a table
        # of new_table's once there are many (a set per run would grow with the number of runs).
        self._sequences: dict[Any, set[int]] | None = {}
        self._seen: MutableMapping[tuple[Any, int], None] | None = None
        self._new_table = new_table
        #: Per run key of ours, its highest sequence: the spans of another tool that join it come after it.
        self.last_sequence: MutableMapping[Any, int] = new_table()

    def run(self, key: Any, header: RunHeader, path: Path) -> None:
        if header.uid in self._uids:
            raise TraceProblem(path, said(N_("the run uid {uid} appears twice in the file (first at {place})"),
                                          uid=repr(header.uid), place=place(self._uids[header.uid])))
        self._uids[header.uid] = path
        self.runs[key] = PlannedRun(header, path)

    def step(self, key: Any, step: TraceStep, path: Path, size: int = 0) -> None:
        """Account for one checked step; ``size`` estimates the bytes it holds in memory."""
        # A foreign trace's key is its trace id, a str (see SpanSorter): the sorter numbers its
        # steps itself, each once, and no run joins it, so neither table below is needed for it
        # (for 100,000 spans, the pairs seen alone made a table on disk).
        if type(key) is not str:
            if not self._first_time(key, step.sequence):
                # (a step span of ours, keyed ("ours", its trace id), holds its sequence in an attribute)
                where = (*path, "attributes", STEP_SEQUENCE) if type(key) is tuple else (*path, "sequence")
                raise TraceProblem(where, said(N_("sequence {sequence} appears twice in this run"),
                                               sequence=step.sequence))
            if step.sequence > self.last_sequence.get(key, 0):
                self.last_sequence[key] = step.sequence
        if self.cache is not None:
            self._budget -= size + _STEP_OVERHEAD
            if self._budget < 0:
                self.cache = None  # too big to keep: pass 2 reads the file again
            else:
                self.cache.append((key, step))

    _MANY_RUNS = 20_000

    def _first_time(self, key: Any, sequence: int) -> bool:
        """Note ``sequence`` in run ``key``; False when it was noted before."""
        sequences = self._sequences
        if sequences is not None:
            seen = sequences.get(key)
            if seen is None:
                if len(sequences) >= self._MANY_RUNS and self._new_table is not dict:
                    self._move_sequences_to_table()
                    return self._first_time(key, sequence)
                seen = sequences[key] = set()
            if sequence in seen:
                return False
            seen.add(sequence)
            return True
        pair = (key, sequence)
        if pair in self._seen:
            return False
        self._seen[pair] = None
        return True

    def _move_sequences_to_table(self) -> None:
        self._seen = self._new_table()
        for run, seen in self._sequences.items():
            for sequence in seen:
                self._seen[(run, sequence)] = None
        self._sequences = None


# -- the three kinds of file: shapes for json_stream.Walker -----------------------------------------

class _TraceReader:
    """Our trace format: runs with their fields and steps."""

    repeats: SpanRepeats | None = None  # no spans

    _RUN_FIELDS = frozenset({"uid", "title", "source", "server", "status", "started_at", "finished_at", "note"})

    def __init__(self, sink: TraceSink) -> None:
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
            raise TraceProblem(path, said(N_("the trace has no 'runs' list")))

    def _run_start(self, path: Path) -> None:
        self._fields = {}
        self._has_steps = False
        self._run += 1

    def _run_field(self, path: Path, value: Any) -> None:
        self._fields[path[-1]] = value

    def _steps_start(self, path: Path) -> None:
        self._has_steps = True

    def _step(self, path: Path, value: Any, size: int) -> None:
        if self._fields.get("source") == "imported" and type(value) is dict:
            # A step an older version exported keeps the plumbing marks of its import: it gets those of a fresh
            # one. Only a run imported (read from a trace) before its steps are read, as our exports write it;
            # a run of ours (live, scenario) never.
            mark_kept_spans(value.get("payload"))
        step = read_step_record(value, path)
        check_kept_spans(value["payload"].get("raw"), (*path, "payload", "raw"))
        self._sink.step(self._run, step, path, size)

    def _run_end(self, path: Path) -> None:
        if not self._has_steps:
            raise TraceProblem(path, said(N_("the run has no 'steps' list")))
        self._sink.run(self._run, read_run_header(self._fields, path), path)

    def finish(self) -> None:
        """Nothing is left to check once the document has ended."""


class _PayloadsReader:
    """A bare list of reference step payloads: one run, titled after the file.

    Its uid hashes the steps' canonical JSON, so importing the same steps again (even
    re-indented) finds the run already present.
    """

    repeats: SpanRepeats | None = None  # no spans

    def __init__(self, sink: TraceSink, checking: bool, title: str) -> None:
        self._sink = sink
        self._checking = checking
        self._title = title
        self._hash = hashlib.sha256()
        self._first_failed: RunStep | None = None
        self._last_tool: RunStep | None = None
        self.shape = ListShape(Record(self._payload, sized=True), on_end=self._end)

    def _payload(self, path: Path, value: Any, size: int) -> None:
        step = read_payload(value, path)
        check_kept_spans(value.get("raw"), (*path, "raw"))
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
            raise TraceProblem(path, said(N_("the list is empty: there are no steps to import")))
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

    def __init__(self, sink: TraceSink, layout: str, new_table: NewTable = dict,
                 stored_payloads: bool = False) -> None:
        self._sorter = SpanSorter(sink.run, sink.step, new_table, stored_payloads)
        #: The spans left out because their trace had a span with their id already.
        self.repeats: SpanRepeats | None = self._sorter.repeats
        self._in_resource, self._in_scope = NO_RESOURCE, NO_SCOPE
        self.line: int | None = None
        # A resource or scope written after its spans is not known to them (writers put it first).
        scope = ObjectShape({"spans": ListShape(Record(self._span, sized=True))}, frozenset({"scope"}),
                            on_start=self._scope_start, on_field=self._scope_field)
        resource_spans = ObjectShape({"scopeSpans": ListShape(scope)}, frozenset({"resource"}),
                                     on_start=self._resource_start, on_field=self._resource)
        traces = ObjectShape({"resourceSpans": ListShape(resource_spans)})
        self.shape = ListShape(traces) if layout == "array" else traces

    def _resource_start(self, path: Path) -> None:
        self._in_resource = NO_RESOURCE

    def _resource(self, path: Path, value: Any) -> None:
        self._in_resource = read_resource(value, path, read_attributes)

    def _scope_start(self, path: Path) -> None:
        self._in_scope = NO_SCOPE

    def _scope_field(self, path: Path, value: Any) -> None:
        self._in_scope = read_scope(value, path, read_attributes)

    def _span(self, path: Path, value: Any, size: int) -> None:
        self._sorter.span(value, path, self._in_resource.service, self.line, size, self._in_resource,
                          self._in_scope)

    def quick_line(self, data: bytes, line: int) -> bool:
        """Read one whole line of JSON Lines the quick way (:mod:`.fast_lines`); False when it must
        be streamed instead (nothing of it was read then)."""
        document = parse_line(data)
        if document is None or not _plain_levels(document, data):
            return False
        try:
            self._walk(document, len(data))
        except TraceProblem as problem:
            problem.line = problem.line or line
            raise
        return True

    def _walk(self, document: dict[str, Any], size: int) -> None:
        """What the walker does with the events of ``document`` (checked by :func:`_plain_levels`)."""
        for index, resource_spans in enumerate(document.get("resourceSpans", ())):
            where: Path = ("resourceSpans", index)
            self._in_resource = NO_RESOURCE
            for key, value in resource_spans.items():
                if key == "resource":
                    self._resource((*where, key), value)
                elif key == "scopeSpans":
                    for scope_index, scope_spans in enumerate(value):
                        self._walk_scope(scope_spans, (*where, key, scope_index), size)

    def _walk_scope(self, scope_spans: dict[str, Any], where: Path, size: int) -> None:
        self._in_scope = NO_SCOPE
        for key, value in scope_spans.items():
            if key == "scope":
                self._scope_field((*where, key), value)
            elif key == "spans":
                share = size // max(len(value), 1)  # the estimate: the span's share of the line
                # What _span hands the sorter, looked up once for the spans of this scope.
                take, resource, scope, line = self._sorter.span, self._in_resource, self._in_scope, self.line
                service = resource.service
                for span_index, span in enumerate(value):
                    take(span, (*where, key, span_index), service, line, share, resource, scope)

    def finish(self) -> None:
        """Report the foreign traces' runs; refuse steps whose run span never came."""
        self._sorter.finish()


def _plain_levels(document: Any, data: bytes) -> bool:
    """True when the levels above the spans have the shapes the walker wants (else it words the
    problem) and no key of theirs comes twice in one object (counted in ``data``, the line)."""
    if type(document) is not dict:
        return False
    found = {"resourceSpans": 0, "resource": 0, "scopeSpans": 0, "scope": 0, "spans": 0}
    resource_spans = document.get("resourceSpans")
    if resource_spans is None and "resourceSpans" not in document:
        return count_key(data, "resourceSpans") == 0
    found["resourceSpans"] = 1
    if type(resource_spans) is not list:
        return False
    for item in resource_spans:
        if type(item) is not dict:
            return False
        found["resource"] += "resource" in item
        if "scopeSpans" not in item:
            continue
        found["scopeSpans"] += 1
        scopes = item["scopeSpans"]
        if type(scopes) is not list:
            return False
        for scope in scopes:
            if type(scope) is not dict:
                return False
            found["scope"] += "scope" in scope
            if "spans" in scope:
                found["spans"] += 1
                if type(scope["spans"]) is not list:
                    return False
    return all(count_key(data, key) == count for key, count in found.items())


TraceReader = _TraceReader | _PayloadsReader | _OtlpReader


def reader_for(kind: FileKind, sink: TraceSink, *, checking: bool, title: str = "",
               new_table: NewTable = dict, stored_payloads: bool = False) -> TraceReader:
    """The reader of ``kind``; ``new_table`` makes the tables it keeps per-run facts in;
    ``stored_payloads``: an OTLP file's steps as :class:`~inspector.runs.step.StoredPayload`
    (checked as a step is, for a sink that only writes them)."""
    if kind.name == "trace":
        return _TraceReader(sink)
    if kind.name == "payloads":
        return _PayloadsReader(sink, checking, title)
    return _OtlpReader(sink, kind.layout, new_table, stored_payloads)


# -- reading the bytes ------------------------------------------------------------------------------

_GREW = N_("the file grew while it was being read (is something still writing it?): import it once it is complete")


def read_file(source: FilePath, kind: FileKind, reader: TraceReader, meter: ProgressMeter, size: int) -> str:
    """Stream the whole file through ``reader``; return the SHA-256 of its bytes.

    ``size`` is the file's size when the import began: a file that grows past it is refused, not read
    on (a file a program keeps appending to would be read for ever)."""
    lines = kind.layout == "lines"
    parser = None if lines else ValueParser(Walker(reader.shape), kind.start, exact=kind.exact)
    # A whole line in the chunk may go the quick way (see fast_lines); a chunk ends at the end of a line
    # unless the line is longer than the quick way takes (that line is streamed).
    quick = getattr(reader, "quick_line", None) if lines else None
    line, line_start, offset = 1, kind.start, 0
    with source.open("rb") as file, FileHash(size, READ_CHUNK) as digest:
        while chunk := file.read(READ_CHUNK if parser is None else parser.wants):
            if quick is not None and not chunk.endswith(b"\n"):
                # The rest of the line the chunk cut, so that it too may go the quick way.
                chunk += file.readline(MAX_LINE_BYTES)
            if offset + len(chunk) > size:
                raise TraceProblem((), said(_GREW))
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
                        if newline >= 0 and quick is not None and quick(piece, line):
                            line, line_start, position = line + 1, offset + newline + 1, newline + 1
                            continue
                        parser = ValueParser(Walker(reader.shape), line_start, line, kind.exact)
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
        file_hash = digest.hexdigest()
    if parser is not None:
        parser.close()
    reader.finish()
    return file_hash
