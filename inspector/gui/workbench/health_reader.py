"""The servers' health read back after operations end, on a thread of its own.

When operations end, the Servers panel shows each server's counts and last contact again, and the
selected server's latest latencies (its sparkline). Reading them is a few queries; made on the GUI
thread they cost frames while other operations' bars still move (issue 27: nothing on the GUI
thread touches the database for a live update). So they are read by a
:class:`~..widgets.background_reads.BackgroundReads` (its own thread and connection) and handed to
the GUI thread; requests made while a read is under way are one more read after it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.store import RunStore, ServerRecord, ServerRegistry
from inspector.store.browse import recent_ok_durations

from ..widgets.background_reads import BackgroundReads, database_file

#: How many of a server's latest ok runs its sparkline shows.
LATENCIES = 20


def latencies(store: RunStore, url: str) -> list[float]:
    """The latest ok runs' durations (ms) of the server at ``url``, oldest first; not those of runs
    imported from a trace (made elsewhere: they say nothing of this server here)."""
    return recent_ok_durations(store, url, LATENCIES)


def _health(store: RunStore, url: str | None) -> tuple[list[ServerRecord], list[float]]:
    return ServerRegistry(store.db).all(), latencies(store, url) if url is not None else []


class HealthReader(QObject):
    """Reads the servers' records and one server's latencies off the GUI thread."""

    #: (records or None when the database could not be read, the url asked about, its latencies,
    #: the problem in words or "") — delivered on the GUI thread.
    read = Signal(object, object, object, str)

    def __init__(self, db_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._reads = BackgroundReads(db_path, _health, "health", self)
        self._reads.answered.connect(self._answered)

    @property
    def reads(self) -> int:
        """Reads made (tests count them)."""
        return self._reads.reads

    @property
    def _busy(self) -> bool:
        return self._reads.busy

    def request(self, url: str | None) -> None:
        """Read the health (and ``url``'s latencies) soon; GUI thread."""
        self._reads.request(url)

    def stop(self) -> None:
        """Finish the read under way, close the reader's connection and end its thread."""
        self._reads.stop()

    def _answered(self, url: str | None, answer: Any, problem: str) -> None:
        records, shown = answer if answer is not None else (None, [])
        self.read.emit(records, url, shown, problem)


__all__ = ["HealthReader", "database_file", "latencies"]
