"""Which of the runs a file brought is shown first: a trace a customer sends holds the run that went
wrong beside runs that say little (a `server/discover` of its own, a notification's trace, a listing),
so the first run that failed is the one shown, else the first cancelled or interrupted one, else the
first of the file. The window selects it; `import` names it, with how many others ended so."""

from __future__ import annotations

from collections.abc import Sequence

from .run_store import RunStore

#: The statuses worth showing first, the most telling first.
TELLING = ("failed", "cancelled", "interrupted")
#: Run ids asked about in one query (SQLite's limit on a statement's variables is far above it).
CHUNK = 500


def telling_runs(store: RunStore, run_ids: Sequence[int]) -> tuple[str, list[int]] | None:
    """The most telling status any of ``run_ids`` has (:data:`TELLING`) and those of them that have it, in
    the order of ``run_ids``; ``None`` when none has one (all ok)."""
    ordered = list(run_ids)
    place = {run_id: index for index, run_id in enumerate(ordered)}
    # Their ids and statuses alone: the records of 6,250 failed runs of an imported trace took 0.3 s to
    # read, and the window waited for them before it showed the file's runs.
    marks = ",".join("?" * len(TELLING))
    found: dict[str, list[int]] = {}
    for start in range(0, len(ordered), CHUNK):
        chunk = ordered[start:start + CHUNK]
        for run_id, status in store.db.conn.execute(
                f"SELECT id, status FROM runs WHERE id IN ({','.join('?' * len(chunk))}) AND status IN ({marks})",
                [*chunk, *TELLING]):
            found.setdefault(status, []).append(run_id)
    for status in TELLING:
        if status in found:
            return status, sorted(found[status], key=place.__getitem__)
    return None


def shown_first(store: RunStore, run_ids: Sequence[int]) -> list[int]:
    """``run_ids`` in their order, with the run to show first moved to the front."""
    telling = telling_runs(store, run_ids)
    if telling is None:
        return list(run_ids)
    first = telling[1][0]
    return [first, *(run_id for run_id in run_ids if run_id != first)]


__all__ = ["TELLING", "shown_first", "telling_runs"]
