"""``servers --json --with-secrets`` then ``servers import`` on another machine (another database, an empty keyring)
gives back every server as it was: each header's value (kept in the keyring or not, marked secret or secret by its
name), the address's secret query, every variable of a command (its secret ones' values from the keyring), budget,
era and roots; nothing is asked for. It printed only the headers' names and no query: the import asked for every
header, and without a terminal kept none of them, and dropped the query without a word, so the server refused
every call. A secret stays a secret (in the keyring, not in the database). And ``servers --json`` (credentials
left out; a plain variable whose value holds a password by its name only: it was printed whole) imported back where
the servers are configured no longer takes their secrets away.

Real parts: two MCP servers on 127.0.0.1 behind a key (in the query, in a header), the real command line, real
SQLite files, the file keyring."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path

from tests.support.cli_process import cli_here
from tests.support.file_keyring import FileKeyring
from tests.support.query_key_server import header_key_server, query_key_server

QUERY = "api_key=q-7Yh2Lp9Z"
KEY = "k-3Rt8Wq1M"
MARKED = "team-5Nc4Vb6X"  # a header marked secret, not named like one
ENV_KEY = "e-9Pk2Jd5S"
COMMAND = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
DATABASE = "postgres://app:d-4Fg7Hj2K@db.example/app"  # a plain variable whose value holds a password
SECRETS = ("q-7Yh2Lp9Z", KEY, MARKED, ENV_KEY, "d-4Fg7Hj2K")


def _set(db: Path, *args: str) -> None:
    done = cli_here("--db", str(db), "servers", "set", *args)
    assert done.returncode == 0, done.stderr


def _configure(db: Path, query_url: str, key_url: str) -> None:
    _set(db, f"{query_url}?{QUERY}", "--name", "queried", "--header", "X-Region: eu", "--budget", "17",
         "--era", "handshake")
    _set(db, key_url, "--name", "keyed", "--header", f"X-Api-Key: {KEY}", "--secret-header", f"X-Team: {MARKED}",
         "--header", "X-Tenant: acme",
         "--root", str(db.parent))
    _set(db, f"{key_url}/unnamed")  # no name: listed by its address, and kept so
    _set(db, "tool", "--command", COMMAND, "--env", "MODE=fast", "--env", f"API_KEY={ENV_KEY}", "--env",
         f"DATABASE_URL={DATABASE}",
         "--secret-env", "TEAM_PASS=hush-8Ls3", "--budget", "9")


def _listed(db: Path, *whole: str) -> dict[str, dict[str, object]]:
    done = cli_here("--db", str(db), "servers", "--json", *whole)
    assert done.returncode == 0, done.stderr
    if not whole:
        assert [secret for secret in SECRETS if secret in done.stdout] == [], done.stdout
    return {server["name"] or f"unnamed {server['url']}": server for server in json.loads(done.stdout)["servers"]}


def _pinged(db: Path, name: str) -> None:
    done = cli_here("--db", str(db), "ping", name)
    assert done.returncode == 0, done.stdout + done.stderr


def _settings(server: dict[str, object]) -> dict[str, object]:
    return {key: server.get(key) for key in ("url", "transport", "era", "budget_s", "headers", "secret_query", "query",
                                             "roots", "command")}


def test_with_secrets_then_import_on_another_machine_gives_every_server_back(
        tmp_path: Path, file_keyring: FileKeyring) -> None:
    db, elsewhere, whole = tmp_path / "runs.db", tmp_path / "elsewhere.db", tmp_path / "whole.json"
    with query_key_server(QUERY) as (query_url, _gate), header_key_server(KEY) as (key_url, _key_gate):
        _configure(db, query_url, key_url)
        before = _listed(db, "--with-secrets")
        listed = cli_here("--db", str(db), "servers", "--json", "--with-secrets")
        assert listed.returncode == 0, listed.stderr
        whole.write_text(listed.stdout, encoding="utf-8")
        said = listed.stderr.partition("holds the credentials of ")[2].partition(" (--with-secrets)")[0]
        assert sorted(said.split(", ")) == ["keyed", "queried", "tool"], listed.stderr
        assert [secret for secret in SECRETS if secret in listed.stderr] == []
        file_keyring.path.unlink()  # another machine: its keyring holds none of them
        added = cli_here("--db", str(elsewhere), "servers", "import", str(whole), "--yes", "--json")
        assert added.returncode == 0, added.stderr
        document = json.loads(added.stdout)
        assert document["skipped"] == [] and document["added"] is True
        assert {server["name"]: server["asks_for"] for server in document["servers"]} == {
            "keyed": [], "queried": [], "tool": [], f"{key_url}/unnamed": []}
        assert added.stderr == ""  # nothing left to ask for
        after = _listed(elsewhere, "--with-secrets")
        assert {name: _settings(server) for name, server in after.items()} == {
            name: _settings(server) for name, server in before.items()}
        _pinged(elsewhere, "queried")
        _pinged(elsewhere, "keyed")
    entries = file_keyring.entries()
    assert entries[f"{key_url} X-Team"] == MARKED and entries[f"{query_url} ?query"] == QUERY
    assert {value for account, value in entries.items() if account.startswith("stdio:")} == {ENV_KEY, "hush-8Ls3"}
    stored = elsewhere.read_bytes().decode("latin-1")
    assert [secret for secret in (*SECRETS[:4], "hush-8Ls3") if secret in stored] == []  # a plain value stays plain


def test_the_listing_without_secrets_imported_where_they_are_configured_keeps_them(
        tmp_path: Path, file_keyring: FileKeyring) -> None:
    db, masked = tmp_path / "runs.db", tmp_path / "masked.json"
    with query_key_server(QUERY) as (query_url, _gate), header_key_server(KEY) as (key_url, _key_gate):
        _configure(db, query_url, key_url)
        before = _listed(db, "--with-secrets")
        _listed(db)  # holds none of them
        masked.write_text(cli_here("--db", str(db), "servers", "--json").stdout, encoding="utf-8")
        kept = file_keyring.entries()
        done = cli_here("--db", str(db), "servers", "import", str(masked), "--yes")
        assert done.returncode == 0, done.stderr
        assert file_keyring.entries() == kept
        assert {name: _settings(server) for name, server in _listed(db, "--with-secrets").items()} == {
            name: _settings(server) for name, server in before.items()}
        _pinged(db, "queried")
        _pinged(db, "keyed")


def test_with_secrets_lists_nothing_when_the_keyring_does_not_give_them(tmp_path: Path,
                                                                        file_keyring: FileKeyring) -> None:
    import keyring

    from tests.support.file_keyring import TroubledKeyring

    db = tmp_path / "runs.db"
    _set(db, "http://127.0.0.1:9/mcp", "--name", "keyed", "--header", f"X-Api-Key: {KEY}")
    keyring.set_keyring(TroubledKeyring(file_keyring.path, wait_s=0, refuse={"get": "KeyringLocked"}))
    done = cli_here("--db", str(db), "servers", "--json", "--with-secrets")
    assert done.returncode == 1, done.stdout  # a backup without its secrets: none at all, the error as --json says it
    assert json.loads(done.stdout) == {"error": {"kind": "failed", "message": (
        "The system keyring did not give the secret X-Api-Key of keyed (KeyringLocked: the test keyring refuses to "
        "get (KeyringLocked)), so the configuration was not listed (--with-secrets lists it whole). Unlock the "
        "keyring and list it again.")}}
