"""Reading a write-ahead log for damage never disturbs a connection of this process: its locks on the
``-shm`` file are invisible to F_GETLK, and closing any descriptor of that file would drop them all (POSIX)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.wal_damage import check_log

#: Asks for the lock every connection holds shared on the -shm file; prints whether it was free.
TAKES_THE_LOCK = """
import fcntl, os, sys
descriptor = os.open(sys.argv[1], os.O_RDWR)
try:
    fcntl.lockf(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB, 1, 128)
    print("free")
except OSError:
    print("held")
"""


def test_a_connection_of_this_process_keeps_its_lock_while_the_log_is_checked(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        store.finish_run(store.start_run("tools/call echo"), "ok")  # the log holds it
        assert Path(f"{path}-wal").stat().st_size > 32
        assert check_log(path) is None
        other = subprocess.run([sys.executable, "-c", TAKES_THE_LOCK, f"{path}-shm"], capture_output=True,
                               text=True, timeout=30)
        assert other.stdout.strip() == "held", other.stderr
        assert store.list_runs()[0].title == "tools/call echo"


def test_a_stop_while_a_damaged_log_is_copied_aside_leaves_no_part_of_a_copy(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C or SIGTERM (a KeyboardInterrupt, cli/stopping.py) half way through the copy left the half copy
    beside the database, looking like the log kept whole; the log itself is untouched."""
    from inspector.store import wal_damage
    from tests.integration.test_damaged_wal import cut_short, left_in_the_log

    path = left_in_the_log(tmp_path)
    log = Path(f"{path}-wal")
    cut_short(log)
    damaged = log.read_bytes()

    def stopped_half_way(source: Path, target: Path) -> None:
        target.write_bytes(source.read_bytes()[:len(damaged) // 2])
        raise KeyboardInterrupt

    monkeypatch.setattr(wal_damage.shutil, "copyfile", stopped_half_way)
    with pytest.raises(KeyboardInterrupt):
        check_log(path)
    assert list(tmp_path.glob("*.damaged-*")) == [] and log.read_bytes() == damaged
