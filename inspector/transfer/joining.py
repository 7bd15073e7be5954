"""Spans of another tool in the trace of a run of ours: they join that run instead of making one.

A server that joined a run's trace (through the ``traceparent`` our requests carry) writes spans
with the run's trace id, their parent the leg that carried the request. An import finds the run
they belong to, in the same file (our export merged with the server's spans) or, failing that,
in the database, and adds them to it as steps after its own (``raw.otlp`` as for any span), each
span once: a span already stored in that run is skipped, so importing the server's file again
adds nothing. See docs/trace-format.md, "Server spans in a run of ours".
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

from inspector.runs.trace_ids import trace_id
from inspector.store import RunStore
from inspector.traces.reader import TracePlan
from inspector.traces.span_sorter import our_key

__all__ = ["NOT_OURS", "Joins", "span_ids_of_run", "span_of_payload"]

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
        #: key → (the run's id, the sequence its first joined step follows, span ids stored there already)
        self._targets: dict[Any, tuple[int, int, set[str]]] = {}
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
                self._targets[key] = (run_ids[ours], self._plan.last_sequence.get(ours, 0), set())
            else:
                stored = self._store.find_run_by_uid(uid)
                if stored is None:
                    continue
                last = self._store.next_sequence(stored.id) - 1
                self._targets[key] = (stored.id, last, span_ids_of_run(self._store, stored.id))
            run_ids[key] = self._targets[key][0]
            self.joined_uids.append(uid)

    def place(self, key: Any, sequence: int, payload: str | bytes) -> int | None:
        """The sequence a joined step of ``key`` gets in its run (``None``: its span is stored already);
        a step of any other run keeps ``sequence``."""
        target = self._targets.get(key)
        if target is None:
            return sequence
        _, last, known = target
        span = span_of_payload(payload)
        if span is not None:
            if span in known:  # stored already, or twice in the file (our export merged with the server's spans)
                return None
            known.add(span)
        return last + sequence


def span_ids_of_run(store: RunStore, run_id: int) -> set[str]:
    rows = store.db.conn.execute(
        "SELECT json_extract(payload, '$.raw.otlp.spanId') FROM steps WHERE run_id = ? AND json_valid(payload)",
        (run_id,)).fetchall()
    return {span for (span,) in rows if isinstance(span, str)}


def span_of_payload(payload: str | bytes) -> str | None:
    try:
        found = json.loads(payload)["raw"]["otlp"]["spanId"]
    except (ValueError, KeyError, TypeError):
        return None
    return found if isinstance(found, str) else None

