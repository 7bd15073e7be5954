"""The Runs list's search, read on a thread of its own.

The search finds a run by its steps' text too, as Find does in one run (a tool's name, an error, an
attribute: :func:`inspector.store.find_text.steps_holding`), so it reads the steps of every run: a
trace of 25,000 runs has 62,500 of them (0.2-0.6 s). Read on the GUI thread, that froze the window
after each pause in typing, and at each click on a heading, switch of language or return to the Runs
tab while a search was set; :class:`RunSearch` asks a reader thread with its own connection, and the
list shows the runs found when the answer to the question asked last arrives (an answer to one asked
before it, for a text typed over or the same text before the database changed, is dropped). A search
whose read fails (a damaged or locked database) is said in the tab's status line, and asked again at the
next change of the search.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.store import RunStore
from inspector.store.browse import RunFilter

from ..widgets.last_asked import LastAsked
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


class RunSearch(LastAsked):
    """Reads a search's list on a reader thread; ``found(question, listing)`` on the GUI thread for the
    question asked last, never for one asked before it (the same search asked again after the database
    changed is another question)."""

    #: Why the search asked last was not done, as words of the current language (the tab's status line).
    said = Signal(object)

    def __init__(self, db_path: Path, parent: QObject | None = None) -> None:
        super().__init__(db_path, read_search, "search", parent)
        self.failed.connect(lambda _question, problem: self.said.emit(lambda: _(
            "The search of the runs was not done. {problem}").format(problem=translate(problem))))


__all__ = ["RunSearch", "SearchQuestion", "read_search"]
