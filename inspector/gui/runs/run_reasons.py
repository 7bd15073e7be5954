"""Why the Runs list's failed runs failed, in the words of ``runs list`` ("failed (2 of 4 tool calls
failed)"): asked for a page of runs at once (:func:`inspector.store.recovery.page_reasons`), and kept
for the runs a read of the list again finds unchanged."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.store import RunRecord, RunStore
from inspector.store.recovery import page_reasons

#: Why a run failed, as :func:`inspector.i18n.recovery.status_with_recovery` takes it.
Reason = tuple[int, int, bool, str | None]


@dataclass(frozen=True)
class KnownReasons:
    """The runs the list read, by id, and why the failed ones failed, as read last. Never changed in
    place (the model replaces them): a reader thread may read them while the list is shown."""

    runs: dict[int, RunRecord]
    reasons: dict[int, Reason]

    def kept(self, run: RunRecord) -> bool:
        """Whether ``run`` was read before as it is now (its reason, or that it has none, is known)."""
        return self.runs.get(run.id) == run


def run_reasons(store: RunStore, runs: list[RunRecord], known: KnownReasons | None = None) -> dict[int, Reason]:
    """Why each failed run of ``runs`` failed, where known (the words of ``runs list``: its failed tool
    calls, whether its model still answered and how the calls ended), asked for the page at once; a run
    ``known`` holds as it is now keeps the reason read then (a live read of thousands of runs asks again
    only for the runs that changed)."""
    if known is None:
        return {run_id: found.said() for run_id, found in page_reasons(store, runs).items()}
    kept = {run.id for run in runs if known.kept(run)}
    asked = run_reasons(store, [run for run in runs if run.id not in kept])
    return {**{run_id: known.reasons[run_id] for run_id in kept if run_id in known.reasons}, **asked}


__all__ = ["KnownReasons", "Reason", "run_reasons"]
