"""Opening the run database: WAL, migrations, and the clean-up of runs a dead process left."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason

from .companion_modes import match_companions
from .errors import NewerSchemaError, StoreError
from .faults import is_read_only, read_only, set_lock_wait, store_fault, unreadable
from .paths import missing_folder, special_file, unusable
from .read_only_disk import on_read_only_disk, open_unchanging
from .schema import MIGRATIONS, SCHEMA_VERSION
from .transactions import rollback
from .wal_damage import LogDamage, check_log

#: How long a statement waits for another program's lock, unless the caller says otherwise.
LOCK_WAIT_S = 10.0
#: How long an operation's first row waits for another program's lock before the operation goes ahead
#: (its whole run is then written at its end).
START_LOCK_WAIT_S = 0.1
#: How long the finished record waits for the lock (in all) before it goes to a side file.
RECORD_LOCK_WAIT_S = 1.0


class Database:
    """An open run database: its connection (autocommit; transactions are opened explicitly).

    Every statement of the store is plain SQL on :attr:`conn`; this holder is all a store needs,
    and it costs nothing to import (a wrapper library cost each command tens of milliseconds)."""

    __slots__ = ("conn", "log_damage", "_file")

    def __init__(self, conn: sqlite3.Connection, log_damage: LogDamage | None = None,
                 path: Path | None = None) -> None:
        self.conn = conn
        #: The write-ahead log found damaged (and copied aside) as this database was opened, else None.
        self.log_damage = log_damage
        #: The file opened, and which file it is (device, inode), to tell when it is deleted or replaced.
        self._file = None if path is None else (path, _identity(path))

    def gone(self) -> Path | None:
        """The database's path when the file opened is no longer there (deleted, or replaced by another
        file) while it is open: what is written then reaches no one. None while it is there (or unknown)."""
        if self._file is None or self._file[1] is None:
            return None
        path, identity = self._file
        return None if _identity(path) == identity else path

    def execute(self, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Cursor:
        return self.conn.execute(sql, parameters)

    def close(self) -> None:
        self.conn.close()


def open_database(path: str | os.PathLike[str], lock_wait_s: float = LOCK_WAIT_S) -> Database:
    """Open (creating if needed) and upgrade the database at ``path``.

    Only the user data folder is made when it is missing: a folder the user named (``--db``,
    ``RUN_INSPECTOR_DB``, the window's settings) that does not exist is refused with
    :func:`missing_folder`'s sentence, since a mistyped folder would otherwise become a new,
    empty database the user never looks at. A device, a named pipe or a socket is refused with
    :func:`special_file`'s.

    A database from a newer version is refused before anything is written to it. A damaged
    database, or one another program keeps locked for longer than ``lock_wait_s``, is refused
    with a :class:`~.faults.DamagedDatabaseError` or :class:`~.faults.LockedDatabaseError`.
    """
    path = Path(path)
    try:
        folder_there = path.is_dir()
    except OSError as exc:  # a name too long for the system
        raise unusable(path, exc) from None
    if folder_there:
        raise StoreError(Message(N_("The run database path {path} is a folder, not a file. Choose another file "
                                    "with --db or RUN_INSPECTOR_DB."), {"path": path}))
    refused = missing_folder(path) or special_file(path)
    if refused is not None:
        raise refused
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # only the user data folder can be missing here
    except OSError as exc:
        raise StoreError(Message(N_("The run database cannot be created in {folder}: {reason}. Choose another "
                                    "place with --db or RUN_INSPECTOR_DB."),
                                 {"folder": path.parent, "reason": os_reason(exc)})) from None
    match_companions(path)
    log_damage = _kept_log(path)
    conn: sqlite3.Connection | None = None
    unchanging = upgrading = False
    try:
        # Autocommit mode: every transaction is opened and closed explicitly.
        conn = sqlite3.connect(str(path), timeout=lock_wait_s, check_same_thread=False, isolation_level=None)
        version, tables = _version_and_tables(conn)
    except sqlite3.DatabaseError as exc:
        if conn is not None:
            conn.close()
        conn = None
        fault = store_fault(path, exc)
        if fault is not None:
            raise fault from None
        if on_read_only_disk(path):  # read as it is (writes then say it can only be read), else said read-only
            conn, version, tables = _unchanging(path, exc)
            unchanging = True
        elif is_read_only(exc):  # a WAL database in a read-only folder cannot even be read
            raise read_only(path, exc) from None
        else:  # Anything else: cannot open (permissions).
            raise StoreError(Message(N_("The run database {path} cannot be opened: {reason}. Choose another file "
                                        "with --db or RUN_INSPECTOR_DB."), {"path": path, "reason": exc})) from None
    if _foreign(version, tables):
        conn.close()
        raise StoreError(Message(
            N_("{path} is a SQLite database of another program (its tables: {tables}), not a Run Inspector "
               "database. It was left untouched: choose another file with --db or RUN_INSPECTOR_DB."),
            {"path": path, "tables": ", ".join(sorted(tables)[:5]) + (", …" if len(tables) > 5 else "")}))
    if version > SCHEMA_VERSION:
        conn.close()
        raise NewerSchemaError(Message(
            N_("The run database {path} was written by a newer Run Inspector (schema {version}; this version "
               "reads up to {supported}). It was left untouched: update Run Inspector, or use another file "
               "with --db."), {"path": path, "version": version, "supported": SCHEMA_VERSION}))
    if unchanging:
        if version < SCHEMA_VERSION:  # it would have to be upgraded first
            conn.close()
            raise read_only(path, sqlite3.OperationalError("attempt to write a readonly database"))
        conn.execute("PRAGMA foreign_keys=ON")
        return Database(conn, log_damage, path)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        set_lock_wait(conn, lock_wait_s)
        # Fewer checkpoints (each one syncs): the write-ahead log may grow to about 40 MB.
        conn.execute("PRAGMA wal_autocheckpoint=10000")
        upgrading = True
        _migrate(conn, version)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if is_read_only(exc):  # an older database, to be upgraded, in a file that can only be read
            raise read_only(path, exc) from None
        raise store_fault(path, exc) or (upgrading and _not_upgraded(path, version, exc)) or StoreError(Message(N_(
            "The run database {path} could not be opened: {reason}."), {"path": path, "reason": exc})) from None
    except BaseException:  # a Ctrl-C or SIGTERM: the upgrade under way rolled back, the file left as it was
        conn.close()
        raise
    return Database(conn, log_damage, path)


def _not_upgraded(path: Path, version: int, error: sqlite3.DatabaseError) -> StoreError | None:
    """The sentence for an upgrade that failed (``None``: a new database, made here); its transaction rolled back,
    the file is as it was."""
    if not 0 < version < SCHEMA_VERSION:
        return None
    return StoreError(Message(N_(
        "The run database {path} could not be upgraded from schema {version} to {supported} ({reason}). The upgrade "
        "was undone: the database was left as it was, and the Run Inspector that wrote it still opens it. Choose "
        "another file with --db or RUN_INSPECTOR_DB to go on."),
        {"path": path, "version": version, "supported": SCHEMA_VERSION, "reason": error}))


def open_database_read_only(path: str | os.PathLike[str]) -> Database:
    """Open an existing database for reading only: nothing is created, upgraded or written.

    Raises :class:`StoreError` when the file cannot be read as a run database.
    """
    path = Path(path)
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False,
                               isolation_level=None)
        conn.execute("PRAGMA user_version").fetchone()
    except sqlite3.DatabaseError as exc:
        raise unreadable(path, exc) from None
    return Database(conn)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino


def _kept_log(path: Path) -> LogDamage | None:
    """A damaged write-ahead log beside ``path``, copied aside before SQLite reads it (and drops what it
    cannot read); a log that cannot be copied keeps the database closed. Not on a read-only disk, where
    SQLite changes nothing."""
    if on_read_only_disk(path):
        return None
    try:
        return check_log(path)
    except OSError as exc:
        raise StoreError(Message(N_(
            "The write-ahead log of the run database {path} is damaged, and it could not be copied aside ({reason}). "
            "The database was not opened, so that nothing more of it is lost: free some space, or make its folder "
            "writable, and try again."), {"path": path, "reason": os_reason(exc)})) from None


def _unchanging(path: Path, error: sqlite3.DatabaseError) -> tuple[sqlite3.Connection, int, set[str]]:
    """The database on a read-only disk, read as it is, with its version and tables; refused as read-only
    when that cannot be done (``error``: why the usual opening failed), as damaged when it is."""
    conn = open_unchanging(path)
    if conn is None:  # not there (nothing can be made here), or changes in its log an immutable read leaves out
        raise read_only(path, error)
    try:
        return conn, *_version_and_tables(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise store_fault(path, exc) or read_only(path, exc) from None


def _version_and_tables(conn: sqlite3.Connection) -> tuple[int, set[str]]:
    """The schema version and the names of the tables, read together (another process may be
    making the database meanwhile)."""
    conn.execute("BEGIN")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    finally:
        rollback(conn)
    return version, tables


def _foreign(version: int, tables: set[str]) -> bool:
    """Is this another program's database? A new one (version 0) has no tables yet; every version
    of ours has ``runs``. Ours would otherwise be written into it (tables, WAL mode)."""
    return bool(tables) and (version == 0 or "runs" not in tables)


def _migrate(conn: sqlite3.Connection, version: int) -> None:
    """Upgrade the database from ``version`` to :data:`SCHEMA_VERSION`: every migration and the version bump in one
    transaction, so that a failure leaves the database as it was; what a step gave to be done once that is committed
    (removing the keyring entries it copied elsewhere) is done then."""
    if version >= SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    committed: list[Callable[[], None]] = []
    try:
        current = conn.execute("PRAGMA user_version").fetchone()[0]
        if current >= SCHEMA_VERSION:  # another process upgraded it meanwhile
            conn.execute("ROLLBACK")
            return
        for number in range(current, SCHEMA_VERSION):
            for statement in MIGRATIONS[number]:
                if not callable(statement):
                    conn.execute(statement)
                elif (then := statement(conn)) is not None:
                    committed.append(then)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
    for then in committed:  # what the upgrade leaves outside the file (the keyring), once it is kept
        then()


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
