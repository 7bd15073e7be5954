"""Keeping the Runs tab as fresh as the database, without reading it on the GUI thread.

Other connections write the run database (the workbench's worker, played runs, imports, the push
worker): every :data:`POLL_MS`, and soon after an operation of the workbench starts or ends
(:data:`SOON_MS`; once for a burst of twenty), the tab's question (what it shows) goes to a
reader thread with its own connection (:mod:`.live_reads`), which reads only when another
connection wrote, and the answer is laid out on the GUI thread (issue 27: nothing on the GUI
thread touches the database for a live update). While another tab is in front of it, nothing is
asked: the list is read when the tab is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from ..widgets.background_reads import BackgroundReads
from .live_reads import LiveAnswer, LiveQuestion, LiveReads

#: How often the tab asks the database whether another connection wrote (cheap: one pragma).
POLL_MS = 300
#: After an operation of the workbench starts or ends, the list is read again this soon (once for a burst).
SOON_MS = 50


class ListFreshness(QObject):
    """Asks ``question()`` of the reader thread while the tab is seen; hands each answer read for
    what the tab still shows to ``show(answer)``, and calls ``changed()`` (a read on this thread)
    when the tab is shown after it missed a change."""

    def __init__(self, tab: QWidget, db_path: Path, question: Callable[[bool], LiveQuestion],
                 show: Callable[[LiveAnswer], None], changed: Callable[[], None]) -> None:
        super().__init__(tab)
        self._tab, self._question, self._show, self._changed = tab, question, show, changed
        self.reads = BackgroundReads(db_path, LiveReads(), "runs", self)
        self.reads.answered.connect(self._answered)
        self._stopped = False
        #: A change may have been missed while the tab was behind another: read when it is shown.
        self.stale = False
        #: Answers laid out, and answers dropped as read for something no longer shown (tests look).
        self.shown_answers = self.dropped_answers = 0
        self.poll = QTimer(self)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self.check)
        self.poll.start()

    def check(self, force: bool = False) -> None:
        """Ask the reader to read what the tab shows if the database changed (nothing while the tab
        is not seen)."""
        if self._stopped:
            return
        if self._behind_another_tab():
            self.stale = True
            return
        if self.stale:  # in front again (its showing may not have told us)
            self.shown()
            return
        self.reads.request(self._question(force))

    def shown(self) -> None:
        """The tab came to the front: what it missed is read now."""
        if self.stale and not self._stopped:
            self.stale = False
            self._changed()

    def _answered(self, question: LiveQuestion, answer: LiveAnswer | None, _problem: str) -> None:
        if self._stopped or answer is None:
            return  # nothing changed (or the database could not be read: the next poll asks again)
        now = self._question(False)
        if question.shape() != now.shape() or question.limit < now.limit:
            self.dropped_answers += 1
            self.check(force=True)  # read for what is shown now
            return
        self.shown_answers += 1
        self._show(answer)

    def _behind_another_tab(self) -> bool:
        """The window is shown and the tab is not (another tab is in front of it)."""
        tab = self._tab
        return not tab.isVisible() and tab.window() is not tab and tab.window().isVisible()

    def watch(self, engine: QObject) -> None:
        """Check soon after an operation of ``engine`` starts or ends (not only at the next poll):
        a burst of starts and ends (twenty operations) is one check, not one each."""
        soon = QTimer(self)
        soon.setSingleShot(True)
        soon.setInterval(SOON_MS)
        soon.timeout.connect(self.check)

        def check_soon() -> None:
            if not soon.isActive():  # not restarted: a steady stream of ends still checks every SOON_MS
                soon.start()

        def submitted(task: QObject) -> None:
            check_soon()
            task.finished.connect(lambda _outcome: check_soon())
        engine.submitted.connect(submitted)

    def stop(self) -> None:
        """The window closes: no more reads; the read under way is broken off, not waited for to its end."""
        self._stopped = True
        self.poll.stop()
        self.reads.break_off()


__all__ = ["POLL_MS", "SOON_MS", "ListFreshness"]
