"""Opening the run database: WAL, migrations, and the clean-up of runs a dead process left."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import sqlite_utils

from inspector.i18n import N_
from inspector.i18n.messages import Message

from .errors import NewerSchemaError, StoreError
from .schema import MIGRATIONS, SCHEMA_VERSION


def open_database(path: str | os.PathLike[str]) -> sqlite_utils.Database:
    """Open (creating if needed) and upgrade the database at ``path``.

    A database from a newer version is refused before anything is written to it.
    """
    path = Path(path)
    if path.exists() and path.is_dir():
        raise StoreError(Message(N_("The run database path {path} is a folder, not a file."), {"path": path}))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(Message(N_("The run database cannot be created in {folder}: {reason}. Choose another "
                                    "place with --db or RUN_INSPECTOR_DB."),
                                 {"folder": path.parent, "reason": exc.strerror or exc})) from None
    try:
        # Autocommit mode: every transaction is opened and closed explicitly.
        conn = sqlite3.connect(str(path), timeout=10, check_same_thread=False, isolation_level=None)
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.OperationalError as exc:  # cannot open: permissions, a read-only place
        raise StoreError(Message(N_("The run database {path} cannot be opened: {reason}. Choose another file "
                                    "with --db or RUN_INSPECTOR_DB."), {"path": path, "reason": exc})) from None
    except sqlite3.DatabaseError as exc:
        raise StoreError(Message(N_("{path} is not a Run Inspector database ({reason}). Choose another file "
                                    "with --db or RUN_INSPECTOR_DB; this one was left untouched."),
                                 {"path": path, "reason": exc})) from None
    if version > SCHEMA_VERSION:
        conn.close()
        raise NewerSchemaError(Message(
            N_("The run database {path} was written by a newer Run Inspector (schema {version}; this version "
               "reads up to {supported}). It was left untouched: update Run Inspector, or use another file "
               "with --db."), {"path": path, "version": version, "supported": SCHEMA_VERSION}))
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=10000")
        # Fewer checkpoints (each one syncs): the write-ahead log may grow to about 40 MB.
        conn.execute("PRAGMA wal_autocheckpoint=10000")
        _migrate(conn, version)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise StoreError(Message(N_("The run database {path} could not be opened: {reason}."),
                                 {"path": path, "reason": exc})) from None
    return sqlite_utils.Database(conn)


def open_database_read_only(path: str | os.PathLike[str]) -> sqlite_utils.Database:
    """Open an existing database for reading only: nothing is created, upgraded or written.

    Raises :class:`StoreError` when the file cannot be read as a run database.
    """
    path = Path(path)
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False,
                               isolation_level=None)
        conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise StoreError(Message(N_("The run database {path} cannot be read: {reason}."),
                                 {"path": path, "reason": exc})) from None
    return sqlite_utils.Database(conn)


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    for number in range(version, SCHEMA_VERSION):
        # Each migration and its version bump commit together, or not at all.
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = conn.execute("PRAGMA user_version").fetchone()[0]
            if current > number:  # another process migrated meanwhile
                conn.execute("ROLLBACK")
                continue
            for statement in MIGRATIONS[number]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number + 1}")
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
            raise


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if one is still open.

    A Ctrl-C can land between a COMMIT and the end of its ``try`` block; a ROLLBACK then would
    fail ("no transaction is active") and hide the interrupt behind a database error.
    """
    if conn.in_transaction:
        conn.execute("ROLLBACK")


def pid_alive(pid: int | None) -> bool:
    if not pid or pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
