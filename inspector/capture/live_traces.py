"""Traces as they arrive, over many requests and in any order: each one a run that grows, then settles.

The spans of a trace are held in memory in the order they arrived (a span sent again is left out:
the first with its id is kept, as an import keeps it); each time the trace grows, all of them are
mapped again by the importer's own reader (:func:`inspector.traces.span_batch.map_spans`) and the
run is written again, whole, with status
``running``. After :data:`QUIET_S` seconds without a new span the trace is settled: written once
more with the status an import of its spans gives. A span arriving later reopens it (spans of a
settled trace stay in memory while there is room; beyond that they are read back from the stored
steps, which keep every span they were made of).

Not thread-safe: one thread (the receiver's writer) owns an instance and the store it writes to.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Count, Message
from inspector.mcp.address_query import address_to_keep
from inspector.runs.trace_ids import trace_id as run_trace_id
from inspector.store import RunStore, step_row
from inspector.store.live_runs import RECEIVER_ORIGIN, Finished, LiveRun, finish_live_runs, write_live_runs
from inspector.traces.foreign_spans import spans_of_step
from inspector.traces.format import RunHeader, TraceProblem, place
from inspector.traces.otlp import read_span
from inspector.traces.span_batch import HeldSpan, MappedRun, map_spans, mapped_run
from inspector.traces.span_repeats import fingerprint

from .live_joins import LiveJoins

QUIET_S = 5.0
"""Seconds without a new span after which a trace counts as finished. An SDK's batch processor
exports every 5 s at the latest by default, so a trace still in use sends within that time."""
MAX_TRACE_SPANS = 20_000
"""Spans of one trace held (and mapped again as it grows); more are refused."""
MAX_HELD_SPANS = 200_000
"""Spans held in memory for all traces; settled traces make room first, then new spans are refused."""


@dataclass(frozen=True)
class RunReceived:
    """What one write did to a run: for the command line's lines and the window's status."""

    run_id: int
    uid: str
    title: str
    status: str
    steps: int
    created: bool


@dataclass(frozen=True)
class Taken:
    """How a request's spans were taken: how many were refused, and the first reason."""

    rejected: int = 0
    reason: Message | None = None


@dataclass(frozen=True)
class _Written:
    """The run a trace's spans made when it was last written whole (as running), and its count of steps."""

    header: RunHeader
    steps: int


@dataclass
class _Trace:
    spans: dict[str, HeldSpan] = field(default_factory=dict)  # span id → span, in arrival order
    last_span_at: float = 0.0
    settled: bool = False
    #: Its run as last written whole from these spans (None: not written so, or not as a run of its own).
    written: _Written | None = None


@dataclass(frozen=True)
class _Before:
    """A trace as it was before a request grew it (``spans`` None: it was not held)."""

    trace_id: str
    trace: _Trace
    spans: dict[str, HeldSpan] | None
    last_span_at: float
    settled: bool


