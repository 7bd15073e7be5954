"""The window as a process (issue 27): the demo server runs in a process of its own, which ends with
the window however the window ends; SIGTERM and SIGINT quit the window cleanly.

Each test starts ``run-inspector`` as a user does (offscreen, a temporary settings file and run
database), waits until its demo server answers on the port the settings name, and then ends the
window: with SIGKILL (the window cannot stop anything: the demo server's process must notice by
itself) or with SIGTERM / SIGINT (the window quits as File → Quit does: status 0, the demo server
stopped, the database closed).
"""

from __future__ import annotations

import configparser
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Generous bounds: a loaded machine starts Python and Qt slowly.
UP_WITHIN_S = 60.0
GONE_WITHIN_S = 20.0


def start_window(tmp_path: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RUN_INSPECTOR_SETTINGS": str(tmp_path / "settings.ini"),
           "RUN_INSPECTOR_DB": str(tmp_path / "runs.db"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-m", "inspector"], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=(tmp_path / "stderr.txt").open("wb"))


def demo_port(settings: Path) -> int | None:
    """The port of the demo entry the window remembers (``demo/last_url``), once it is written."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(settings, encoding="utf-8")
        return urlsplit(parser.get("demo", "last_url")).port
    except (configparser.Error, ValueError, OSError):
        return None


def listening(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def wait_until(predicate, within_s: float, what: str) -> None:
    deadline = time.monotonic() + within_s
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {within_s} s: {what}")
        time.sleep(0.05)


def demo_up(window: subprocess.Popen[bytes], tmp_path: Path) -> int:
    """Wait until the window's demo server answers; return its port."""
    found: list[int] = []

    def answers() -> bool:
        assert window.poll() is None, (tmp_path / "stderr.txt").read_text(errors="replace")
        port = demo_port(tmp_path / "settings.ini")
        if port and listening(port):
            found.append(port)
        return bool(found)

    wait_until(answers, UP_WITHIN_S, "the window's demo server answers")
    return found[0]


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc, where there is one)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry.parent.name))
    return found


def gone(pid: int) -> bool:
    """Ended: no such process, or one that ended and waits to be reaped (a zombie)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


def demo_child(window: subprocess.Popen[bytes]) -> int | None:
    """The demo server's process of the window (``serve-demo``), where /proc tells; else ``None``."""
    if not Path("/proc/self/stat").exists():
        return None
    for pid in children(window.pid):
        try:
            if b"serve-demo" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return pid
        except OSError:
            continue
    raise AssertionError("the demo server is not a process of its own")


def test_the_demo_server_process_ends_when_the_window_is_killed(tmp_path: Path) -> None:
    window = start_window(tmp_path)
    try:
        port = demo_up(window, tmp_path)
        child = demo_child(window)
        window.kill()  # SIGKILL: the window stops nothing; its demo server must notice by itself
        window.wait(30)
        if child is not None:
            # Its process ends, and its port with it. The port alone is no proof where /proc names the process:
            # beside the suite, another test's server may be given the freed port within the wait.
            wait_until(lambda: gone(child), GONE_WITHIN_S, "the demo server's process ends")
        else:
            wait_until(lambda: not listening(port), GONE_WITHIN_S, "the demo server stops answering")
    finally:
        if window.poll() is None:
            window.kill()
            window.wait(30)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_quits_the_window_cleanly(tmp_path: Path, signum: int) -> None:
    window = start_window(tmp_path)
    try:
        port = demo_up(window, tmp_path)
        child = demo_child(window)
        window.send_signal(signum)
        assert window.wait(30) == 0, (tmp_path / "stderr.txt").read_text(errors="replace")
        # The window stopped its demo server before it ended, and closed the database: SQLite folds
        # the write-ahead log back and removes it when the last connection closes.
        assert not listening(port)
        if child is not None:
            wait_until(lambda: gone(child), GONE_WITHIN_S, "the demo server's process ends")
        assert (tmp_path / "runs.db").exists()
        assert not (tmp_path / "runs.db-wal").exists()
    finally:
        if window.poll() is None:
            window.kill()
            window.wait(30)
