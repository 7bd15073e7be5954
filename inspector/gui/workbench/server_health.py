"""The Servers panel's health kept up to date: read back off the GUI thread (:mod:`.health_reader`)
once for a burst of operations' endings, and polled for what other programs (the command line, a
proxy) count in the same database; a read that finds the list changed lists the servers again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from inspector.store import RunStore, ServerRecord

from ..widgets.background_reads import database_file
from .health_reader import HealthReader

if TYPE_CHECKING:
    from .server_admin import ServerAdmin

#: How often the panel asks whether another program wrote the database (cheap: one pragma, off the GUI thread).
HEALTH_POLL_MS = 500


class ServerHealth(QObject):
    """Reads the servers' health back after endings and on a poll, and shows what changed."""

    def __init__(self, admin: ServerAdmin, store: RunStore) -> None:
        super().__init__(admin)
        self._admin = admin
        self.reader = HealthReader(database_file(store), self)  # read after endings, off the GUI thread
        self.reader.read.connect(self._read)
        self._stopped = False
        #: Listings made on this thread (a save, a removal): a health read asked before one is stale.
        #: Each question carries the count it was asked at (a poll's or an ending's asked since is not it).
        self._listings = 0
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(100)
        self._refresh.timeout.connect(self.refresh)
        # Other programs (the command line, a proxy) count operations in the same database.
        self._poll = QTimer(self)
        self._poll.setInterval(HEALTH_POLL_MS)
        self._poll.timeout.connect(lambda: self.refresh(poll=True))
        self._poll.start()

    def listed(self) -> None:
        """The servers were listed anew on this thread: a read asked before says less."""
        self._listings += 1

    def changed(self) -> None:
        """An operation ended: read the health back once for a burst of endings (off the GUI thread)."""
        self._refresh.start()

    def refresh(self, poll: bool = False) -> None:
        if not self._stopped:
            current = self._admin.current()
            self.reader.request(current.url if current is not None else None, poll=poll, stamp=self._listings)

    def _read(self, records: list[ServerRecord] | None, url: str | None, shown: list[float], problem: str,
              asked_at: int) -> None:
        if self._stopped or asked_at != self._listings:
            return  # the servers were listed since it was asked (a server saved or removed): that is newer
        if records is None:
            self._admin.say(problem)
            return
        panel = self._admin.panel
        listed = [panel.model.record(row) for row in range(panel.model.rowCount())]
        if records != listed:  # a poll reads after any write (a run imported): the list is reset only for news
            # A refresh selects no server when none was: a server another program just counted (the
            # command line, a scenario) is not asked anything by this window unless the user picks it.
            self._admin.show_records(records, select_first=False)
        current = self._admin.current()
        if current is not None and current.url == url:
            panel.show_latencies(shown)

    def stop(self) -> None:
        """The window closes: nothing more is read or said."""
        self._stopped = True
        self._poll.stop()
        self.reader.stop()


__all__ = ["HEALTH_POLL_MS", "ServerHealth"]
