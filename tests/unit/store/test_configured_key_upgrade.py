"""Schema 18: a configured command server keyed with its credentials (``stdio:sh -c 'srv --token T'``, as `servers
set` keyed it before a credential inside a word of several was left out of the key; schema 15 left a configured
server's key as it was) is put under the key a save gives it now (``stdio:sh -c 'srv --token '…``), its runs, health
and keyring entries with it. It kept T until saved again: in its key, `runs show`, the window's tooltip and each
run's row. Real SQLite files made at schema 17 (schema 18 adds no table or column: a database of this version with
its version set back to 17 is one), rows as the older code wrote them; a real keyring backend (a file)."""

from __future__ import annotations

import gzip
import json
import sqlite3
from pathlib import Path

from inspector.store import RunStore, ServerRegistry
from inspector.store.secrets import system_secret_keeper
from tests.support.file_keyring import FileKeyring

WORK, HOME = "stdio:sh -c 'srv --token Tok-a-work-secret'", "stdio:sh -c 'srv --token Tok-b-home-secret'"
NEW = "stdio:sh -c 'srv --token '…"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stores"
PLAIN_OLD = "stdio:cfg --api-key K3y-plain-secret"  # keyed before any credential was left out (schema 15 kept it)


def _command(*args: str, env: list[dict[str, object]] | None = None) -> str:
    program, *rest = args
    return json.dumps({"program": program, "args": rest, "cwd": None, "env": env or []})


def _at_schema_17(path: Path) -> None:
    """What the older code left: two servers of one command but for the token, each with a run and its health; a
    secret variable of ``work`` in the keyring under its key; runs of `call --stdio` since under the new key."""
    with RunStore.open(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, 'work', 'stdio', ?)",
                     (WORK, _command("sh", "-c", "srv --token Tok-a-work-secret",
                                     env=[{"name": "API_KEY", "secret": True}])))
        conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, 'home', 'stdio', ?)",
                     (HOME, _command("sh", "-c", "srv --token Tok-b-home-secret")))
        conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, 'cfg', 'stdio', ?)",
                     (PLAIN_OLD, _command("cfg", "--api-key", "K3y-plain-secret")))
        for number, server in enumerate([WORK, HOME, NEW, PLAIN_OLD]):
            conn.execute("INSERT INTO runs (uid, title, source, server, status, started_at) VALUES (?, 't', 'live', ?,"
                         " 'ok', '2026-12-06T10:00:00.000000Z')", (f"u{number}", server))
        said = "The server sh -c 'srv --token Tok-a-work-secret' stopped answering during server/discover."
        conn.execute("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, payload)"
                     " VALUES (1, 1, 'tool', 0, 1, ?)",
                     (json.dumps({"kind": "tool", "toolResult": said}, separators=(",", ":")),))
        for url, ok, contact in ((WORK, 2, "2026-12-06T10:00:02.000000Z"), (HOME, 1, "2026-12-06T10:00:03.000000Z"),
                                 (NEW, 4, "2026-12-06T10:00:01.000000Z")):
            conn.execute("INSERT INTO server_health (url, last_contact_at, last_latency_ms, ok_count) VALUES"
                         " (?, ?, 5, ?)", (url, contact, ok))
        conn.execute("PRAGMA user_version = 17")
    conn.close()


def test_a_configured_servers_key_runs_health_and_keyring_entries_are_named_without_its_credentials(
        tmp_path: Path, file_keyring: FileKeyring) -> None:
    path = tmp_path / "older.db"
    _at_schema_17(path)
    system_secret_keeper().save(WORK, "env:API_KEY", "variable-value-kept")
    with RunStore.open(path) as store:
        conn = store.db.conn
        servers = dict(conn.execute("SELECT name, url FROM servers"))
        runs = [row[0] for row in conn.execute("SELECT server FROM runs ORDER BY id")]
        [payload] = [row[0] for row in conn.execute("SELECT payload FROM steps")]
        health = dict(conn.execute("SELECT url, ok_count FROM server_health"))
        registry = ServerRegistry(store.db, system_secret_keeper())
        work = registry.command_for(NEW)
        home = registry.settings(f"{NEW} '#2'")
    # The first by its key takes the key; the other, one server by design since, keeps its runs under its own.
    assert servers == {"work": NEW, "home": f"{NEW} '#2'", "cfg": "stdio:cfg --api-key …"}
    assert runs == [NEW, f"{NEW} '#2'", NEW, "stdio:cfg --api-key …"]
    assert json.loads(payload)["toolResult"] == ("The server sh -c 'srv --token '… stopped answering during"
                                                 " server/discover.")
    assert health == {NEW: 6, f"{NEW} '#2'": 1}  # work's added to the health of `call --stdio` since
    # The configuration keeps the words as given, and the variable's value moved with the key.
    assert work is not None and work.args == ("-c", "srv --token Tok-a-work-secret")
    assert [(variable.name, variable.value) for variable in work.env] == [("API_KEY", "variable-value-kept")]
    assert home is not None and home.command is not None and home.command.args[-1] == "srv --token Tok-b-home-secret"
    assert file_keyring.entries() == {f"{NEW} env:API_KEY": "variable-value-kept"}
    data = path.read_bytes()
    assert data.count(b"Tok-a-work-secret") == data.count(b"Tok-b-home-secret") == data.count(b"K3y-plain-secret") == 1


