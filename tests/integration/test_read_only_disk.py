"""A run database on a read-only disk (a mounted backup, a read-only share): its runs can be read, a call
goes ahead with its record kept aside, and a write says the disk is read-only. The disk is real: the
database's folder bound read-only onto itself in a mount namespace of the command's own (``unshare``)."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.demo import DemoServer
from tests.integration.test_damaged_database import filled_database

ROOT = Path(__file__).resolve().parents[2]


def on_read_only_disk(folder: Path, *args: str, tmp: Path) -> subprocess.CompletedProcess[str]:
    """Run the command line with ``folder`` mounted read-only for it alone."""
    command = shlex.join([sys.executable, "-m", "inspector", *args])
    script = (f"mount --bind {shlex.quote(str(folder))} {shlex.quote(str(folder))} && "
              f"mount -o remount,ro,bind {shlex.quote(str(folder))} && exec {command}")
    return subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "TMPDIR": str(tmp)})


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[tuple[Path, bytes]]:
    folder = tmp_path / "backup"
    folder.mkdir()
    (tmp_path / "tmp").mkdir()
    path = filled_database(folder / "runs.db", runs=3)
    before = path.read_bytes()
    yield path, before
    assert path.read_bytes() == before


def test_its_runs_are_listed(kept: tuple[Path, bytes], tmp_path: Path) -> None:
    """It was "cannot be opened: unable to open database file" (SQLite cannot make its -shm file there)."""
    path, _before = kept
    done = on_read_only_disk(path.parent, "runs", "list", "--db", str(path), "--lang", "en", tmp=tmp_path / "tmp")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert [line.split()[-1] for line in done.stdout.splitlines()[1:]] == ["2", "1", "0"]
    assert sorted(path.parent.iterdir()) == [path]


def test_a_call_goes_ahead_and_its_record_is_kept_aside(kept: tuple[Path, bytes], tmp_path: Path) -> None:
    path, _before = kept
    with DemoServer() as server:
        assert server.url is not None
        done = on_read_only_disk(path.parent, "call", server.url, "echo", "--args", '{"text": "kept"}', "--json",
                                 "--db", str(path), tmp=tmp_path / "tmp")
    report = json.loads(done.stdout)
    assert report["outcome"] == "ok" and done.returncode == 1 and report["record"]["saved"] is False, done.stderr
    side_file = Path(report["record"]["side_file"])
    assert side_file.parent == tmp_path / "tmp" / "run-inspector" / "unsaved-runs" and side_file.is_file()
    assert f"the database {path} can only be read" in done.stderr


def test_a_note_says_the_disk_is_read_only_in_german(kept: tuple[Path, bytes], tmp_path: Path) -> None:
    path, _before = kept
    done = on_read_only_disk(path.parent, "runs", "note", "1", "seen", "--db", str(path), "--lang", "de",
                             tmp=tmp_path / "tmp")
    assert done.returncode == 1 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert f"In die Laufdatenbank {path} kann nicht geschrieben werden" in done.stderr
    assert "schreibgeschützt" in done.stderr and "readonly" not in done.stderr


def test_changes_in_its_write_ahead_log_are_not_left_out(tmp_path: Path) -> None:
    """A read without the log would show the runs before its changes as if they were all: refused instead.
    (With the log's shared-memory file beside it, SQLite reads the log on a read-only disk itself.)"""
    folder = tmp_path / "backup"
    folder.mkdir()
    (tmp_path / "tmp").mkdir()
    path = filled_database(folder / "runs.db", runs=1)
    writer = subprocess.run([sys.executable, "-c", (
        "import os, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        "conn.execute('PRAGMA wal_autocheckpoint=0')\n"
        "conn.execute(\"UPDATE runs SET title = 'changed in the log'\")\n"
        "os._exit(0)\n"), str(path)], timeout=30)  # ends without a checkpoint: the change stays in the log
    assert writer.returncode == 0 and Path(f"{path}-wal").stat().st_size > 0
    Path(f"{path}-shm").unlink()  # a copy made without it (with it, SQLite reads the log itself)
    files = {item.name: item.read_bytes() for item in folder.iterdir()}
    done = on_read_only_disk(folder, "runs", "list", "--db", str(path), "--lang", "en", tmp=tmp_path / "tmp")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert f"The run database {path} cannot be written" in done.stderr and "read-only" in done.stderr
    assert {item.name: item.read_bytes() for item in folder.iterdir()} == files
    with sqlite3.connect(path) as conn:  # once writable again, the change is there
        assert conn.execute("SELECT title FROM runs").fetchone() == ("changed in the log",)
