"""Opening a file is only opening a file (issue 23): ``run-inspector FILE`` imports the file and
starts nothing else. The window runs as a user starts it (offscreen, a temporary settings file and
run database, no demo entry yet: a first launch, which without a file would start the demo server
and list its tools); the test waits until the import is in the database, checks that no demo
server process was started and that the database holds only the imported runs, then quits the
window with SIGTERM."""

from __future__ import annotations

import configparser
import os
import signal
import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from tests.gui.test_window_process import children, wait_until

ROOT = Path(__file__).resolve().parents[2]
TRACE = ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"
#: The traces of the file, each one run (otlp-<trace id>).
TRACE_RUNS = 4
UP_WITHIN_S = 90.0


def start_window(tmp_path: Path, *arguments: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RUN_INSPECTOR_SETTINGS": str(tmp_path / "settings.ini"),
           "RUN_INSPECTOR_DB": str(tmp_path / "runs.db"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "inspector", *arguments], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=(tmp_path / "stderr.txt").open("wb"))


def rows(database: Path, query: str) -> list[tuple]:
    """What the window's database holds (read-only; empty while it is still being made)."""
    if not database.exists():
        return []
    try:
        with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=5)) as conn:
            return conn.execute(query).fetchall()
    except sqlite3.Error:
        return []


def listening_ports(pid: int) -> set[str]:
    """The TCP ports a process listens on (from /proc: its sockets in LISTEN state)."""
    inodes = set()
    try:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    except OSError:
        return set()
    ports = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(fields[1].rsplit(":", 1)[1])
    return ports


def test_run_inspector_file_imports_and_starts_nothing_else(tmp_path: Path) -> None:
    window = start_window(tmp_path, str(TRACE))
    database = tmp_path / "runs.db"
    try:
        def imported() -> bool:
            assert window.poll() is None, (tmp_path / "stderr.txt").read_text(errors="replace")
            return len(rows(database, "SELECT uid FROM runs")) >= TRACE_RUNS and bool(
                rows(database, "SELECT count(*) FROM steps")[0][0])

        wait_until(imported, UP_WITHIN_S, "the file's runs are in the database")
        time.sleep(3)  # a demo server started after the first paint would be on its way by now
        assert window.poll() is None
        # No demo server: no child process (serve-demo or any other), nothing listening, no entry remembered.
        kids = children(window.pid) if Path("/proc/self/stat").exists() else []
        assert not [pid for pid in kids if b"serve-demo" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert not any(listening_ports(pid) for pid in kids)
        if Path("/proc/self/stat").exists():
            assert not listening_ports(window.pid), "the window itself serves nothing"
        settings = configparser.ConfigParser(interpolation=None, strict=False)
        settings.read(tmp_path / "settings.ini", encoding="utf-8")
        assert not settings.has_option("demo", "last_url")
        # The database holds the import and nothing else: its runs, no server, no live run.
        uids = [uid for (uid,) in rows(database, "SELECT uid FROM runs")]
        assert len(uids) == TRACE_RUNS and all(uid.startswith("otlp-") for uid in uids)
        assert rows(database, "SELECT DISTINCT source FROM runs") == [("imported",)]
        assert rows(database, "SELECT count(*) FROM servers") == [(0,)]
        window.send_signal(signal.SIGTERM)
        assert window.wait(30) == 0, (tmp_path / "stderr.txt").read_text(errors="replace")
    finally:
        if window.poll() is None:
            window.kill()
            window.wait(30)
