"""The write-ahead log of a large write copied into the database file in the background.

SQLite copies its log into the database file (a checkpoint) at the commit that grows the log past
``wal_autocheckpoint`` pages, and the committing thread waits for it: after an import of 100,000
spans that is 160 MB written and synced, about 0.4 s. The commit is what makes the runs stored and
readable; the copy is housekeeping. So a large write's commit does not copy (:meth:`LogCopy.deferred`)
and a thread of its own copies afterwards, on a connection of its own (SQLite does the work with the
interpreter lock released). A passive copy never blocks readers or writers; one that cannot finish
leaves the rest to the next commit's automatic copy, as before. Closing the store waits for it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["LogCopy"]


class LogCopy:
    """The background copies of one connection's database."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._thread: threading.Thread | None = None

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """Commits inside do not copy the log; leaving starts the copy in the background (after a
        commit; after a rollback there is nothing new to copy, and nothing starts)."""
        conn = self._conn
        pages = int(conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0])
        conn.execute("PRAGMA wal_autocheckpoint=0")
        try:
            yield
        finally:
            conn.execute(f"PRAGMA wal_autocheckpoint={pages}")
        path = _main_file(conn)
        if path:
            self.wait()
            self._thread = threading.Thread(target=_copy, args=(path,), name="run-store-log-copy", daemon=True)
            self._thread.start()

    def wait(self) -> None:
        """Until the copy begun last has ended."""
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join()


def _main_file(conn: sqlite3.Connection) -> str:
    """The file of the connection's main database ('' for one in memory)."""
    for _, name, file in conn.execute("PRAGMA database_list"):
        if name == "main":
            return file or ""
    return ""


def _copy(path: str) -> None:
    try:
        conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    except sqlite3.Error:
        return
    try:
        conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
    except sqlite3.Error:
        pass  # busy, or the file went away: the next commit's automatic copy does it
    finally:
        conn.close()
