"""Spans of another tool in the trace of a run of ours: they join that run instead of making one.

A server that joined a run's trace (through the ``traceparent`` our requests carry) writes spans
with the run's trace id, their parent the leg that carried the request. An import finds the run
they belong to, in the same file (our export merged with the server's spans) or, failing that,
in the database, and adds them to it as steps after its own (``raw.otlp`` as for any span), each
span once: a span already stored in that run is skipped, so importing the server's file again
adds nothing; a call's side stored alone becomes the call's two-sided step once the other side
comes (:mod:`inspector.store.joined_steps`). See docs/trace-format.md, "Server spans in a run of ours".
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from inspector.runs.trace_ids import trace_id
from inspector.store import RunStore, StepRow
from inspector.store.joined_steps import JoinedSteps
from inspector.traces.reader import TracePlan
from inspector.traces.span_sorter import our_key

__all__ = ["NOT_OURS", "Joins"]

#: Runs made from foreign traces and bare payload lists have uids of these forms: no span of ours names them.
NOT_OURS = ("otlp-", "payloads-")


class Joins:
    """Which planned foreign traces join a run of ours, which run, and where their steps go."""

    def __init__(self, store: RunStore, plan: TracePlan) -> None:
        self._store = store
        self._plan = plan
        self._by_trace: dict[str, str] | None = None
        #: key of the foreign trace → the uid of the run it joins
        self.joining: dict[Any, str] = {}
        #: key → (the run's id, the sequence its first joined step follows, the spans its steps hold)
        self._targets: dict[Any, tuple[int, int, JoinedSteps]] = {}
        self.joined_uids: list[str] = []

    def find(self) -> None:
        """Pass 1's runs: note the foreign traces that join a run of ours."""
        for key, run in self._plan.runs.items():
            header = run.header
            if header.joins:
                self.joining[key] = header.joins
            elif header.source == "otlp" and isinstance(key, str) and header.uid == f"otlp-{key}":
                uid = self._stored_traces().get(key)
                if uid is not None:
                    self.joining[key] = uid

    def _stored_traces(self) -> dict[str, str]:
        """Trace id → uid of every run of ours in the database (read once, only when needed)."""
        if self._by_trace is None:
            rows = self._store.db.conn.execute("SELECT uid FROM runs").fetchall()
            self._by_trace = {trace_id(uid): uid for (uid,) in rows if not uid.startswith(NOT_OURS)}
        return self._by_trace

    def resolve(self, run_ids: MutableMapping[Any, int]) -> None:
        """Inside the import's transaction, once its new runs exist: each joining trace's run."""
        for key, uid in self.joining.items():
            ours = our_key(key) if isinstance(key, str) else None
            if ours is not None and ours in run_ids:  # the run came in this file
                self._targets[key] = (run_ids[ours], self._plan.last_sequence.get(ours, 0),
                                      JoinedSteps(self._store, run_ids[ours], stored=False))
            else:
                stored = self._store.find_run_by_uid(uid)
                if stored is None:
                    continue
                last = self._store.next_sequence(stored.id) - 1
                self._targets[key] = (stored.id, last, JoinedSteps(self._store, stored.id))
            run_ids[key] = self._targets[key][0]
            self.joined_uids.append(uid)

    def joins(self, key: Any) -> bool:
        """Do the steps of ``key`` join a run of ours (then :meth:`place` needs their rows)?"""
        return key in self._targets

    def place(self, key: Any, sequence: int, started_at: str, row: StepRow) -> int | None:
        """The sequence a joined step of ``key`` gets in its run (``None``: its spans are stored already,
        or it was written over the stored step of one of them); a step of any other run keeps ``sequence``."""
        target = self._targets.get(key)
        if target is None:
            return sequence
        _, last, steps = target
        # (stored already, or twice in the file: our export merged with the server's spans)
        return last + sequence if steps.place(last + sequence, started_at, row) else None
