"""Schema 18 stopped half-way: the keyring holds the entries the database's keys name, at whichever version it is.

The step moved a configured command server's keyring entries (its secret variables' values) to its new key inside
the upgrade's transaction, the old one deleted at once: a Ctrl-C or SIGTERM landing after a move (a Secret Service
asking to be unlocked for the next one, say), or a COMMIT that failed, rolled the database back to schema 17 with the
entry gone from the key it still names. The older Run Inspector then opened it (as the upgrade's refusal says it
does) and asked for the value as one never kept; opened again by this one, the step found nothing to move. Real
SQLite files at schema 17, the real command line in a process of its own, the file keyring of the suite."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.integration.test_cli_late_stop import stopped_at
from tests.support.file_keyring import BACKEND_NAME, FILE_ENV, FileKeyring
from tests.unit.store.test_configured_key_upgrade import HOME, NEW, WORK, _at_schema_17, _command

KEPT = {f"{WORK} env:API_KEY": "work-value", f"{HOME} env:HOME_TOKEN": "home-value"}
MOVED = {f"{NEW} env:API_KEY": "work-value", f"{NEW} '#2' env:HOME_TOKEN": "home-value"}


def _older_with_secrets(path: Path, file_keyring: FileKeyring) -> None:
    """``work`` and ``home`` at schema 17, each with a secret variable kept in the keyring under its old key."""
    _at_schema_17(path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE servers SET command = ? WHERE name = 'home'", (_command(
            "sh", "-c", "srv --token Tok-b-home-secret", env=[{"name": "HOME_TOKEN", "secret": True}]),))
    conn.close()
    for entry, value in KEPT.items():
        file_keyring.set_password("run-inspector", entry, value)


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    conn.close()
    return version


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("at", ["inspector.store.keyring_entries:KeyringEntries.delete",
                                "inspector.store.keyring_entries:KeyringEntries.write"])
def test_an_upgrade_stopped_as_a_secret_moves_leaves_each_entry_where_the_database_names_it(
        tmp_path: Path, file_keyring: FileKeyring, stop: str, at: str) -> None:
    path = tmp_path / "older.db"
    _older_with_secrets(path, file_keyring)
    done = stopped_at(stop, at, "runs", "list", "--json", "--db", str(path), after=True,
                      env={FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": BACKEND_NAME})
    assert "Traceback" not in done.stderr, done.stderr
    entries = file_keyring.entries()
    rolled_back = _version(path) == 17
    if rolled_back:  # the older Run Inspector finds its secrets where it keeps them
        assert {entry: entries.get(entry) for entry in KEPT} == KEPT, (done.returncode, done.stderr, entries)
    else:  # committed before the stop (as the old entries were removed): they are under the new keys
        assert {entry: entries.get(entry) for entry in MOVED} == MOVED, (done.returncode, done.stderr, entries)
    # Opened again, the upgrade is done whole: each value under its new key, none left under a key holding a token
    # (a stop among the removals after the COMMIT leaves the rest of them).
    with RunStore.open(path) as store:
        servers = dict(store.db.conn.execute("SELECT name, url FROM servers"))
    assert (servers["work"], servers["home"]) == (NEW, f"{NEW} '#2'")
    entries = file_keyring.entries()
    assert {entry: entries.get(entry) for entry in MOVED} == MOVED
    assert set(entries) == set(MOVED) or not rolled_back, entries


def test_a_finished_upgrade_moves_every_entry(tmp_path: Path, file_keyring: FileKeyring) -> None:
    path = tmp_path / "older.db"
    _older_with_secrets(path, file_keyring)
    from tests.support.cli_process import cli

    done = cli("runs", "list", "--json", "--db", str(path))
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["runs"]) == 4 and _version(path) >= 18
    assert file_keyring.entries() == MOVED
