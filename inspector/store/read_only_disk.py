"""A run database on a read-only disk (a mounted backup, a CD, a read-only share): read as it is.

SQLite cannot make the shared-memory file a database in WAL mode needs beside it there, so even a
read was refused ("unable to open database file"). Nothing can change a file on a read-only file
system, so it is opened *immutable*: read without locks or the shared memory. Only when its
write-ahead log holds changes is that not possible (an immutable read would leave them out): the
database is then refused as read-only, and nothing is changed.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path


def on_read_only_disk(path: Path) -> bool:
    """Is ``path``'s folder on a file system mounted read-only?"""
    try:
        return bool(os.statvfs(path.parent).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows), or a folder that cannot be asked
        return False


def has_logged_changes(path: Path) -> bool:
    """Does the write-ahead log beside ``path`` hold changes not yet in the file itself?"""
    try:
        return os.stat(f"{path}-wal").st_size > 0
    except OSError:
        return False


def open_unchanging(path: Path) -> sqlite3.Connection | None:
    """``path`` opened for reading only, as a file nothing changes; None when that would leave out
    changes its write-ahead log holds, or when the file is not there."""
    if not path.is_file() or has_logged_changes(path):
        return None
    return sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, check_same_thread=False,
                           isolation_level=None)


__all__ = ["has_logged_changes", "on_read_only_disk", "open_unchanging"]
