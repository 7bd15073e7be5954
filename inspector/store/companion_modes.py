"""The files SQLite keeps beside a run database, writable again once the database is.

SQLite makes the write-ahead log (``-wal``) and its shared-memory index (``-shm``) with the database
file's permission bits. A database opened while it could only be read (``chmod a-w``, a copy from a
read-only disc) is left with both of them read-only beside it; SQLite opens them as they are, so once
the file was made writable again every write still failed ("attempt to write a readonly database"), and
the sentence said to make the database writable, which it was.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

_WRITTEN_BESIDE = ("-wal", "-shm")


def match_companions(path: Path) -> None:
    """Give a read-only ``-wal`` or ``-shm`` beside the writable ``path`` the database's permission bits
    (those SQLite makes them with). Their contents are not touched; one that cannot be changed (another
    owner's) is left as it is, and SQLite then says the database cannot be written."""
    try:
        if not os.access(path, os.W_OK):
            return
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        return
    for suffix in _WRITTEN_BESIDE:
        companion = Path(f"{path}{suffix}")
        try:
            if stat.S_ISREG(os.lstat(companion).st_mode) and not os.access(companion, os.W_OK):
                os.chmod(companion, mode)
        except OSError:
            continue  # not there (the usual case), or not ours to change


__all__ = ["match_companions"]
