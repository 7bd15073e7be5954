"""The servers' health read back after operations end, on a thread of its own.

When operations end, the Servers panel shows each server's counts and last contact again, and the
selected server's latest latencies (its sparkline). Reading them is a few queries; made on the GUI
thread they cost frames while other operations' bars still move (issue 27: nothing on the GUI
thread touches the database for a live update). So a reader thread with its own connection reads
them and hands the result to the GUI thread with a queued signal; requests made while a read is
under way are one more read after it (twenty endings are at most two reads).
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.store import RunStore, ServerRegistry

#: How many of a server's latest ok runs its sparkline shows.
LATENCIES = 20


def latencies(store: RunStore, url: str) -> list[float]:
    """The latest ok runs' durations (ms) of the server at ``url``, oldest first."""
    runs = store.list_runs(server=url, outcome="ok", limit=LATENCIES)
    return [(run.finished_at - run.started_at).total_seconds() * 1000 for run in reversed(runs)
            if run.finished_at and run.started_at]


def database_file(store: RunStore) -> Path:
    """The file of ``store``'s main database (the reader opens its own connection to it)."""
    row = store.db.conn.execute("PRAGMA database_list").fetchone()
    return Path(row[2])


class HealthReader(QObject):
    """Reads the servers' records and one server's latencies off the GUI thread."""

    #: (records or None when the database could not be read, the url asked about, its latencies,
    #: the problem in words or "") — delivered on the GUI thread.
    read = Signal(object, object, object, str)

    def __init__(self, db_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._db_path = db_path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="run-inspector-health")
        self._lock = threading.Lock()
        self._busy = False
        self._again: tuple[str | None] | None = None
        self._store: RunStore | None = None  # the reader thread's own connection
        #: Reads made (tests count them).
        self.reads = 0

    def request(self, url: str | None) -> None:
        """Read the health (and ``url``'s latencies) soon; GUI thread."""
        with self._lock:
            if self._busy:
                self._again = (url,)  # one more read after this one, for the newest question
                return
            self._busy = True
        self._pool.submit(self._read, url)

    def stop(self) -> None:
        """Finish the read under way, close the reader's connection (in its thread) and end it."""
        with self._lock:
            self._again = None
        self._pool.submit(self._close)
        self._pool.shutdown(wait=True)

    # -- on the reader thread ------------------------------------------------------------------------

    def _read(self, url: str | None) -> None:
        while True:
            self.reads += 1
            records: Any = None
            shown: list[float] = []
            problem = ""
            try:
                if self._store is None:
                    self._store = RunStore.open(self._db_path)
                records = ServerRegistry(self._store.db).all()
                shown = latencies(self._store, url) if url is not None else []
            except Exception as exc:  # noqa: BLE001 - a damaged or locked database is said, never a crash
                problem = str(exc)
            self.read.emit(records, url, shown, problem)
            with self._lock:
                again, self._again = self._again, None
                if again is None:
                    self._busy = False
                    return
            url = again[0]

    def _close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


__all__ = ["HealthReader", "database_file", "latencies"]
