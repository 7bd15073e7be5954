"""The Runs list's search, read on a thread of its own.

The search finds a run by its steps' text too, as Find does in one run (a tool's name, an error, an
attribute: :func:`inspector.store.find_text.steps_holding`), so it reads the steps of every run: a
trace of 25,000 runs has 62,500 of them (0.2-0.6 s). Read on the GUI thread, that froze the window
after each pause in typing; :class:`RunSearch` asks a reader thread with its own connection, and the
list shows the runs found when the answer for what is typed now arrives (an answer for a text typed
over meanwhile is dropped).
"""

from __future__ import annotations

from dataclasses import dataclass
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
        self.reads = BackgroundReads(db_path, read_search, "search", self)
        self.reads.answered.connect(self._answered)

    @property
    def pending(self) -> SearchQuestion | None:
        """The question asked and not answered yet (None: none, or forgotten)."""
        return self._asked

    def ask(self, question: SearchQuestion) -> None:
        self._asked = question
        self.reads.request(question)

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
