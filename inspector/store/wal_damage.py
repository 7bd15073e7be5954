"""A damaged write-ahead log, found before SQLite reads it, and kept.

Changes a process wrote to a database in WAL mode stay in its ``-wal`` file until they are copied
into the database (a checkpoint); a process that ends without one (killed, a crash) leaves them
there, and the next opening reads them. Where that log is damaged (cut short, or garbage where its
frames were), SQLite reads it up to the damage, drops the rest without a word, and then deletes the
file: the changes after the damage were lost, and nothing said so. Here the log is read as SQLite
reads it (its frames' salts and running checksums) before the database is opened; when some of it
cannot be read, the file is copied beside the database first, and the opener says so. A log that
ends part way through a frame the writer had not committed is not damaged: a full disk stopped a change
before its commit, which SQLite drops as it drops any change not committed: nothing committed is lost.
Which frames were committed the ``-shm`` file the writer left says (its count of them); without one, a
cut frame that ends no change is taken for such a write.

The log is only read when no process has the database open (its ``-shm`` file neither locked by another
process nor open in this one): a log a connection is writing is not damaged, merely growing.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import struct
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from inspector.i18n import N_
from inspector.i18n.messages import Count, Message

_MAGIC = (0x377F0682, 0x377F0683)  # the low bit: checksums of big-endian words
_VERSION = 3007000
_HEADER = 32
_FRAME_HEADER = 24
#: SQLite's lock in the ``-shm`` file that every connection holds shared while it has the database open.
_DMS_BYTE = 128
#: The ``-shm`` file's index header (SQLite's WalIndexHdr, in the machine's byte order), written twice in a row.
_INDEX_HEADER = 48

@dataclass(frozen=True)
class LogDamage:
    """The log ``log`` of ``size`` bytes, of which SQLite reads ``readable`` (its header and the frames
    before the damage; 0 when its header is damaged); ``kept``: its copy."""

    log: Path
    readable: int
    size: int
    kept: Path


def damaged_log_sentence(path: Path, damage: LogDamage) -> Message:
    """What the user is told once the database is open: what was lost, and where the log was kept."""
    return Message(N_(
        "The write-ahead log of the run database {path} was damaged: only {readable} of its {size} bytes could be "
        "read, and the changes in the rest (the last ones written before a program ended without closing the "
        "database) are not in it. The log was copied to {kept} before the database was opened."),
        {"path": path, "readable": Count(damage.readable), "size": Count(damage.size), "kept": damage.kept})


def check_log(path: Path, moment: datetime | None = None) -> LogDamage | None:
    """Before ``path`` is opened: copy its write-ahead log aside when SQLite would drop part of it.

    None when there is nothing to say (no log, an intact one, one another process has open, one checked
    already by this process). Raises ``OSError`` when a damaged log cannot be copied (then the database
    must not be opened: SQLite would drop what cannot be read)."""
    log = Path(f"{path}-wal")
    try:
        size = log.stat().st_size
    except OSError:
        return None
    if size < _HEADER or _in_use(Path(f"{path}-shm")):
        return None
    readable = _readable(log, Path(f"{path}-shm"))
    if readable is None:
        return None
    kept = _kept_name(log, moment or datetime.now())
    try:
        shutil.copyfile(log, kept)
    except BaseException:  # a full disk, or a Ctrl-C or SIGTERM (cli/stopping.py) as it copied
        kept.unlink(missing_ok=True)  # a copy cut short keeps nothing: each try left one
        raise
    return LogDamage(log, readable, size, kept)


def _readable(log: Path, shm: Path) -> int | None:
    """How much of ``log`` SQLite reads, when that is not all of the log's own frames; None when it is."""
    with open(log, "rb") as source:
        header = source.read(_HEADER)
        magic, version, page_size, _sequence, salt1, salt2, sum1, sum2 = struct.unpack(">8I", header)
        big = bool(magic & 1)
        if (magic not in _MAGIC or version != _VERSION or not _page_size(page_size)
                or _checksum(header[:24], big, 0, 0) != (sum1, sum2)):
            return 0
        committed = _committed_frames(shm, header)
        sums, offset, frames = (sum1, sum2), _HEADER, 0
        while True:
            head = source.read(_FRAME_HEADER)
            if len(head) < 16:  # the end (a piece too short to say whose frame it was: not counted)
                return _end(offset, frames, committed)
            if struct.unpack(">2I", head[8:16]) != (salt1, salt2):
                return _end(offset, frames, committed)  # what follows is left from an earlier log
            page = source.read(page_size)
            frames += 1
            if len(head) < _FRAME_HEADER or len(page) < page_size:  # a frame of this log, cut short
                return None if _never_committed(frames, head, committed) else offset
            number, _commit, _salt1, _salt2, frame1, frame2 = struct.unpack(">6I", head)
            sums = _checksum(page, big, *_checksum(head[:8], big, *sums))
            if number == 0 or sums != (frame1, frame2):
                return offset  # a frame of this log that does not read back
            offset += _FRAME_HEADER + page_size


