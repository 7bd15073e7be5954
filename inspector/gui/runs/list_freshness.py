"""Keeping the Runs list as fresh as the database, without reading it for nobody.

Other connections write the run database (the workbench's worker, played runs, imports, the push
worker): the tab asks, every :data:`POLL_MS`, whether the database changed (``data_version``, one
pragma) and reads the list again if so, and soon after an operation of the workbench starts or
ends (:data:`SOON_MS`; once for a burst of twenty). While another tab is in front of it, it asks
nothing: the list is read when the tab is shown (issue 27: twenty operations ending together had
the GUI thread read the database while their bars moved).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QWidget

from inspector.store import RunStore
from inspector.store.browse import data_version

#: How often the tab asks the database whether another connection wrote (cheap: one pragma).
POLL_MS = 300
#: After an operation of the workbench starts or ends, the list is read again this soon (once for a burst).
SOON_MS = 50


class ListFreshness(QObject):
    """Calls ``changed()`` on ``tab``'s thread when the database changed and the tab is seen."""

    def __init__(self, tab: QWidget, store: RunStore, changed: Callable[[], None]) -> None:
        super().__init__(tab)
        self._tab, self._store, self._changed = tab, store, changed
        self._version = data_version(store)
        #: A change may have been missed while the tab was behind another: read when it is shown.
        self.stale = False
        self.poll = QTimer(self)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self.check)
        self.poll.start()

    def check(self) -> None:
        """Read the list again if the database changed (nothing while the tab is not seen)."""
        if self._behind_another_tab():
            self.stale = True
            return
        self.stale = False
        try:
            version = data_version(self._store)
        except Exception:  # noqa: BLE001 - a closed database after shut-down: stop asking
            self.poll.stop()
            return
        if version != self._version:
            self._version = version
            self._changed()

    def shown(self) -> None:
        """The tab came to the front: what it missed is read now."""
        if self.stale:
            self.check()

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
        self.poll.stop()
