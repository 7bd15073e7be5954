"""A run database that is damaged or locked: recognised by SQLite's own code, said in one
sentence that names the file and what to do, and (when the user asks) moved aside."""

from __future__ import annotations

import os
import sqlite3
from datetime import datetime
from pathlib import Path

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.sqlite_reasons import sqlite_reason

from .errors import StoreError

# SQLite's primary result codes (an extended code keeps its primary one in the low byte).
_DAMAGE_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
_LOCK_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})
_READ_ONLY_CODES = frozenset({sqlite3.SQLITE_READONLY})

#: The files SQLite keeps beside a database in WAL mode; they belong to it and move with it.
_COMPANIONS = ("-wal", "-shm", "-journal")


class DamagedDatabaseError(StoreError):
    """The file is not a database, or its pages are damaged; it was left as it is."""

    def __init__(self, message: object, path: Path) -> None:
        super().__init__(message)
        self.path = path


class LockedDatabaseError(StoreError):
    """Another program holds a lock on the database longer than this one may wait."""

    def __init__(self, message: object, path: Path) -> None:
        super().__init__(message)
        self.path = path


def _primary_code(error: sqlite3.Error) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return None if code is None else code & 0xFF


class ReadOnlyDatabaseError(StoreError):
    """The database can be read but not written (a read-only file, folder or file system)."""

    def __init__(self, message: object, path: Path) -> None:
        super().__init__(message)
        self.path = path


class DatabaseGoneError(StoreError):
    """The database file was deleted or replaced while it was open; nothing more is written to it."""

    def __init__(self, path: Path) -> None:
        super().__init__(Message(N_("the file was deleted or replaced while it was open")))
        self.path = path


def is_damage(error: BaseException) -> bool:
    """Does SQLite say the file is damaged or not a database at all?"""
    return isinstance(error, sqlite3.Error) and _primary_code(error) in _DAMAGE_CODES


def is_lock(error: BaseException) -> bool:
    """Does SQLite say another connection holds the lock it needed?"""
    return isinstance(error, sqlite3.Error) and _primary_code(error) in _LOCK_CODES


def is_read_only(error: BaseException) -> bool:
    """Does SQLite say the database cannot be written?"""
    return isinstance(error, sqlite3.Error) and _primary_code(error) in _READ_ONLY_CODES


def _reason(error: BaseException) -> Message | str:
    """SQLite's own words (its common ones translatable: :func:`~inspector.i18n.sqlite_reasons.sqlite_reason`),
    without the wrapping a Qt model's call adds around an error raised in it."""
    text = str(error)
    if text.startswith("Error calling Python override"):
        text = text.rpartition("): ")[2]
    return sqlite_reason(text)


def damaged(path: Path, error: BaseException) -> DamagedDatabaseError:
    """The sentence for a damaged database: which file, what is wrong, what to do."""
    reason = _reason(error)
    if isinstance(error, sqlite3.Error) and _primary_code(error) == sqlite3.SQLITE_NOTADB:
        message = Message(N_("{path} is not a Run Inspector database ({reason}). Choose another file with --db or "
                             "RUN_INSPECTOR_DB; this one was left untouched."), {"path": path, "reason": reason})
    else:
        message = Message(N_("The run database {path} is damaged ({reason}) and cannot be used; it was left as it "
                             "is. Move it aside (rename it) to start with a fresh one, or choose another file with "
                             "--db or RUN_INSPECTOR_DB."), {"path": path, "reason": reason})
    return DamagedDatabaseError(message, path)


def locked(path: Path) -> LockedDatabaseError:
    """The sentence for a database another program keeps locked."""
    return LockedDatabaseError(Message(N_(
        "The run database {path} is locked by another program (for example a sqlite3 shell or another tool "
        "holding a transaction open). Close that program and try again, or choose another file with --db or "
        "RUN_INSPECTOR_DB."), {"path": path}), path)


def read_only(path: Path, error: BaseException) -> ReadOnlyDatabaseError:
    """The sentence for a database that cannot be written: which file, why, what to do."""
    return ReadOnlyDatabaseError(Message(N_(
        "The run database {path} cannot be written ({reason}): the file, its folder or its disk is read-only. "
        "Make it writable, or choose another file with --db or RUN_INSPECTOR_DB."),
        {"path": path, "reason": _reason(error)}), path)


def is_no_room(error: BaseException) -> bool:
    """Does SQLite say the disk (or the file size limit) has no room: the database could not grow, or the
    shared-memory file beside it could not be made (SQLite then says only "disk I/O error")?"""
    return isinstance(error, sqlite3.Error) and (
        _primary_code(error) == sqlite3.SQLITE_FULL
        or getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_IOERR_SHMSIZE)


def no_room(path: Path, error: BaseException) -> StoreError:
    """The sentence for a database whose disk is full: which file, what is wrong, what to do."""
    return StoreError(Message(N_(
        "The run database {path} cannot be used: there is no room left on its disk ({reason}). Free some space, "
        "or choose another file with --db or RUN_INSPECTOR_DB."), {"path": path, "reason": _reason(error)}))


def store_fault(path: Path, error: sqlite3.Error) -> StoreError | None:
    """The store's sentence for a SQLite error on ``path``, or None when it is neither damage, a lock nor
    a full disk."""
    if is_damage(error):
        return damaged(path, error)
    if is_lock(error):
        return locked(path)
    if is_no_room(error):
        return no_room(path, error)
    return None


def unreadable(path: Path, error: BaseException) -> StoreError:
    """The store's sentence for a read of ``path`` that failed: a StoreError as it is (the file refused as it
    opened), damage, a lock or a full disk said so, anything else with SQLite's (or the error's) words."""
    if isinstance(error, StoreError):
        return error
    if isinstance(error, sqlite3.Error):
        fault = store_fault(path, error)
        if fault is not None:
            return fault
    return StoreError(Message(N_("The run database {path} cannot be read: {reason}."),
                              {"path": path, "reason": error if isinstance(error, sqlite3.Error)
                               else str(error) or type(error).__name__}))


def database_file(conn: sqlite3.Connection) -> Path:
    """The file ``conn`` has open, as SQLite names it (absolute): asked of SQLite, which needs no lock for it."""
    return Path(next(row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main"))


def set_lock_wait(conn: sqlite3.Connection, seconds: float) -> None:
    """How long a statement on ``conn`` waits for another program's lock before it gives up."""
    conn.execute(f"PRAGMA busy_timeout = {max(0, int(seconds * 1000))}")


def aside_name(path: Path, moment: datetime) -> Path:
    """Where a damaged database is moved: beside it, named with the moment (never over another file)."""
    stamp = moment.strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{path.name}.damaged-{stamp}")
    number = 1
    while any(Path(f"{candidate}{suffix}").exists() for suffix in ("", *_COMPANIONS)):
        number += 1
        candidate = path.with_name(f"{path.name}.damaged-{stamp}-{number}")
    return candidate


def move_aside(path: Path, moment: datetime | None = None) -> Path:
    """Rename a damaged database (and its WAL companions) beside it; nothing is deleted.

    Returns the new name of the database file. Raises ``OSError`` when it cannot be renamed.
    """
    target = aside_name(path, moment or datetime.now())
    os.rename(path, target)
    for suffix in _COMPANIONS:
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            os.rename(companion, Path(f"{target}{suffix}"))
    return target
