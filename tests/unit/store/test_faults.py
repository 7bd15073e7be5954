"""Damage and locks told apart by SQLite's own codes; a damaged database moved aside whole."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.faults import DamagedDatabaseError, aside_name, is_damage, is_lock, move_aside


def test_a_file_of_noise_is_damage_not_a_lock(tmp_path: Path) -> None:
    path = tmp_path / "noise.db"
    path.write_bytes(bytes(range(256)) * 64)
    with pytest.raises(sqlite3.DatabaseError) as raised:
        sqlite3.connect(path).execute("SELECT * FROM sqlite_master").fetchall()
    assert is_damage(raised.value) and not is_lock(raised.value)
    with pytest.raises(DamagedDatabaseError) as refused:
        RunStore.open(path)
    assert refused.value.path == path and str(path) in str(refused.value)


def test_a_database_moves_aside_with_its_write_ahead_log_and_nothing_is_deleted(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    for suffix, content in (("", b"main"), ("-wal", b"log"), ("-shm", b"shared")):
        Path(f"{path}{suffix}").write_bytes(content)
    moment = datetime(2026, 12, 1, 23, 50, 7)
    moved = move_aside(path, moment)
    assert moved == tmp_path / "runs.db.damaged-20261201-235007"
    assert [moved.read_bytes(), Path(f"{moved}-wal").read_bytes(), Path(f"{moved}-shm").read_bytes()] == [
        b"main", b"log", b"shared"]
    assert not path.exists() and not Path(f"{path}-wal").exists()
    # A second damaged file in the same second never replaces the first one moved aside.
    path.write_bytes(b"again")
    assert aside_name(path, moment) == tmp_path / "runs.db.damaged-20261201-235007-2"
    assert move_aside(path, moment).read_bytes() == b"again" and moved.read_bytes() == b"main"


def test_only_the_user_data_folder_is_made_for_a_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whoever opens it (the window, the receiver, the proxy's writer): a database in a folder that does
    not exist is refused naming the folder, and nothing is made; the user data folder is made."""
    from inspector.store import StoreError, default_db_path

    named = tmp_path / "no" / "such" / "runs.db"
    with pytest.raises(StoreError) as refused:
        RunStore.open(named)
    assert f"its folder {named.parent} does not exist" in str(refused.value)
    assert not (tmp_path / "no").exists()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg" / "deep"))
    RunStore.open(default_db_path()).close()
    assert (tmp_path / "xdg" / "deep" / "run-inspector" / "runs.db").is_file()
