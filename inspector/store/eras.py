"""What ``auto`` found each server to speak, kept in the run database between sessions.

:class:`StoredEras` is the client's era memory (``inspector.mcp.eras.EraMemory``, matched by shape:
the store does not import the protocol layer) backed by ``server_health.found_era``. It is keyed as
the health is (``ServerEndpoint.key``: the address without credentials, or a command's key), so an
address or command never configured is remembered too, as its health is counted.

A client calls it from inside an operation, on the thread that runs the operation's event loop, so
it never makes that loop wait long: a write waits at most :data:`WRITE_LOCK_WAIT_S` for another
program's lock; what could not be written (a lock, a read-only or damaged file) is kept in memory
for this session and written with the next remembered era. Calls from other threads are serialised.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime

from inspector.runs.times import from_stored_time, to_stored_time, utc_now

from .errors import StoreError
from .faults import set_lock_wait
from .transactions import rollback

#: The eras a server can be found to speak (``auto`` is a configuration, never a finding).
FOUND_ERAS = ("handshake", "stateless")
#: The longest a write waits for another program's lock before the era is kept in memory instead.
WRITE_LOCK_WAIT_S = 0.2
#: SQLite's default wait of this project's connections, restored when the connection does not say.
_DEFAULT_WAIT_MS = 10_000


class StoredEras:
    """An era memory in the run database (``recall(key)``, ``remember(key, era | None)``).

    ``db`` is the connection's owner (a ``RunStore`` or a ``Database``) of the thread
    that runs the operations; one :class:`StoredEras` per such connection."""

    def __init__(self, db: object) -> None:
        inner = getattr(db, "db", db)  # a RunStore holds its Database as .db
        self._conn: sqlite3.Connection = getattr(inner, "conn", inner)  # type: ignore[assignment]
        self._lock = threading.Lock()
        #: Findings the database did not take (locked, read-only): key -> era (None: forgotten).
        self._unsaved: dict[str, tuple[str | None, datetime]] = {}

    def recall(self, key: str) -> str | None:
        """The era last found for ``key`` (``handshake`` or ``stateless``), or ``None``."""
        found = self.found(key)
        return found[0] if found is not None else None

    def found(self, key: str) -> tuple[str, datetime | None] | None:
        """The era last found for ``key`` and when it was found, or ``None``."""
        with self._lock:
            if key in self._unsaved:
                era, at = self._unsaved[key]
                return (era, at) if era is not None else None
            try:
                row = self._conn.execute("SELECT found_era, found_era_at FROM server_health WHERE url = ?",
                                         (key,)).fetchone()
            except sqlite3.Error:  # unreadable: nothing is known, the client probes
                return None
        if row is None or row[0] not in FOUND_ERAS:
            return None
        return row[0], from_stored_time(row[1])

    def remember(self, key: str, era: str | None) -> None:
        """Keep ``era`` as what ``key`` speaks (``None``: forget it, the server changed its mind)."""
        if era is not None and era not in FOUND_ERAS:
            raise ValueError(f"a server is found to speak one of {FOUND_ERAS}, not {era!r}")
        with self._lock:
            self._unsaved[key] = (era, utc_now())
            self._write_unsaved()

    def _write_unsaved(self) -> None:
        conn = self._conn
        try:
            waited = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        except sqlite3.Error:
            return
        own = not conn.in_transaction  # else the caller's open transaction carries it
        try:
            set_lock_wait(conn, WRITE_LOCK_WAIT_S)
            if own:
                conn.execute("BEGIN IMMEDIATE")
            for key, (era, at) in list(self._unsaved.items()):
                conn.execute(
                    "INSERT INTO server_health (url, found_era, found_era_at) VALUES (?, ?, ?)"
                    " ON CONFLICT(url) DO UPDATE SET found_era = excluded.found_era,"
                    " found_era_at = excluded.found_era_at", (key, era, to_stored_time(at) if era else None))
            if own:
                conn.execute("COMMIT")
        except (sqlite3.Error, StoreError):
            if own:
                try:
                    rollback(conn)
                except sqlite3.Error:
                    pass
            return  # kept in memory; the next remembered era tries again
        finally:
            try:
                conn.execute(f"PRAGMA busy_timeout = {int(waited) if waited is not None else _DEFAULT_WAIT_MS}")
            except sqlite3.Error:
                pass
        self._unsaved.clear()


__all__ = ["FOUND_ERAS", "StoredEras", "WRITE_LOCK_WAIT_S"]
