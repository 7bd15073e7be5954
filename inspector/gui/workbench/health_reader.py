"""The servers' health read back after operations end, on a thread of its own.

When operations end, the Servers panel shows each server's counts and last contact again, and the
selected server's latest latencies (its sparkline). Reading them is a few queries; made on the GUI
thread they cost frames while other operations' bars still move (issue 27: nothing on the GUI
thread touches the database for a live update). So they are read by a
:class:`~..widgets.background_reads.BackgroundReads` (its own thread and connection) and handed to
the GUI thread; requests made while a read is under way are one more read after it.

Other programs write the same database (the command line, a proxy, a second window): a *poll*
asks the database whether another connection wrote since the last read (``data_version``, one
pragma) and reads only then, so the panel follows them as the Runs tab does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.store import RunStore, ServerRegistry
from inspector.store.browse import data_version, recent_ok_durations

from ..widgets.background_reads import BackgroundReads, database_file

#: How many of a server's latest ok operations its sparkline shows.
LATENCIES = 20


def latencies(store: RunStore, url: str) -> list[float]:
    """The latest ok operations' durations (ms) of the server at ``url``, oldest first; not those of runs
    imported from a trace (made elsewhere: they say nothing of this server here)."""
    return recent_ok_durations(store, url, LATENCIES)


#: A poll's answer when no other connection wrote since the last read.
_UNCHANGED = object()


class _HealthReads:
    """The read (on the reader thread): the servers' records and ``url``'s latencies; for a poll,
    :data:`_UNCHANGED` when the database is as it was at the last read."""

    def __init__(self) -> None:
        self._version: int | None = None
        #: Reads of the records made (a poll that found nothing changed is not one).
        self.reads = 0

    def __call__(self, store: RunStore, question: tuple[str | None, bool, int]) -> object:
        url, poll, _stamp = question
        version = data_version(store)
        if poll and version == self._version:
            return _UNCHANGED
        self._version = version
        self.reads += 1
        return ServerRegistry(store.db).all(), latencies(store, url) if url is not None else []


class HealthReader(QObject):
    """Reads the servers' records and one server's latencies off the GUI thread."""

    #: (records or None when the database could not be read, the url asked about, its latencies,
    #: the problem in words or "", the stamp the question was asked with) — delivered on the GUI thread.
    read = Signal(object, object, object, str, int)

    def __init__(self, db_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._health = _HealthReads()
        self._reads = BackgroundReads(db_path, self._health, "health", self)
        self._reads.answered.connect(self._answered)

    @property
    def reads(self) -> int:
        """Reads of the records made (tests count them); a poll that found nothing changed is not one."""
        return self._health.reads

    @property
    def _busy(self) -> bool:
        return self._reads.busy

    def request(self, url: str | None, *, poll: bool = False, stamp: int = 0) -> None:
        """Read the health (and ``url``'s latencies) soon; GUI thread. A ``poll`` reads only when
        another connection wrote since the last read (and says nothing otherwise); none is asked
        while a read is under way or asked for (it reads what a poll would). The answer carries
        ``stamp`` back: the asker tells by it when its question was asked."""
        if poll and self._reads.busy:
            return
        self._reads.request((url, poll, stamp))

    def stop(self) -> None:
        """Finish the read under way, close the reader's connection and end its thread."""
        self._reads.stop()

    def _answered(self, question: tuple[str | None, bool, int], answer: Any, problem: str) -> None:
        url, poll, stamp = question
        if answer is _UNCHANGED or (poll and answer is None):
            return  # a poll says nothing of a database it could not read: the next ending's read says it once
        records, shown = answer if answer is not None else (None, [])
        self.read.emit(records, url, shown, problem, stamp)


__all__ = ["HealthReader", "database_file", "latencies"]