def _end(offset: int, frames: int, committed: int | None) -> int | None:
    """The log's own frames end after ``frames`` of them: None (all read) unless the writer had committed more
    (a log cut short at a frame's end)."""
    return offset if committed is not None and frames < committed else None


def _never_committed(frame: int, head: bytes, committed: int | None) -> bool:
    """Was the log's ``frame``-th frame, cut short, part of a change the writer never committed (a full disk
    stopped its write)? Where the ``-shm`` file cannot tell, a frame that ends no change is taken for one."""
    if committed is not None:
        return frame > committed
    return len(head) == _FRAME_HEADER and not _commits(head)


def _committed_frames(shm: Path, log_header: bytes) -> int | None:
    """How many of the log's frames its writer had committed, as the ``-shm`` file it left says (``mxFrame`` of
    its index header); None where that file cannot tell (there is none, or it is another log's, or torn)."""
    try:
        with open(shm, "rb") as source:
            both = source.read(2 * _INDEX_HEADER)
    except OSError:
        return None
    first = both[:_INDEX_HEADER]
    if len(both) < 2 * _INDEX_HEADER or first != both[_INDEX_HEADER:]:
        return None
    version, _unused, _change, initialised, _big, _page, frames = struct.unpack("=3IBBHI", first[:20])
    if (version != _VERSION or not initialised or first[32:40] != log_header[16:24]
            or _checksum(first[:40], sys.byteorder == "big", 0, 0) != struct.unpack("=2I", first[40:48])):
        return None
    return frames


def _commits(head: bytes) -> bool:
    """Does the frame with header ``head`` end a change (a commit, the database's size after it)?"""
    return struct.unpack(">I", head[4:8])[0] != 0


def _page_size(size: int) -> bool:
    return size == 65536 or (512 <= size <= 32768 and size & (size - 1) == 0)


def _checksum(data: bytes, big: bool, first: int, second: int) -> tuple[int, int]:
    """SQLite's running checksum of the log, over ``data`` (a multiple of 8 bytes) from ``first``, ``second``."""
    words = struct.unpack(f"{'>' if big else '<'}{len(data) // 4}I", data)
    for index in range(0, len(words), 2):
        first = (first + words[index] + second) & 0xFFFFFFFF
        second = (second + words[index + 1] + first) & 0xFFFFFFFF
    return first, second


def _in_use(shm: Path) -> bool:
    """Does another process have the database open (a shared lock on the ``-shm`` file's byte 128)?
    Asked with F_GETLK, which takes no lock; only on Linux, whose ``struct flock`` is known here (elsewhere
    the log is taken to be in use: not read)."""
    if not sys.platform.startswith("linux") or _open_here(shm):
        return True
    try:
        descriptor = os.open(shm, os.O_RDONLY)
    except FileNotFoundError:
        return False  # no connection has it open: each one makes it
    except OSError:
        return True
    try:
        asked = struct.pack("@hhqqi4x", fcntl.F_WRLCK, os.SEEK_SET, _DMS_BYTE, 1, 0)
        answer = fcntl.fcntl(descriptor, fcntl.F_GETLK, asked)
        return struct.unpack("@hhqqi4x", answer)[0] != fcntl.F_UNLCK
    except OSError:
        return True
    finally:
        os.close(descriptor)


def _open_here(shm: Path) -> bool:
    """Does this process have ``shm`` open (a connection of its own)? Its locks are not seen by F_GETLK, and
    closing any descriptor of the file would drop them: the file is then not touched at all."""
    try:
        wanted = os.stat(shm)
    except OSError:
        return False
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return True  # cannot tell: not touched
    for name in names:
        try:
            found = os.stat(f"/proc/self/fd/{name}")
        except OSError:
            continue
        if (found.st_dev, found.st_ino) == (wanted.st_dev, wanted.st_ino):
            return True
    return False


def _kept_name(log: Path, moment: datetime) -> Path:
    stamp = moment.strftime("%Y%m%d-%H%M%S")
    candidate, number = log.with_name(f"{log.name}.damaged-{stamp}"), 1
    while candidate.exists():
        number += 1
        candidate = log.with_name(f"{log.name}.damaged-{stamp}-{number}")
    return candidate


__all__ = ["LogDamage", "check_log", "damaged_log_sentence"]
