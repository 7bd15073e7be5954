"""A run's steps read ahead of its rows, for the words a timeline's Kind and Duration columns will say: the kinds of
its steps and, of each kind, the longest step of each magnitude a duration is said in (its words are the widest of
that magnitude: "9 min 59 s", "59.9 s"). A step further down a long run that took a minute then has its column's
room before its row is read."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .run_store import RunStore

#: Where a duration's words take another shape (milliseconds): "< 0.001 s", "0.088 s", "0.35 s", "8.0 s", "59.9 s",
#: "9 min 59 s", "59 min 59 s", "9 h 59 min", longer.
MAGNITUDES_MS = (0.5, 100, 1_000, 10_000, 60_000, 600_000, 3_600_000, 36_000_000)
_MAGNITUDE = "CASE " + " ".join(f"WHEN duration_ms < {bound} THEN {number}"
                                for number, bound in enumerate(MAGNITUDES_MS)) + f" ELSE {len(MAGNITUDES_MS)} END"


def longest_steps(store: RunStore, run_id: int) -> list[tuple[str, float]]:
    """(kind as stored, longest duration in ms) of the run's longest step of each kind and magnitude."""
    return [(str(kind), float(duration)) for kind, duration in store.db.conn.execute(
        f"SELECT kind, MAX(duration_ms) FROM steps WHERE run_id = ? GROUP BY kind, {_MAGNITUDE}", (run_id,))
        if duration is not None]


__all__ = ["MAGNITUDES_MS", "longest_steps"]
