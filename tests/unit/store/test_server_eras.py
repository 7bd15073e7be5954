"""The era per server in the store (schema 6): the configured one, and what ``auto`` found, kept across
restarts by :class:`StoredEras`, also for a server never configured; a locked or read-only database
never makes an operation wait or fail, and calls from several threads are safe."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from inspector.mcp.eras import EraMemory
from inspector.store import SCHEMA_VERSION, RunStore, ServerRegistry, StoredEras, open_database, open_database_read_only
from inspector.store.schema import MIGRATIONS

URL = "http://127.0.0.1:9/mcp"


def fifth_schema_database(path: Path) -> None:
    """A database as schema 5 wrote it: a configured server and its health."""
    conn = sqlite3.connect(path, isolation_level=None)
    for migration in MIGRATIONS[:5]:
        for statement in migration:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 5")
    conn.execute("INSERT INTO servers (url, name, transport) VALUES (?, 'old', 'sse')", (URL,))
    conn.execute("INSERT INTO server_health (url, ok_count, failed_count) VALUES (?, 4, 1)", (URL,))
    conn.close()


def test_a_fifth_schema_database_gains_eras_and_keeps_its_servers(tmp_path: Path) -> None:
    path = tmp_path / "v5.db"
    fifth_schema_database(path)
    with RunStore.open(path) as store:
        assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION >= 6
        registry = ServerRegistry(store.db)
        (record,) = registry.all()
        assert (record.name, record.transport, record.ok_count, record.failed_count) == ("old", "sse", 4, 1)
        assert (record.era, record.found_era, record.found_era_at) == ("auto", None, None)
        assert registry.settings(URL).era == "auto"
        # The columns refuse what is no era.
        with pytest.raises(sqlite3.IntegrityError):
            store.db.execute("UPDATE servers SET era = 'modern'")
        with pytest.raises(sqlite3.IntegrityError):
            store.db.execute("UPDATE server_health SET found_era = 'auto'")


def test_a_fifth_schema_database_read_without_upgrading_says_auto(tmp_path: Path) -> None:
    """``--no-store`` reads an old database as it is: its servers are spoken to in ``auto``."""
    path = tmp_path / "v5.db"
    fifth_schema_database(path)
    db = open_database_read_only(path)
    try:
        settings = ServerRegistry(db).settings(URL)
    finally:
        db.conn.close()
    assert settings is not None and (settings.transport, settings.era) == ("sse", "auto")


def test_the_configured_era_is_kept_until_changed(tmp_path: Path) -> None:
    registry = ServerRegistry(open_database(tmp_path / "runs.db"))
    registry.save_server(URL, name="srv")
    assert registry.settings(URL).era == "auto"
    registry.save_server(URL, era="stateless")
    registry.save_server(URL, budget_s=5)  # an update that does not name the era keeps it
    assert registry.settings(URL).era == "stateless"
    assert registry.get(URL).to_dict()["era"] == "stateless"
    registry.save_server(URL, name="srv", replace=True)  # an edit in the window says everything
    assert registry.settings(URL).era == "auto"
    registry.save_server(URL, name="srv", replace=True, era="handshake")
    assert registry.settings(URL).era == "handshake"
    with pytest.raises(ValueError, match="era must be one of"):
        registry.save_server(URL, era="modern")


def test_what_auto_found_survives_a_restart_and_is_listed(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        ServerRegistry(store.db).save_server(URL, name="srv")
        eras: EraMemory = StoredEras(store)
        assert eras.recall(URL) is None
        eras.remember(URL, "stateless")
        # An address never configured, and a command given ad hoc: remembered as their health is.
        eras.remember("http://elsewhere:8/mcp", "handshake")
        eras.remember("stdio:python -m server", "stateless")
    with RunStore.open(path) as store:
        eras = StoredEras(store)
        assert eras.recall(URL) == "stateless"
        assert eras.recall("http://elsewhere:8/mcp") == "handshake"
        assert eras.recall("stdio:python -m server") == "stateless"
        records = {record.url: record for record in ServerRegistry(store.db).all()}
        assert records[URL].found_era == "stateless" and records[URL].found_era_at is not None
        assert records["http://elsewhere:8/mcp"].found_era == "handshake"
        assert records["http://elsewhere:8/mcp"].ok_count == 0  # a finding is no operation
        listed = records[URL].to_dict()
        assert (listed["era"], listed["found_era"]) == ("auto", "stateless") and listed["found_era_at"].endswith("Z")
        # The server changed its mind: forgotten, and probed again next time.
        eras.remember(URL, None)
        assert eras.recall(URL) is None
    with RunStore.open(path) as store:
        assert StoredEras(store).recall(URL) is None
        assert ServerRegistry(store.db).get(URL).found_era_at is None


def test_an_era_that_is_no_finding_is_refused(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        with pytest.raises(ValueError):
            StoredEras(store).remember(URL, "auto")


def test_a_locked_database_neither_blocks_nor_loses_the_finding(tmp_path: Path) -> None:
    """Another program holds the write lock: remember returns at once, recall still knows, and the
    finding is written with the next one once the lock is gone."""
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        eras = StoredEras(store)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        began = time.monotonic()
        eras.remember(URL, "stateless")
        waited = time.monotonic() - began
        assert waited < 1.0, waited  # the store's own wait is 10 s
        assert eras.recall(URL) == "stateless"
        assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] == 10_000  # restored
        other.execute("ROLLBACK")
        other.close()
        eras.remember("http://other:1/mcp", "handshake")
    with RunStore.open(path) as store:
        eras = StoredEras(store)
        assert (eras.recall(URL), eras.recall("http://other:1/mcp")) == ("stateless", "handshake")


def test_a_read_only_database_keeps_findings_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    RunStore.open(path).close()
    db = open_database_read_only(path)
    try:
        eras = StoredEras(db)
        eras.remember(URL, "handshake")  # cannot be written: no error, kept for this session
        assert eras.recall(URL) == "handshake"
    finally:
        db.conn.close()


def test_calls_from_several_threads_are_safe(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    with RunStore.open(path) as store:
        eras = StoredEras(store)
        problems: list[BaseException] = []

        def work(number: int) -> None:
            try:
                for round_ in range(40):
                    key = f"http://server-{number}:{round_ % 4 + 1}/mcp"
                    era = "stateless" if round_ % 2 else "handshake"
                    eras.remember(key, era)
                    assert eras.recall(key) == era
            except BaseException as exc:  # noqa: BLE001 - reported below
                problems.append(exc)

        threads = [threading.Thread(target=work, args=(number,)) for number in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert not problems, problems
    with RunStore.open(path) as store:
        eras = StoredEras(store)
        assert all(eras.recall(f"http://server-{number}:{port}/mcp") == ("stateless" if port % 2 == 0 else
                                                                          "handshake")
                   for number in range(4) for port in range(1, 5))
