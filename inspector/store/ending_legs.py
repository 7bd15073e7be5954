"""The legs of stored steps as far as they tell how a step ended: a view that says a failed step's kind
of failure ("failed: timed out", "failed: not sent") reads them here, by the one rule of
:func:`inspector.runs.ending.stored_ending`, as ``runs show`` and the step detail read them.

A timeline row counts its legs but does not carry them; their exchanges (the bulk of a leg) are not read."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.runs import Leg

from .run_store import RunStore

#: Step ids asked for in one query (SQLite's limit on bound parameters is far above it).
CHUNK = 500


def ending_legs(store: RunStore, step_ids: Sequence[int]) -> dict[int, tuple[Leg, ...]]:
    """Each of ``step_ids``' legs in order, without exchanges; a step without legs is absent, and a
    damaged leg is left out (as the step detail's replay leaves it out)."""
    found: dict[int, list[Leg]] = {}
    for start in range(0, len(step_ids), CHUNK):
        chunk = list(step_ids[start:start + CHUNK])
        for step_id, method, granted, elapsed, status, outcome in store.db.conn.execute(
                "SELECT step_id, method, granted_s, elapsed_ms, http_status, outcome FROM legs"
                f" WHERE step_id IN ({','.join('?' * len(chunk))}) ORDER BY step_id, position", chunk):
            try:
                found.setdefault(step_id, []).append(Leg(method, granted, elapsed, status, outcome))
            except ValueError:
                continue
    return {step_id: tuple(legs) for step_id, legs in found.items()}


__all__ = ["ending_legs"]