def test_opened_again_nothing_changes_and_a_server_keyed_without_credentials_is_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    _at_schema_17(path)
    with RunStore.open(path) as store:
        before = store.db.conn.execute("SELECT url, name FROM servers ORDER BY name").fetchall()
    with RunStore.open(path) as store:
        assert store.db.conn.execute("SELECT url, name FROM servers ORDER BY name").fetchall() == before
        # A server saved since (its key without T) is no other's second: the older one keyed with T beside it is.
        store.db.conn.execute("PRAGMA user_version = 17")
        store.db.conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, 'old', 'stdio', ?)",
                              ("stdio:cfg --api-key Other-K3y", _command("cfg", "--api-key", "Other-K3y")))
    with RunStore.open(path) as store:
        servers = dict(store.db.conn.execute("SELECT name, url FROM servers"))
    assert servers["cfg"] == "stdio:cfg --api-key …" and servers["old"] == "stdio:cfg --api-key … '#2'"


def test_without_a_usable_keyring_the_key_still_leaves_its_credentials_out(tmp_path: Path) -> None:
    """No keyring (the test's default keeps nothing): nothing to move; the variable's value is asked for where needed,
    as one never kept."""
    path = tmp_path / "older.db"
    _at_schema_17(path)
    with RunStore.open(path) as store:
        assert store.db.conn.execute("SELECT url FROM servers WHERE name = 'work'").fetchone() == (NEW,)
        assert ServerRegistry(store.db).command_for(NEW) is not None


def test_a_database_the_older_code_made_at_schema_17(tmp_path: Path) -> None:
    """tests/fixtures/stores/schema17_command_keys.db.gz (make_older_databases.py): ``work`` and ``home`` configured
    with one command behind ``sh -c`` but for the token, and that command with a third token called unconfigured (its
    run and health under the key holding it too: schema 15 had run before its rule left such a credential out)."""
    from tests.fixtures.stores.make_older_databases import KEY_TOKENS

    path = tmp_path / "schema17.db"
    path.write_bytes(gzip.decompress((FIXTURES / "schema17_command_keys.db.gz").read_bytes()))
    with RunStore.open(path) as store:
        conn = store.db.conn
        assert conn.execute("PRAGMA user_version").fetchone()[0] >= 18
        servers = dict(conn.execute("SELECT name, url FROM servers"))
        runs = [row[0] for row in conn.execute("SELECT server FROM runs ORDER BY id")]
        health = dict(conn.execute("SELECT url, ok_count FROM server_health"))
        commands = [json.loads(row[0])["serverCommand"] for row in conn.execute("SELECT payload FROM steps")]
        [work] = ServerRegistry(store.db).command_for(servers["work"]).args[-1:]  # type: ignore[union-attr]
    key = servers["work"]
    assert key.startswith("stdio:sh -c 'exec ") and key.endswith(" --token '…")
    assert servers["home"] == f"{key} '#2'"
    assert runs == [key, f"{key} '#2'", key] and health == {key: 2, f"{key} '#2'": 1}
    assert commands == [key.removeprefix("stdio:")] * 3  # what each step said of its server
    assert work.endswith(f"--token {KEY_TOKENS[0]}")  # it starts as configured
    data = path.read_bytes()
    assert [data.count(token.encode()) for token in KEY_TOKENS] == [1, 1, 0]  # its command's words alone


def test_two_programs_behind_a_shell_each_with_its_key_stay_two_servers(tmp_path: Path) -> None:
    """``sh -c 'API_KEY=K exec github-mcp'`` and ``sh -c 'API_KEY=L exec slack-mcp'``: a key hiding the rest of the
    script with the credential named them both ``stdio:sh -c API_KEY=…`` (slack-mcp under ``'#2'``, one server by
    design for a save: its next save refused); each keeps its program in its key, its runs and health its own."""
    path = tmp_path / "older.db"
    scripts = {"gh": "API_KEY=Gh-k3y-secret exec github-mcp", "sl": "API_KEY=Sl-k3y-secret exec slack-mcp"}
    with RunStore.open(path):
        pass
    with sqlite3.connect(path) as conn:
        for number, (name, script) in enumerate(scripts.items()):
            key = f"stdio:sh -c '{script}'"
            conn.execute("INSERT INTO servers (url, name, transport, command) VALUES (?, ?, 'stdio', ?)",
                         (key, name, _command("sh", "-c", script)))
            conn.execute("INSERT INTO runs (uid, title, source, server, status, started_at) VALUES (?, 't', 'live', ?,"
                         " 'ok', '2026-12-06T10:00:00.000000Z')", (name, key))
            conn.execute("INSERT INTO server_health (url, ok_count) VALUES (?, ?)", (key, number + 1))
        conn.execute("PRAGMA user_version = 17")
    conn.close()
    with RunStore.open(path) as store:
        conn = store.db.conn
        servers = dict(conn.execute("SELECT name, url FROM servers"))
        runs = dict(conn.execute("SELECT uid, server FROM runs"))
        health = dict(conn.execute("SELECT url, ok_count FROM server_health"))
        registry = ServerRegistry(store.db)
        commands = {name: registry.command_for(url) for name, url in servers.items()}
    github, slack = "stdio:sh -c 'API_KEY=… exec github-mcp'", "stdio:sh -c 'API_KEY=… exec slack-mcp'"
    assert servers == runs == {"gh": github, "sl": slack}
    assert health == {github: 1, slack: 2}
    assert {name: command.args if command else None for name, command in commands.items()} == {
        name: ("-c", script) for name, script in scripts.items()}  # each starts as configured
    data = path.read_bytes()
    assert data.count(b"Gh-k3y-secret") == data.count(b"Sl-k3y-secret") == 1  # its command's words alone
