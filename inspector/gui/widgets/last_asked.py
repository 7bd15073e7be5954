"""A reader thread whose answers count only for the question asked last.

The Runs search and Find in a long run read on a :class:`~.background_reads.BackgroundReads` thread
while the window goes on; the user asks again meanwhile (another key, a click on a heading, another run
shown). :class:`LastAsked` numbers each question it is asked, and hands on the answer to the one asked
last only: an answer to an older one (another text, or the same one read before the database changed)
is dropped, whenever it arrives. A read that fails (a damaged or locked database) ends the question asked
last too: ``failed`` says why, and the question is no longer pending (asked again, it is read again).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.store import RunStore
from inspector.store.faults import unreadable

from .background_reads import BackgroundReads


class LastAsked(QObject):
    """Answers questions with ``read(store, question)`` on a reader thread; ``found(question, answer)`` on
    the GUI thread for the question asked last, never for one asked before it."""

    found = Signal(object, object)
    #: (the question asked last, the :class:`~inspector.store.StoreError` saying why its read failed).
    failed = Signal(object, object)

    def __init__(self, db_path: Path, read: Callable[[RunStore, Any], Any], name: str,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db_path = db_path
        self._asked: tuple[int, Any] | None = None  # the number of the question asked last, and it
        self._asks = 0
        self.reads = BackgroundReads(db_path, lambda store, asked: read(store, asked[1]), name, self)
        self.reads.answered.connect(self._answered)
        self.reads.refused.connect(self._refused)

    @property
    def pending(self) -> Any:
        """The question asked and not answered yet (None: none, or forgotten)."""
        return None if self._asked is None else self._asked[1]

    def ask(self, question: Any) -> None:
        self._asks += 1
        self._asked = (self._asks, question)
        self.reads.request(self._asked)

    def forget(self) -> None:
        """The answer to the question asked is no longer wanted."""
        self._asked = None

    def _answered(self, asked: tuple[int, Any], answer: Any, _problem: str) -> None:
        if self._asked is None or asked[0] != self._asked[0] or answer is None:
            return  # asked over since (or unreadable: ``failed`` says so)
        self._asked = None
        self.found.emit(asked[1], answer)

    def _refused(self, asked: tuple[int, Any], error: BaseException) -> None:
        if self._asked is None or asked[0] != self._asked[0]:
            return  # asked over since: the question asked last is read (or refused) on its own
        self._asked = None
        self.failed.emit(asked[1], unreadable(self._db_path, error))

    def stop(self) -> None:
        """Forget the question asked and end the reader (its read under way first)."""
        self._asked = None
        self.reads.stop()

    def break_off(self) -> None:
        """The window closes: the read under way is broken off (not waited for to its end), the reader ends."""
        self._asked = None
        self.reads.break_off()


__all__ = ["LastAsked"]
