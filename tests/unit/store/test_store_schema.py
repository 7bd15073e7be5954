"""Schema versions: older databases are upgraded, newer ones refused untouched."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from inspector.store import SCHEMA_VERSION, NewerSchemaError, RunStore, StoreError
from inspector.store.schema import MIGRATIONS


def first_schema_database(path: Path) -> None:
    """A database exactly as the first schema wrote it, with one finished run in it."""
    conn = sqlite3.connect(path, isolation_level=None)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO runs (uid, title, source, server, status, started_at, finished_at) VALUES"
                 " ('u1', 'old run', 'live', 'http://old/mcp', 'ok', '2026-01-01T00:00:00.000000Z',"
                 " '2026-01-01T00:00:01.000000Z')")
    conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at, outcome, payload)"
                 " VALUES (1, 1, 'tool', 0, 5.0, '2026-01-01T00:00:00.500000Z', 'failed',"
                 " '{\"kind\":\"tool\",\"round\":0,\"durationMs\":5.0,\"toolName\":\"t\",\"toolIsError\":true}')")
    conn.execute("INSERT INTO runs (uid, title, source, status, started_at) VALUES"
                 " ('u2', 'was running', 'live', 'running', '2026-01-01T00:00:02.000000Z')")
    conn.close()


def test_there_is_more_than_one_schema_version() -> None:
    assert SCHEMA_VERSION >= 2  # otherwise the upgrade test below proves nothing


def test_a_first_schema_database_opens_and_is_upgraded(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    first_schema_database(path)
    with RunStore.open(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        old = store.get_run(1)
        assert (old.title, old.status, old.step_count) == ("old run", "ok", 1)
        (step,) = store.steps_page(1)
        assert step.outcome == "failed" and step.payload["toolIsError"] is True
        # A run the old version left running belongs to no live process: interrupted.
        assert store.get_run(2).status == "interrupted"
        # The new columns work.
        new_id = store.start_run("new run")
        assert store.get_run(new_id).status == "running"
        assert "steps_timeline" in {row[1] for row in store.db.execute("PRAGMA index_list(steps)")}


def test_a_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    with RunStore.open(path):
        pass
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    conn.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(NewerSchemaError, match="newer Run Inspector") as caught:
        RunStore.open(path)
    assert str(path) in str(caught.value)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert not Path(f"{path}-wal").exists()


def test_migrations_are_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration that fails half-way leaves the database at the version it had."""
    path = tmp_path / "old.db"
    first_schema_database(path)
    import inspector.store.database as database

    broken = (MIGRATIONS[0], (*MIGRATIONS[1][:1], "THIS IS NOT SQL"))
    monkeypatch.setattr(database, "MIGRATIONS", broken)
    with pytest.raises(StoreError):
        RunStore.open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "owner_pid" not in {row[1] for row in conn.execute("PRAGMA table_info(runs)")}
    conn.close()


def test_a_second_schema_database_keeps_its_health_and_gains_tool_errors(tmp_path: Path) -> None:
    from inspector.store import ServerRegistry

    path = tmp_path / "v2.db"
    conn = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:2]:
        for statement in migration:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO server_health (url, last_contact_at, last_latency_ms, ok_count, failed_count,"
                 " cancelled_count) VALUES ('http://old/mcp', '2026-01-01T00:00:00.000000Z', 12.0, 5, 2, 1)")
    conn.close()
    with RunStore.open(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 3
        registry = ServerRegistry(store.db)
        old = registry.get("http://old/mcp")
        assert (old.ok_count, old.tool_error_count, old.failed_count, old.cancelled_count) == (5, 0, 2, 1)
        registry.record_operation("http://old/mcp", "tool_error", 8.0)
        assert registry.get("http://old/mcp").tool_error_count == 1


def test_an_interrupt_just_after_commit_stays_an_interrupt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C that lands after a migration's COMMIT must not turn into "cannot rollback"."""
    import inspector.store.database as database

    path = tmp_path / "old.db"
    first_schema_database(path)
    real_connect = sqlite3.connect

    class InterruptAfterCommit(sqlite3.Connection):
        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:  # type: ignore[override]
            cursor = super().execute(sql, *args)
            if sql == "COMMIT":
                raise KeyboardInterrupt
            return cursor

    monkeypatch.setattr(database.sqlite3, "connect",
                        lambda *a, **k: real_connect(*a, **k, factory=InterruptAfterCommit))
    with pytest.raises(KeyboardInterrupt):
        RunStore.open(path)
    monkeypatch.undo()
    with RunStore.open(path) as store:  # the committed step stays; the rest follows on the next open
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def other_programs_database(path: Path, user_version: int) -> str:
    """A SQLite file another program made (a table of its own, its own ``user_version``, rollback
    journal); the hash of its bytes."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
    conn.execute("INSERT INTO contacts VALUES ('Ann', '0301234')")
    conn.execute(f"PRAGMA user_version = {user_version}")
    conn.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("user_version", [0, 3, SCHEMA_VERSION + 5])
def test_another_programs_sqlite_file_is_refused_untouched(tmp_path: Path, user_version: int) -> None:
    """Version 0 got our tables written into it and was switched to WAL; another version failed
    half-way ("no such table: servers") after the switch, or was called a newer Run Inspector's."""
    path = tmp_path / "contacts.db"
    before = other_programs_database(path, user_version)
    with pytest.raises(StoreError, match="SQLite database of another program") as caught:
        RunStore.open(path)
    assert str(path) in str(caught.value) and "contacts" in str(caught.value)
    assert not isinstance(caught.value, NewerSchemaError)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
    assert not Path(f"{path}-wal").exists()


def test_an_empty_file_still_becomes_a_new_database(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    path.touch()
    with RunStore.open(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_folder_where_the_database_should_be_says_what_to_do(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    path.mkdir()
    with pytest.raises(StoreError, match="is a folder, not a file. Choose another file with --db"):
        RunStore.open(path)
    assert list(path.iterdir()) == []
