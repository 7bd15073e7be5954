"""Two stored runs compared (:mod:`inspector.runs.comparing` does the comparing; this reads the steps)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from inspector.runs.comparing import RunComparison, StepFacts, compare_steps, step_facts
from inspector.runs.timeline import step_outcome

from .ending_legs import ending_legs
from .run_store import RunStore

#: Rows read from SQLite at a time while a run's steps are read, and the most of their payloads' text
#: read at a time: a scenario's model step holds the conversation so far (a step of a 1,500-round run,
#: 700 kB), so 1,000 of them took gigabytes once parsed. A payload larger than this is a batch of its own.
FETCH_ROWS = 1_000
FETCH_BYTES = 4_000_000


def _payload(text: object) -> dict[str, Any]:
    """A stored payload as a dict; a damaged one (a hand edit, a disk fault) as an empty one, which
    compares as a step of no kind (the timeline says what is wrong with it)."""
    try:
        payload = json.loads(text) if isinstance(text, (str, bytes)) else None
    except (ValueError, RecursionError):
        return {}
    return payload if isinstance(payload, dict) else {}


def run_step_facts(store: RunStore, run_id: int) -> list[StepFacts]:
    """The facts of every step of a run, in timeline order (time, then sequence): one query read in
    batches, each payload parsed once and only its facts kept (no step objects; of the legs, only a
    failed step's, without their exchanges: they tell its kind of failure, "timed out").

    :class:`~inspector.store.UnknownRunError` when there is no such run."""
    return _step_facts(store, run_id, show_plumbing=True)[0]


def _is_plumbing(payload: dict[str, Any]) -> bool:
    """Whether the importer marked the step an instrumentation's plumbing (``raw.otlp.plumbing``, the mark
    the span tree reads: :mod:`inspector.store.span_tree`)."""
    raw = payload.get("raw")
    otlp = raw.get("otlp") if isinstance(raw, dict) else None
    return isinstance(otlp, dict) and otlp.get("plumbing") is True


def _step_facts(store: RunStore, run_id: int, *, show_plumbing: bool) -> tuple[list[StepFacts], int]:
    """:func:`run_step_facts`, its plumbing steps left out unless ``show_plumbing``; and how many were."""
    store.get_run(run_id)
    has_rounds = store.has_rounds(run_id)
    cursor = store.db.conn.execute(
        "SELECT id, sequence, payload FROM steps WHERE run_id = ? ORDER BY started_at, sequence", (run_id,))
    facts, hidden = [], 0
    for rows in _batches(cursor):
        parsed = [(step_id, sequence, _payload(payload)) for step_id, sequence, payload in rows]
        if not show_plumbing:
            kept = [step for step in parsed if not _is_plumbing(step[2])]
            hidden += len(parsed) - len(kept)
            parsed = kept
        legs = ending_legs(store, [step_id for step_id, _sequence, payload in parsed
                                   if step_outcome(payload) == "failed"])
        facts.extend(step_facts(payload, sequence, has_rounds=has_rounds, step_id=step_id,
                                legs=legs.get(step_id, ()))
                     for step_id, sequence, payload in parsed)
    return facts, hidden


def _batches(rows: Iterable[tuple[int, int, object]]) -> Iterator[list[tuple[int, int, object]]]:
    """``rows`` (step id, sequence, payload text) in batches of at most :data:`FETCH_ROWS` rows and, but
    for a batch of one, :data:`FETCH_BYTES` of payload text."""
    batch: list[tuple[int, int, object]] = []
    size = 0
    for row in rows:
        text = row[2]
        length = len(text) if isinstance(text, (str, bytes)) else 0
        if batch and (len(batch) == FETCH_ROWS or size + length > FETCH_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(row)
        size += length
    if batch:
        yield batch


def compare_stored_runs(store: RunStore, first_id: int, second_id: int, *,
                        show_plumbing: bool = False) -> RunComparison:
    """The comparison of two stored runs: the second against the first. The plumbing steps of a run read
    from a trace are left out (counted) unless ``show_plumbing``, as ``runs show`` and the timeline hide them."""
    first, first_hidden = _step_facts(store, first_id, show_plumbing=show_plumbing)
    second, second_hidden = _step_facts(store, second_id, show_plumbing=show_plumbing)
    return replace(compare_steps(first, second), hidden_plumbing=(first_hidden, second_hidden))


__all__ = ["compare_stored_runs", "run_step_facts"]
