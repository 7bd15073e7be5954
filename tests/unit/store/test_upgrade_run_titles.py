"""Schema 18 names the runs of a command server keyed with its credentials anew in their titles too. `tools NAME`,
`ping NAME` and the window's tool list and ping title their run ``tools/list KEY`` and ``ping KEY``: a server keyed
``stdio:sh -c 'srv --token T'`` (configured so before the key left T out; or called so, unconfigured, between
schema 15 and that rule; or called with ``--token T`` before schema 15, which moved the run and left its title)
left T in each such title after the upgrade: in the Runs list's Title column, its search, `runs list` and exports.
Real SQLite files at schema 17 (see test_configured_key_upgrade.py), titles as the older code wrote them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inspector.store import RunStore
from tests.unit.store.test_configured_key_upgrade import HOME, NEW, PLAIN_OLD, WORK, _at_schema_17

CALLED = "stdio:sh -c 'srv --token Tok-c-called-secret'"  # `call --stdio` between schema 15 and the rule of now
MOVED = "stdio:srv --token …"  # schema 15 moved its runs here and left their titles holding the token
TOKENS = (b"Tok-a-work-secret", b"Tok-b-home-secret", b"Tok-c-called-secret", b"K3y-plain-secret", b"Tok-d-moved")


def _titled(path: Path) -> None:
    with sqlite3.connect(path) as conn:
        for number, (title, server) in enumerate([
                (f"tools/list {WORK}", WORK), (f"ping {HOME}", HOME), (f"tools/list {CALLED}", CALLED),
                (f"ping {PLAIN_OLD}", PLAIN_OLD), ("tools/list stdio:srv --token Tok-d-moved", MOVED),
                ("tools/call echo", WORK), (f"tools/list {NEW}", NEW)]):
            conn.execute("INSERT INTO runs (uid, title, source, server, status, started_at) VALUES (?, ?, 'live', ?,"
                         " 'ok', '2026-12-06T11:00:00.000000Z')", (f"t{number}", title, server))
        conn.execute("PRAGMA user_version = 17")
    conn.close()


def test_the_titles_of_the_runs_name_each_server_without_its_credentials(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    _at_schema_17(path)
    _titled(path)
    with RunStore.open(path) as store:
        titles = [row[0] for row in store.db.conn.execute("SELECT title FROM runs WHERE uid LIKE 't%' ORDER BY id")]
    assert titles == [f"tools/list {NEW}", f"ping {NEW}", f"tools/list {NEW}", "ping stdio:cfg --api-key …",
                      "tools/list stdio:srv --token …", "tools/call echo", f"tools/list {NEW}"]
    data = path.read_bytes()
    assert [data.count(token) for token in TOKENS] == [1, 1, 0, 1, 0]  # the configured commands' words alone
