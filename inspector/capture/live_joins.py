"""A server's received spans in the trace of a run of ours join that run, as an import joins them.

A server that read the ``traceparent`` our requests carry writes spans with the run's trace id. The
receiver maps them as another tool's trace (an ``otlp-<trace>`` run); when a run of ours with that
trace id is in the database, its steps are added to that run instead, after its own steps, each span
once (a trace that grows is mapped again whole: the spans stored already are skipped, and a call's side
stored alone becomes the call's two-sided step once the other side has come). See
``inspector.transfer.joining`` for the same rule on import, and docs/receiver.md.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspector.runs.trace_ids import trace_id
from inspector.store import RunStore, StepRow
from inspector.store.joined_steps import JoinedSteps
from inspector.transfer.joining import NOT_OURS

#: ``(sequence, started_at, step_row)`` of a mapped step, as a live run holds them.
Rows = Sequence[tuple[int, str, StepRow]]


class LiveJoins:
    """Which of the database's runs are ours, by trace id (read incrementally, as runs are added)."""

    def __init__(self, store: RunStore) -> None:
        self._store = store
        self._ours: dict[str, str] = {}
        self._seen_id = 0

    def run_of(self, trace: str) -> str | None:
        """The uid of our run with trace id ``trace``, or ``None``."""
        if trace not in self._ours:
            rows = self._store.db.conn.execute("SELECT id, uid FROM runs WHERE id > ? ORDER BY id",
                                               (self._seen_id,)).fetchall()
            for run_id, uid in rows:
                self._seen_id = max(self._seen_id, run_id)
                if not uid.startswith(NOT_OURS):
                    self._ours[trace_id(uid)] = uid
        return self._ours.get(trace)

    def join(self, uid: str, steps: Rows) -> tuple[int, int] | None:
        """Add the steps whose spans ``uid``'s run does not hold yet, after its own, a call's other side
        to the step of the side stored (inside the caller's transaction); ``(run id, steps added or
        written over)``, or ``None`` when the run is gone."""
        run = self._store.find_run_by_uid(uid)
        if run is None:
            return None
        held = JoinedSteps(self._store, run.id)
        last = self._store.next_sequence(run.id) - 1
        rows = []
        for _sequence, started_at, row in steps:
            if held.place(last + 1, started_at, row):
                last += 1
                rows.append((run.id, last, started_at, row))
        self._store.insert_step_rows(rows)
        return run.id, len(rows) + held.written_over


__all__ = ["LiveJoins"]