class LiveTraces:
    """The traces being received, and their runs in ``store``."""

    def __init__(self, store: RunStore, on_run: Callable[[RunReceived], None] | None = None,
                 quiet_s: float = QUIET_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.quiet_s = quiet_s
        self._on_run = on_run or (lambda received: None)
        self._clock = clock
        self._traces: OrderedDict[str, _Trace] = OrderedDict()  # least recently grown first
        self._held = 0
        self._joins = LiveJoins(store)
        #: How many write transactions succeeded (the receiver sees a database free again by it).
        self.writes = 0

    # -- spans in -----------------------------------------------------------------------------------

    def add(self, spans: list[HeldSpan]) -> Taken:
        """Take the spans of one request; write the runs of the traces they grow. When the write fails
        (the database locked by another program), the traces are held as they were before the request:
        nothing of it is kept, in the database or here, and its exporter sends it again."""
        rejected, reason = 0, None
        by_trace: dict[str, list[tuple[str, HeldSpan]]] = {}
        for index, held in enumerate(spans):
            try:
                span = read_span(held.span, ("spans", index))
            except TraceProblem as problem:
                rejected, reason = rejected + 1, reason or _refused(problem)
                continue
            by_trace.setdefault(span.trace_id, []).append((span.span_id, held))
        grown: list[MappedRun] = []
        undo: list[_Before] = []
        for trace_id, arrived in by_trace.items():
            refused, why = self._grow(trace_id, arrived, grown, undo)
            rejected, reason = rejected + refused, reason or why
        try:
            written = self._write(grown, running=True)
        except BaseException:
            for before in reversed(undo):
                self._restore(before)
            raise
        for before, mapped in zip(undo, grown, strict=True):  # each grown trace's undo, in the same order
            header = mapped.header
            before.trace.written = (_Written(header, len(mapped.steps)) if header is not None and header.uid in written
                                    else None)
        return Taken(rejected, reason)

    def _grow(self, trace_id: str, arrived: list[tuple[str, HeldSpan]], grown: list[MappedRun],
              undo: list[_Before]) -> tuple[int, Message | None]:
        held = self._traces.get(trace_id)
        trace = held or self._reopen(trace_id)
        new, clashing, clash = _first_of_each(trace_id, trace.spans, arrived)
        if not new:  # every span was here already (an exporter's request sent again): nothing changes
            if held is None:
                self._held -= len(trace.spans)  # reopened for nothing: let go of again
            return clashing, clash
        over = len(trace.spans) + len(new) - MAX_TRACE_SPANS
        if over > 0:  # the first spans that fit are kept, the rest refused (not the whole request, or slice)
            full = Message(N_("trace {trace} has more than {limit} spans; the receiver keeps no more of it"),
                           {"trace": trace_id, "limit": Count(MAX_TRACE_SPANS)})
            if over >= len(new):
                return len(arrived), full
            new = dict(list(new.items())[:len(new) - over])
            clashing, clash = clashing + over, full
        if not self._room_for(len(new), trace_id):
            return len(arrived), Message(N_("the receiver holds {limit} spans already; send fewer at once"),
                                         {"limit": Count(MAX_HELD_SPANS)})
        before = dict(trace.spans)
        trace.spans.update(new)
        try:
            mapped = mapped_run(map_spans(trace.spans.values()), trace_id)
        except TraceProblem as problem:
            trace.spans = before  # the trace stays as it was; the request's spans of it are refused
            self._keep(trace_id, trace)
            return len(arrived), _refused(problem)
        if mapped.header is not None and not _belongs(mapped.header.uid, trace_id):
            # A run span naming the run of another trace ("otlp-<its id>", or a uid of ours whose trace id is
            # not this one) would replace that run, its steps and its note: refused, the trace as it was.
            trace.spans = before
            self._keep(trace_id, trace)
            return len(arrived), Message(N_("trace {trace}: its run span names the run {uid}, which belongs to "
                                            "another trace; its spans are refused"),
                                         {"trace": trace_id, "uid": mapped.header.uid[:80]})
        self._held += len(trace.spans) - len(before)
        undo.append(_Before(trace_id, trace, before if held is not None else None, trace.last_span_at, trace.settled))
        trace.last_span_at, trace.settled = self._clock(), False
        self._keep(trace_id, trace)
        self._traces.move_to_end(trace_id)
        grown.append(mapped)
        return clashing, clash

    def _restore(self, before: _Before) -> None:
        """A trace as it was before a request whose write failed (one reopened for it is let go of again)."""
        trace = before.trace
        if before.spans is None:
            self._held -= len(trace.spans)
            self._traces.pop(before.trace_id, None)
            return
        self._held -= len(trace.spans) - len(before.spans)
        trace.spans, trace.last_span_at, trace.settled = before.spans, before.last_span_at, before.settled

    def _keep(self, trace_id: str, trace: _Trace) -> None:
        if trace.spans:
            self._traces[trace_id] = trace

    def _reopen(self, trace_id: str) -> _Trace:
        """A trace not held: new, or settled and let go of (or received before the receiver started
        again); then its spans come back from its steps: those of its run, or, for a trace that joins a
        run of ours, the steps another tool's spans made there (so a call's client side arriving now
        joins its server side's stored step)."""
        trace = _Trace()
        run = self.store.find_run_by_uid(f"otlp-{trace_id}")
        joined = False
        if run is None or run.origin != RECEIVER_ORIGIN:
            ours = self._joins.run_of(trace_id)
            run, joined = (self.store.find_run_by_uid(ours) if ours is not None else None), True
        if run is not None:
            for stored in self.store.iter_steps(run.id):
                if joined and not _spans_kept(stored.payload):
                    continue  # a step of ours: rebuilt from its run, not from spans
                for piece in spans_of_step(run.uid, stored.sequence, stored.started_at, stored.payload):
                    held = HeldSpan(piece.resource, piece.scope, piece.span, restored=True)
                    trace.spans[str(piece.span["spanId"])] = held
            self._held += len(trace.spans)
        return trace

    def _room_for(self, count: int, growing: str) -> bool:
        """Let go of settled traces (not ``growing``), least recently grown first, until ``count`` more spans fit."""
        while self._held + count > MAX_HELD_SPANS:
            settled = next((key for key, trace in self._traces.items() if trace.settled and key != growing), None)
            if settled is None:
                return False
            self._held -= len(self._traces.pop(settled).spans)
        return True

    # -- settling -----------------------------------------------------------------------------------

    def settle(self, everything: bool = False) -> None:
        """Write as finished the traces quiet for :attr:`quiet_s` (``everything``: all of them, as
        the receiver stops): a run written whole from the spans its trace holds is given its final status
        (:func:`~inspector.store.live_runs.finish_live_runs`), any other written whole again."""
        now = self._clock()
        quiet = [(trace_id, trace) for trace_id, trace in self._traces.items()
                 if not trace.settled and (everything or now - trace.last_span_at >= self.quiet_s)]
        if not quiet:
            return
        quiet = [(trace_id, trace) for trace_id, trace in quiet if trace.written is None] + self._finish(
            [(trace_id, trace) for trace_id, trace in quiet if trace.written is not None])
        if not quiet:
            return
        self._write([mapped_run(map_spans(trace.spans.values()), trace_id) for trace_id, trace in quiet],
                    running=False)
        for _, trace in quiet:  # only once written: a write that failed is tried again
            trace.settled = True

    def _finish(self, traces: list[tuple[str, _Trace]]) -> list[tuple[str, _Trace]]:
        """Settle ``traces`` (by id; each with the run it was last written as) by their runs' status and end;
        return those whose run is no longer the receiver's here (deleted meanwhile): they are written whole."""
        if not traces:
            return []
        runs = [trace.written for _, trace in traces if trace.written is not None]
        done = finish_live_runs(self.store, [Finished(run.header.uid, _settled_status(run.header),
                                                      run.header.finished_at) for run in runs])
        self.writes += 1
        again = []
        for (trace_id, trace), run, written in zip(traces, runs, done, strict=True):
            if written is None:
                again.append((trace_id, trace))
                continue
            trace.settled = True
            self._on_run(RunReceived(written.run_id, run.header.uid, run.header.title, _settled_status(run.header),
                                     run.steps, False))
        return again

    @property
    def growing(self) -> int:
        """How many traces are still receiving spans (not settled)."""
        return sum(1 for trace in self._traces.values() if not trace.settled)

    # -- the run ------------------------------------------------------------------------------------

    def _write(self, mapped: list[MappedRun], *, running: bool) -> set[str]:
        """Write the runs (one transaction), then tell ``on_run`` of each; return the uids of the runs written
        whole as runs of their own."""
        runs = []
        joined: list[tuple[str, MappedRun]] = []
        for found in mapped:
            header = found.header
            if header is None:
                continue  # one of our own runs whose run span has not come yet
            ours = self._joins.run_of(header.uid.removeprefix("otlp-")) if header.uid.startswith("otlp-") else None
            if ours is not None:  # a server's spans in the trace of a run of ours: they join it
                joined.append((ours, found))
                continue
            # As an import: a run still running in its spans has no process here to finish it; its server as this
            # program keeps one (no password, query or credential of a command line a stranger's spans give).
            status = "running" if running else _settled_status(header)
            server = header.server and address_to_keep(header.server)
            runs.append(LiveRun(header.uid, header.title, server, status, header.started_at,
                                "" if running else header.finished_at, header.note,
                                [(step.sequence, step.started_at, step_row(step.step)) for step in found.steps]))
        if joined:
            self._join(joined)
            self.writes += 1
        if not runs:
            return set()
        stored = write_live_runs(self.store, runs)
        self.writes += 1
        for run, written in zip(runs, stored, strict=True):
            if written is not None:
                self._on_run(RunReceived(written.run_id, run.uid, run.title, run.status, len(run.steps),
                                         written.created))
        return {run.uid for run, written in zip(runs, stored, strict=True) if written is not None}


    def _join(self, joined: list[tuple[str, MappedRun]]) -> None:
        with self.store.transaction():
            done = [(uid, self._joins.join(uid, [(step.sequence, step.started_at, step_row(step.step))
                                                 for step in found.steps])) for uid, found in joined]
        for uid, added in done:
            run = self.store.find_run_by_uid(uid) if added is not None and added[1] else None
            if run is not None:
                self._on_run(RunReceived(run.id, uid, run.title, run.status, added[1], False))


def _first_of_each(trace_id: str, held: dict[str, HeldSpan], arrived: list[tuple[str, HeldSpan]]
                   ) -> tuple[dict[str, HeldSpan], int, Message | None]:
    """The spans of ``arrived`` whose ids the trace does not hold yet, in order (the first of each id: an
    import keeps the first span with an id too); how many others differ from the span their id names
    already, and what to say of the first of them. A span sent again as it was is no fault (an exporter's
    retry); nor is one whose first was read back from a stored step, which keeps less than was sent."""
    new: dict[str, HeldSpan] = {}
    clashing, clash = 0, None
    for span_id, span in arrived:
        first = held.get(span_id) or new.get(span_id)
        if first is None:
            new[span_id] = span
        elif not first.restored and _read(first) != _read(span):
            clashing += 1
            clash = clash or Message(N_("span {span} of trace {trace} differs from the span sent before under its "
                                        "id; the first is kept"), {"span": span_id, "trace": trace_id})
    return new, clashing, clash


def _settled_status(header: RunHeader) -> str:
    """A settled run's status, as an import gives it: a run still running in its spans has no process here to
    finish it."""
    return "interrupted" if header.status == "running" else header.status


def _spans_kept(payload: Any) -> bool:
    """Was the step made of a span (``raw.otlp`` keeps it)?"""
    raw = payload.get("raw") if isinstance(payload, dict) else None
    otlp = raw.get("otlp") if isinstance(raw, dict) else None
    return isinstance(otlp, dict) and bool(otlp.get("spanId"))


def _belongs(uid: str, trace_id: str) -> bool:
    """Is ``uid`` the run of ``trace_id``: ``otlp-<trace_id>``, or a run of ours, whose trace id derives
    from its uid (:func:`inspector.runs.trace_ids.trace_id`)?"""
    return uid == f"otlp-{trace_id}" or run_trace_id(uid) == trace_id


def _read(held: HeldSpan) -> int:
    """What an import reads of the span (:func:`fingerprint`: the same whether it came as JSON or protobuf)."""
    return fingerprint(read_span(held.span, ()))


def _refused(problem: TraceProblem) -> Message:
    return Message(N_("{place}: {problem}"), {"place": place(problem.path or ()), "problem": problem.sentence})
