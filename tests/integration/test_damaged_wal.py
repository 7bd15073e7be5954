"""A damaged write-ahead log: the runs a killed process left in it, cut short or overwritten. SQLite reads
it up to the damage, drops the rest without a word and deletes the file; now the log is copied aside first
and the command says what was lost. Real files: a real process writes runs and is killed before they reach
the database (``os._exit``, no checkpoint); the log is then damaged on disk."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.test_damaged_database import filled_database

ROOT = Path(__file__).resolve().parents[2]

#: Writes three runs and ends without closing the database: they stay in its write-ahead log.
KILLED_WRITER = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA wal_autocheckpoint=0")
for number in range(3):
    conn.execute("INSERT INTO runs (uid, title, source, status, started_at) VALUES (?, ?, 'live', 'ok', ?)",
                 (f"left-{number}", f"left in the log {number}", f"2026-12-05T10:00:0{number}Z"))
os._exit(0)
"""

#: Writes a run, then takes the room the log may grow by (``ROOM`` bytes more: the file size limit stands for a
#: full disk); the process ends without a checkpoint (on a full disk the checkpoint at closing fails too: the log
#: stays).
FULL_DISK = """
import os, resource, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA wal_autocheckpoint=0")
insert = "INSERT INTO runs (uid, title, source, status, started_at) VALUES (?, ?, 'live', 'ok', '2026-12-05T10:00:00Z')"
conn.execute(insert, ("before", "written before the disk was full"))
log = sys.argv[1] + "-wal"
resource.setrlimit(resource.RLIMIT_FSIZE, (os.path.getsize(log) + ROOM, resource.RLIM_INFINITY))
"""

#: A bigger change the disk cannot take: the log's write stops part way through a frame, the change is not committed.
FULL_DISK_WRITER = FULL_DISK.replace("ROOM", "10000") + """
conn.execute("BEGIN")
for number in range(200):
    conn.execute(insert, (f"lost-{number}", "x" * 1000))
try:
    conn.execute("COMMIT")
except sqlite3.OperationalError:
    os._exit(0 if (os.path.getsize(log) - 32) % (24 + 4096) else 3)  # cut inside a frame
os._exit(4)
"""

#: A change of one page (a run renamed): its one frame, the commit, is the one cut.
FULL_DISK_COMMIT = FULL_DISK.replace("ROOM", "1000") + """
try:
    conn.execute("UPDATE runs SET title = 'renamed on a full disk' WHERE uid = 'before'")
except sqlite3.OperationalError:
    with open(log, "rb") as written:
        written.seek(32 + (os.path.getsize(log) - 32) // (24 + 4096) * (24 + 4096) + 4)
        os._exit(0 if written.read(4) != bytes(4) else 3)  # cut inside the commit frame
os._exit(4)
"""

#: Writes 200 runs in one change (some 70 frames, the last its commit) and ends without closing the database.
BIG_CHANGE_WRITER = """
import os, sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA wal_autocheckpoint=0")
conn.execute("BEGIN")
for number in range(200):
    conn.execute("INSERT INTO runs (uid, title, source, status, started_at) VALUES (?, ?, 'live', 'ok', ?)",
                 (f"kept-{number}", "committed " + "x" * 1000, "2026-12-05T10:00:00Z"))
conn.execute("COMMIT")
os._exit(0)
"""

#: Opens the database, says so, and keeps it open until its standard input closes.
HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("SELECT COUNT(*) FROM runs").fetchone()
print("open", flush=True)
sys.stdin.read()
"""


def runs_list(path: Path, language: str = "en") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", "runs", "list", "--db", str(path), "--lang", language],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def left_in_the_log(tmp_path: Path) -> Path:
    path = filled_database(tmp_path / "runs.db", runs=1)
    subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], check=True, timeout=30)
    assert Path(f"{path}-wal").stat().st_size > 4096 * 3
    return path


def cut_short(log: Path) -> None:
    os.truncate(log, log.stat().st_size - 1000)


def overwritten(log: Path) -> None:
    data = bytearray(log.read_bytes())
    data[32 + 24 + 100:32 + 24 + 400] = os.urandom(300)  # inside the first frame's page
    log.write_bytes(bytes(data))


def garbage(log: Path) -> None:
    log.write_bytes(os.urandom(log.stat().st_size))


@pytest.mark.parametrize(("damage", "readable"), [(cut_short, None), (overwritten, 32), (garbage, 0)])
def test_a_damaged_log_is_copied_aside_and_said(tmp_path: Path, damage, readable: int | None) -> None:
    path = left_in_the_log(tmp_path)
    log = Path(f"{path}-wal")
    damage(log)
    damaged = log.read_bytes()
    done = runs_list(path)
    assert done.returncode == 0 and "call echo 0" in done.stdout, done.stderr
    (kept,) = tmp_path.glob("runs.db-wal.damaged-*")
    assert kept.read_bytes() == damaged  # every byte of it, for whoever can recover more
    said = done.stderr.strip()
    assert said.startswith(f"run-inspector: The write-ahead log of the run database {path} was damaged: only ")
    assert f"of its {len(damaged):,} bytes could be read" in said and str(kept) in said and said.count("\n") == 0
    if readable is not None:
        assert f"only {readable:,} of its" in said
    again = runs_list(path)
    assert again.returncode == 0 and again.stderr == "" and list(tmp_path.glob("runs.db-wal.damaged-*")) == [kept]


def test_the_damage_is_said_in_german(tmp_path: Path) -> None:
    path = left_in_the_log(tmp_path)
    cut_short(Path(f"{path}-wal"))
    done = runs_list(path, "de")
    assert done.returncode == 0 and "Änderungsprotokoll (Write-Ahead-Log) der Laufdatenbank" in done.stderr
    assert "war beschädigt" in done.stderr and "damaged: only" not in done.stderr
    (kept,) = tmp_path.glob("runs.db-wal.damaged-*")
    size = kept.stat().st_size
    assert f"{size:,}".replace(",", ".") in done.stderr and str(size) not in done.stderr  # German digit groups


def test_an_intact_log_left_by_a_killed_process_is_read_whole_and_nothing_is_said(tmp_path: Path) -> None:
    path = left_in_the_log(tmp_path)
    done = runs_list(path)
    assert done.returncode == 0 and done.stderr == ""
    assert all(f"left in the log {number}" in done.stdout for number in range(3))
    assert list(tmp_path.glob("*.damaged-*")) == []


def test_a_log_another_process_has_open_is_not_read(tmp_path: Path) -> None:
    """The other process read the log when it opened the database (and dropped what it could not read then):
    what is in the file now is that process's, not a damage to report again."""
    path = left_in_the_log(tmp_path)
    cut_short(Path(f"{path}-wal"))
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        done = runs_list(path)
    finally:
        holder.communicate(timeout=10)
    assert done.returncode == 0 and done.stderr == "" and list(tmp_path.glob("*.damaged-*")) == []


