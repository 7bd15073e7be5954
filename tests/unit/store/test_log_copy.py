"""A large write's commit leaves copying the write-ahead log into the database file to a thread of
its own (inspector/store/log_copy.py): the copy happens, after a commit only, and closing waits for it."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.bulk_runs import NewRun, insert_runs

NOTE = "n" * 2000


def _copying() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "run-store-log-copy"]


def _write_many(store: RunStore, runs: int = 1000) -> None:
    """Runs with long notes, inside the open transaction (as an import writes them)."""
    for first in range(0, runs, 100):
        insert_runs(store.db, [NewRun(f"uid-{number}", f"run {number}", "imported", None, "ok", "", "", "a.json",
                                      NOTE) for number in range(first, min(first + 100, runs))])


def _autocheckpoint(store: RunStore) -> int:
    return store.db.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0]


def test_the_commit_does_not_copy_and_the_copy_follows_in_the_background(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        before = path.stat().st_size
        pages = _autocheckpoint(store)
        with store.large_transaction():
            assert _autocheckpoint(store) == 0  # the commit will not stop to copy
            _write_many(store)
        assert _autocheckpoint(store) == pages  # as it was, for every other write
        store.wait_for_log_copy()
        assert not _copying()
        # The log is in the database file although it never reached the automatic copy's size
        # (about 40 MB): a reader of the file alone finds every run.
        assert path.stat().st_size > before + 1000 * len(NOTE)
        busy, logged, copied = sqlite3.connect(path).execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0 and logged == copied
    assert not _copying()


def test_a_rolled_back_large_transaction_copies_nothing_and_keeps_the_setting(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        pages = _autocheckpoint(store)
        size = path.stat().st_size
        with pytest.raises(RuntimeError), store.large_transaction():
            _write_many(store, 200)
            raise RuntimeError("refused halfway")
        assert _autocheckpoint(store) == pages
        assert not _copying()
        store.wait_for_log_copy()
        assert path.stat().st_size == size and store.list_runs(limit=None) == []


def test_closing_waits_for_the_copy(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    store = RunStore.open(path)
    with store.large_transaction():
        _write_many(store)
    store.close()
    assert not _copying()
    # Closed: the log is gone into the file, and another program reads every run.
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 1000
