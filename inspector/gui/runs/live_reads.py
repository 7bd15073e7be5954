"""What the Runs tab reads for a live update, read on the reader thread in one read transaction.

Issue 27: while operations end, the Runs tab in front showed their runs by reading the database
on the GUI thread (the list, the growing run's new steps, the shown step's replays). A live read
is now one question (:class:`LiveQuestion`: what the tab shows) answered by :class:`LiveReads` on
a :class:`~..widgets.background_reads.BackgroundReads` thread: the database is asked whether
another connection wrote (``data_version``, one pragma), and only then read, in one transaction
so that the list and the timeline agree. The GUI thread only lays the answer out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.store import RunRecord, RunStore, StoreError
from inspector.store.browse import RunFilter, StepFilter, StepInFull, data_version, servers_with_runs

from .run_listing import RunListing, read_listing
from .run_reasons import KnownReasons
from .step_replays import ReplaySides, read_replays
from .timeline_model import TimelineGrowth, read_growth


@dataclass(frozen=True)
class TimelineQuestion:
    """The timeline's run as shown, its step filter, whether it is a span tree, its rows shown."""

    run: RunRecord
    filter: StepFilter
    tree: bool
    shown: int


@dataclass(frozen=True)
class LiveQuestion:
    """What the Runs tab shows now: the list's filter, order and loaded length, the selected run,
    the timeline, and the step whose replays the detail shows."""

    filter: RunFilter
    order: str
    descending: bool
    limit: int
    current: int | None = None
    timeline: TimelineQuestion | None = None
    step: StepInFull | None = field(default=None, compare=False)
    payload: dict[str, Any] = field(default_factory=dict, compare=False)
    #: Read even when no other connection wrote since the last read (what is shown changed).
    force: bool = field(default=False, compare=False)
    #: The window's language when asked: the search finds a scenario run's title as shown in it
    #: (inspector.i18n.scenarios.shown_title_matches), so a list read in another language may hold others.
    language: str = ""
    #: The runs listed and why the failed ones failed, as read last: those unchanged are not asked again.
    known: KnownReasons | None = field(default=None, compare=False)
    #: The first and last rows the list shows: their runs' records are read with the list.
    shown: tuple[int, int] = field(default=(0, -1), compare=False)
    #: The runs selected: the list is read as far down as they are (a run written above them moves the
    #: last of those read below ``limit``, and it was selected no more).
    reaching: tuple[int, ...] = field(default=(), compare=False)

    def shape(self) -> tuple[object, ...]:
        """What an answer must have been read for to be shown: a list of the same filter and order
        (at least as long) in the same language, the same run and step filter in the timeline, the same step."""
        timeline = self.timeline
        return (self.filter, self.order, self.descending, self.language,
                None if timeline is None else (timeline.run.id, timeline.filter, timeline.tree),
                None if self.step is None else self.step.row.id)


@dataclass(frozen=True)
class LiveAnswer:
    question: LiveQuestion
    listing: RunListing
    servers: list[tuple[str, bool]]
    growth: TimelineGrowth | None
    replays: ReplaySides | None


class LiveReads:
    """The read a live update makes (called on the reader thread with its own connection):
    ``None`` when no other connection wrote since the last read."""

    def __init__(self) -> None:
        self._version: int | None = None

    def __call__(self, store: RunStore, question: LiveQuestion) -> LiveAnswer | None:
        version = data_version(store)
        if version == self._version and not question.force:
            return None
        conn = store.db.conn
        if not conn.in_transaction:
            conn.execute("BEGIN")  # one snapshot: the list, the timeline and the replays agree
        try:
            listing = read_listing(store, question.filter, question.order, question.descending, question.limit,
                                   question.current, question.known, question.reaching, question.shown)
            growth = None
            timeline = question.timeline
            if timeline is not None:
                run = listing.runs.get(timeline.run.id)
                if run is not None:
                    growth = read_growth(store, run, timeline.filter, timeline.tree, timeline.shown)
            replays = None
            if question.step is not None:
                try:
                    replays = read_replays(store, question.step, question.payload)
                except StoreError:  # the step's run is gone: the list read says so
                    replays = None
            servers = servers_with_runs(store)
        finally:
            conn.rollback()
        self._version = version
        return LiveAnswer(question, listing, servers, growth, replays)


__all__ = ["LiveAnswer", "LiveQuestion", "LiveReads", "TimelineQuestion"]
