"""The Runs list's search, read on a thread of its own.

The search finds a run by its steps' text too, as Find does in one run (a tool's name, an error, an
attribute: :func:`inspector.store.find_text.steps_holding`), so it reads the steps of every run: a
trace of 25,000 runs has 62,500 of them (0.2-0.6 s). Read on the GUI thread, that froze the window
after each pause in typing, and at each click on a heading, switch of language or return to the Runs
tab while a search was set; :class:`RunSearch` asks a reader thread with its own connection, and the
list shows the runs found when the answer to the question asked last arrives (an answer to one asked
before it, for a text typed over or the same text before the database changed, is dropped).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from inspector.store import RunStore
from inspector.store.browse import RunFilter

from ..widgets.background_reads import BackgroundReads
from .run_listing import PAGE_SIZE, RunListing, read_listing


@dataclass(frozen=True)
class SearchQuestion:
    """The list's filters with a search text, its order, the runs selected (read as far down as they
    are, to be selected again) and the window's language (a scenario title is found as shown in it)."""

    filter: RunFilter
    order: str
    descending: bool
    reaching: tuple[int, ...] = ()
    language: str = ""
    #: Which ask this is (:meth:`RunSearch.ask` counts them): the same search asked again after the
    #: database changed is another question, and the answer read before the change is not shown for it.
    number: int = 0


def read_search(store: RunStore, question: SearchQuestion) -> RunListing:
    """The list as the search selects it (on the reader thread)."""
    return read_listing(store, question.filter, question.order, question.descending, PAGE_SIZE,
                        reaching=question.reaching)


class RunSearch(QObject):
    """Reads a search's list on a reader thread; ``found(question, listing)`` on the GUI thread for the
    question asked last, never for one asked over since."""

    found = Signal(object, object)

    def __init__(self, db_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._asked: SearchQuestion | None = None
        self._asks = 0
        self.reads = BackgroundReads(db_path, read_search, "search", self)
        self.reads.answered.connect(self._answered)

    @property
    def pending(self) -> SearchQuestion | None:
        """The question asked and not answered yet (None: none, or forgotten)."""
        return self._asked

    def ask(self, question: SearchQuestion) -> None:
        self._asks += 1
        self._asked = replace(question, number=self._asks)
        self.reads.request(self._asked)

    def forget(self) -> None:
        """The answer of the question asked is no longer wanted (the search was cleared)."""
        self._asked = None

    def _answered(self, question: SearchQuestion, listing: RunListing | None, _problem: str) -> None:
        if question != self._asked or listing is None:
            return  # asked over since (or unreadable now: the next keystroke or live read asks again)
        self._asked = None
        self.found.emit(question, listing)

    def stop(self) -> None:
        self._asked = None
        self.reads.stop()


__all__ = ["RunSearch", "SearchQuestion", "read_search"]
