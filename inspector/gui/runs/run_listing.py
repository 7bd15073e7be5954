"""What the Runs list reads of the database: the ids of its runs in order, and the records of the rows
it shows (with their pushes and why the failed ones failed), a page of :data:`RECORD_PAGE` at a time.

The ids are cheap (a list of 25,000 runs in milliseconds); a record is not (60-70 us a run, half of it
the failed run's reason). So a list filtered or sorted with its current run 24,000 rows down reads the
ids down to it and the records of the rows painted: reading every record down to it held the window
0.5-2.8 s (benchmarks/README.md, section 15).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from inspector.store import RunRecord, RunStore
from inspector.store.browse import RunFilter, count_runs, listed_ids_through, runs_by_id
from inspector.store.named_servers import server_names
from inspector.store.outbox import Outbox, OutboxEntry
from inspector.store.plumbing_traces import without_plumbing_traces

from .run_reasons import KnownReasons, Reason, run_reasons

#: Runs listed at a time (their ids): a page as the view scrolls, and past the run it must reach.
PAGE_SIZE = 500
#: Rows whose records are read at once as the view shows them.
RECORD_PAGE = 100


@dataclass(frozen=True)
class RunRecords:
    """Some listed runs' records by id, with their pushes (the outbox's row) and why the failed ones failed."""

    runs: dict[int, RunRecord]
    pushes: dict[int, OutboxEntry]
    reasons: dict[int, Reason]


def read_records(store: RunStore, run_ids: Sequence[int], known: KnownReasons | None = None) -> RunRecords:
    """The records of these runs (those still stored); the reasons ``known`` of runs unchanged are
    not asked for again."""
    runs = runs_by_id(store, run_ids)
    listed = [runs[run_id] for run_id in run_ids if run_id in runs]
    return RunRecords(runs, Outbox(store.db.conn).of_runs(list(runs)), run_reasons(store, listed, known))


#: As many runs as there may be: a list read to its end (a search lists every run it finds at once; Select All).
EVERY_RUN = 1_000_000_000


def ids_reaching(store: RunStore, where: RunFilter, order: str, descending: bool, limit: int,
                 reaching: Collection[int] = (), offset: int = 0, more: int = PAGE_SIZE) -> tuple[list[int], bool]:
    """The ids of ``limit`` listed runs from ``offset`` on, and as far down as the runs ``reaching``
    the filter selects (and ``more`` after them) when they are further; and whether more follow. A search
    lists every run it finds at once (their ids): it reads the steps of every run, once for the list,
    not once for each page scrolled to."""
    if where.text.strip():
        limit = max(limit, EVERY_RUN)
    return listed_ids_through(store, reaching, where, order, descending, offset, more, limit)


def ids_and_plumbing(store: RunStore, where: RunFilter, order: str, descending: bool, limit: int,
                     reaching: Collection[int] = ()) -> tuple[list[int], bool, int]:
    """:func:`ids_reaching`'s ids and whether more follow, and how many plumbing traces the filter selects
    (left out by ``where.plumbing_traces=False``, as ``runs list`` leaves them out, or listed): a search's
    runs found are told apart as ``runs list --search`` tells them (it lists them all at once), any other
    list's are counted by the filter's query."""
    if where.text.strip():
        ids, has_more = ids_reaching(store, replace(where, plumbing_traces=None), order, descending, limit, reaching)
        kept, plumbing = without_plumbing_traces(store.db.conn, ids)
        return (kept if where.plumbing_traces is False else ids), has_more, plumbing
    ids, has_more = ids_reaching(store, where, order, descending, limit, reaching)
    return ids, has_more, count_runs(store, replace(where, plumbing_traces=True))


@dataclass(frozen=True)
class RunListing:
    """What the list shows, read at once: the runs' ids in order, whether more follow, the records read
    (of the current run and of the runs the list had read), their pushes, the names, why the failed
    ones failed, and how many plumbing traces the filter selects (:func:`ids_and_plumbing`)."""

    ids: list[int]
    has_more: bool
    runs: dict[int, RunRecord]
    pushes: dict[int, OutboxEntry]
    any_pushed: bool
    names: dict[str, str]
    reasons: dict[int, Reason]
    plumbing_traces: int = 0


def read_listing(store: RunStore, where: RunFilter, order: str, descending: bool, limit: int,
                 current: int | None = None, known: KnownReasons | None = None,
                 reaching: Collection[int] = (), shown: tuple[int, int] = (0, -1)) -> RunListing:
    """The ids of the first ``limit`` runs the filter selects, in order, and as far down as the run
    ``current`` and the runs ``reaching`` when they are further (a live read keeps the selected run among
    the rows read, a new order or filter the runs selected); the records of ``current``, of the rows
    ``shown`` (first and last: a live read's new runs are painted without a read) and of the runs ``known``
    holds, read again (their reasons, where unchanged, are not asked for again). The records of the other
    rows are read as they are shown (:class:`.RowRecords`)."""
    ids, has_more, plumbing = ids_and_plumbing(store, where, order, descending, limit,
                                               [*reaching, current] if current is not None else reaching)
    wanted = dict.fromkeys(ids[max(shown[0], 0):shown[1] + 1])
    if known is not None:
        wanted.update(dict.fromkeys(run_id for run_id in ids if run_id in known.runs))
    if current is not None:
        wanted[current] = None
    records = read_records(store, list(wanted), known)
    return RunListing(ids, has_more, records.runs, records.pushes,
                      bool(records.pushes) or Outbox(store.db.conn).any(), server_names(store), records.reasons,
                      plumbing)


__all__ = ["EVERY_RUN", "PAGE_SIZE", "RECORD_PAGE", "RunListing", "RunRecords", "ids_and_plumbing", "ids_reaching",
           "read_listing", "read_records", "server_names"]
