"""The runs of another status that hold a cancelled tool call: a run whose call the user cancelled and another
call failed is *failed* (ADR-191: the cancel is not the failure), so ``runs list --outcome cancelled`` leaves it
out; the list says where the other cancelled calls are."""

from __future__ import annotations

from dataclasses import dataclass

from .run_store import RunStore

_RUNS = ("SELECT id FROM runs WHERE status != 'cancelled' AND EXISTS (SELECT 1 FROM steps WHERE steps.run_id = "
         "runs.id AND steps.kind = 'tool' AND steps.outcome = 'cancelled') ORDER BY started_at DESC, id DESC")


@dataclass(frozen=True)
class CancelledElsewhere:
    """How many runs of another status hold a cancelled tool call, and the newest of them (``named`` at most)."""

    count: int
    newest: tuple[int, ...]


def runs_with_cancelled_calls(store: RunStore, named: int = 10) -> CancelledElsewhere:
    """The runs not cancelled themselves with a tool call that was (newest first, as ``runs list`` lists)."""
    ids = [row[0] for row in store.db.conn.execute(_RUNS)]
    return CancelledElsewhere(len(ids), tuple(ids[:named]))


__all__ = ["CancelledElsewhere", "runs_with_cancelled_calls"]