@pytest.mark.parametrize("shm", ["kept", "gone"])
def test_a_log_a_full_disk_cut_short_before_a_commit_is_not_damaged(tmp_path: Path, shm: str) -> None:
    """The import the disk could not take said so ("Nothing was imported"); the next command said the log was
    damaged as well, and with the disk still full refused to open the database at all. Nothing committed is lost:
    nothing is said, nothing copied. Without the -shm file (which counts the frames committed) the cut frame's own
    mark says it commits nothing."""
    path = filled_database(tmp_path / "runs.db", runs=1)
    subprocess.run([sys.executable, "-c", FULL_DISK_WRITER, str(path)], check=True, timeout=30)
    if shm == "gone":
        Path(f"{path}-shm").unlink()
    done = runs_list(path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "written before the disk was full" in done.stdout and "call echo 0" in done.stdout
    assert list(tmp_path.glob("*.damaged-*")) == []


def test_a_damaged_log_that_cannot_be_copied_leaves_no_part_of_a_copy(tmp_path: Path) -> None:
    """A full disk (the file size limit, 4 KiB) stops the copy: the database stays closed, as said, and each try
    left an empty or partial runs.db-wal.damaged-… beside it, on the disk that had no room."""
    import resource

    path = left_in_the_log(tmp_path)
    log = Path(f"{path}-wal")
    cut_short(log)
    damaged = log.read_bytes()

    def no_room() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    for _ in range(2):
        done = subprocess.run([sys.executable, "-m", "inspector", "runs", "list", "--db", str(path), "--lang", "en"],
                              capture_output=True, text=True, timeout=60, cwd=ROOT, preexec_fn=no_room)
        assert done.returncode == 2 and "could not be copied aside" in done.stderr, done.stderr
    assert list(tmp_path.glob("*.damaged-*")) == [] and log.read_bytes() == damaged


def test_a_log_a_full_disk_cut_short_in_its_commit_frame_is_not_damaged(tmp_path: Path) -> None:
    """A change of one page has one frame, its commit: a full disk that stopped its write left the log cut inside
    it, a change never committed, as a cut frame that commits nothing is. It was said to be damaged (and with the
    disk still full the database would not open). The -shm file the writer left counts the frames it committed."""
    path = filled_database(tmp_path / "runs.db", runs=1)
    subprocess.run([sys.executable, "-c", FULL_DISK_COMMIT, str(path)], check=True, timeout=30)
    done = runs_list(path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "written before the disk was full" in done.stdout and "renamed on a full disk" not in done.stdout
    assert list(tmp_path.glob("*.damaged-*")) == []


FRAME = 24 + 4096


@pytest.mark.parametrize("cut", [2000, 0], ids=["inside-a-frame", "at-a-frame-end"])
def test_a_committed_change_cut_short_before_its_commit_frame_is_damage(tmp_path: Path, cut: int) -> None:
    """200 runs committed in one change, the log then cut in its middle: inside a frame that commits nothing (the
    change's commit is its last frame), or where a frame ends. SQLite drops the whole change; nothing was said,
    as if a full disk had stopped a change never committed. The -shm file says the change was committed."""
    path = filled_database(tmp_path / "runs.db", runs=1)
    subprocess.run([sys.executable, "-c", BIG_CHANGE_WRITER, str(path)], check=True, timeout=30)
    log = Path(f"{path}-wal")
    frames = (log.stat().st_size - 32) // FRAME
    assert frames > 50
    os.truncate(log, 32 + frames // 2 * FRAME + cut)
    damaged = log.read_bytes()
    done = runs_list(path)
    assert done.returncode == 0 and "committed" not in done.stdout, done.stderr
    (kept,) = tmp_path.glob("runs.db-wal.damaged-*")
    assert kept.read_bytes() == damaged
    assert f"only {32 + frames // 2 * FRAME:,} of its {len(damaged):,} bytes could be read" in done.stderr
