"""Schema 15: the runs and health a command server's key held its credentials in (``stdio:cmd --token T``, as
`call --stdio` stored them before its key left them out) are put under the key it has now (``stdio:cmd --token …``).
They stayed under T: `runs list`, the window's Server column, `servers` and a step's sentence naming the server
showed T, the same command run since was another server. A configured server's key stays in this step (schema
18 names it anew, its keyring entries with it). Real SQLite files: a database brought to schema 14, then rows
as the older code wrote them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from inspector.store import RunStore

OLD, NEW = "stdio:srv --token T0k-upgrade-secret", "stdio:srv --token …"
CONFIGURED = "stdio:cfg --api-key K3y-configured-secret"
KEYED_NOW = "stdio:cfg --api-key …"


def _older(path: Path) -> None:
    """A database at schema 14 holding what the older code wrote."""
    with RunStore.open(path):
        pass
    with sqlite3.connect(path) as conn:
        for number, server in enumerate([OLD, OLD, NEW, CONFIGURED, "http://h/mcp"]):
            conn.execute("INSERT INTO runs (uid, title, source, server, status, started_at) VALUES (?, 't', 'live', ?,"
                         " 'ok', '2026-12-06T10:00:00.000000Z')", (f"u{number}", server))
        said = f"The server {OLD.removeprefix('stdio:')} stopped answering during server/discover."
        conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, payload)"
                     " VALUES (1, 1, 'tool', 0, 1, ?)",
                     (json.dumps({"kind": "tool", "toolResult": said}, separators=(",", ":")),))
        conn.execute("INSERT INTO server_health (url, last_contact_at, last_latency_ms, ok_count, failed_count,"
                     " cancelled_count, tool_error_count) VALUES (?, '2026-12-06T10:00:02.000000Z', 5, 2, 1, 0, 1)",
                     (OLD,))
        conn.execute("INSERT INTO server_health (url, last_contact_at, last_latency_ms, ok_count, failed_count,"
                     " cancelled_count, tool_error_count) VALUES (?, '2026-12-06T10:00:01.000000Z', 9, 1, 0, 1, 0)",
                     (NEW,))
        conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, 'cfg', 'stdio', ?)",
                     (CONFIGURED, '{"program": "cfg", "args": ["--api-key", "K3y-configured-secret"]}'))
        conn.execute("INSERT INTO server_health (url, ok_count) VALUES (?, 3)", (CONFIGURED,))
        conn.execute("PRAGMA user_version = 14")


def test_a_command_servers_runs_and_health_are_named_without_its_credentials(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    _older(path)
    with RunStore.open(path) as store:
        conn = store.db.conn
        servers = [row[0] for row in conn.execute("SELECT server FROM runs ORDER BY id")]
        [payload] = [row[0] for row in conn.execute("SELECT payload FROM steps")]
        health = {row[0]: row[1:] for row in conn.execute(
            "SELECT url, ok_count, failed_count, cancelled_count, tool_error_count, last_contact_at, last_latency_ms"
            " FROM server_health")}
    # The configured server's key stays at schema 15; schema 18 names it anew (test_configured_key_upgrade.py).
    assert servers == [NEW, NEW, NEW, KEYED_NOW, "http://h/mcp"]
    assert json.loads(payload)["toolResult"] == "The server srv --token … stopped answering during server/discover."
    # One server's health: the counts added, the later contact's time and latency.
    assert health == {NEW: (3, 1, 1, 1, "2026-12-06T10:00:02.000000Z", 5.0), KEYED_NOW: (3, 0, 0, 0, None, None)}
    assert b"T0k-upgrade-secret" not in path.read_bytes()


def test_opened_again_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    _older(path)
    with RunStore.open(path):
        pass
    with sqlite3.connect(path) as conn:
        before = conn.execute("SELECT server FROM runs ORDER BY id").fetchall()
    with RunStore.open(path):
        pass
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT server FROM runs ORDER BY id").fetchall() == before


def test_the_rows_it_names_anew_leave_no_copy_of_the_token_where_sqlite_keeps_deleted_bytes(tmp_path: Path) -> None:
    """This machine's SQLite is built to overwrite what it deletes (``secure_delete`` on by default), so the file
    read above has no copy of T whether the step turns it on or not; elsewhere (Python's own builds for macOS and
    Windows) it is off, and a row's older bytes stay in the page. Here on a connection where it is off."""
    from inspector.store.command_key_upgrade import name_command_servers_anew

    path = tmp_path / "older.db"
    _older(path)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA secure_delete = OFF")
        conn.execute("BEGIN IMMEDIATE")
        name_command_servers_anew(conn)
        conn.execute("COMMIT")
        assert conn.execute("PRAGMA secure_delete").fetchone()[0] == 0  # the connection's own setting again
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        assert conn.execute("SELECT DISTINCT server FROM runs ORDER BY server").fetchall() == [
            ("http://h/mcp",), (CONFIGURED,), (NEW,)]
    finally:
        conn.close()
    assert b"T0k-upgrade-secret" not in path.read_bytes()


def test_a_credential_inside_a_word_of_several_is_left_out_of_the_older_runs_key_too(tmp_path: Path) -> None:
    """A connection string (one word) kept its password in the key after the upgrade, as in a new run's."""
    path = tmp_path / "older.db"
    with RunStore.open(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO runs (uid, title, source, server, status, started_at) VALUES ('u', 't', 'live', ?,"
                     " 'ok', '2026-12-06T10:00:00.000000Z')", ("stdio:pg 'host=db password=Pw-in-a-word'",))
        conn.execute("PRAGMA user_version = 14")
    conn.close()
    with RunStore.open(path) as store:
        assert store.db.conn.execute("SELECT server FROM runs").fetchall() == [("stdio:pg 'host=db password='…",)]
    assert b"Pw-in-a-word" not in path.read_bytes()
