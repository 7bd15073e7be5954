"""An address with a query (``http://host/mcp?api_key=…``, how hosted servers often take their key):
``servers set`` and ``servers import`` keep the query as a secret in the keyring and every later call,
tools listing and ping send it (it was dropped without a word, and every call failed with 401). The
query is never printed, stored in the database, exported or shown in a run, its wire or an error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here as cli
from tests.support.file_keyring import FileKeyring
from tests.support.query_key_server import QueryKeyGate, query_key_server

QUERY = "api_key=k3y-9f3aQ77x"
LEAKS = ("k3y-9f3a", "api_key=", "api_key%3D")
ECHO = ("echo", "--args", '{"text": "hi"}')


@pytest.fixture()
def served() -> Iterator[tuple[str, QueryKeyGate]]:
    with query_key_server(QUERY) as (url, gate):
        yield url, gate


def _no_leak(*texts: str) -> None:
    for text in texts:
        for leak in LEAKS:
            assert leak not in text, text


def _files_hold_no_leak(folder: Path, given: Path | None = None) -> None:
    """No file in ``folder`` (the database, its journal, exports) but the one ``given`` holds it."""
    for file in folder.rglob("*"):
        if file.is_file() and file != given:
            _no_leak(file.read_bytes().decode("latin-1"))


def test_servers_set_keeps_the_query_as_a_secret_that_every_later_call_sends(
        served, tmp_path: Path, file_keyring: FileKeyring) -> None:
    url, gate = served
    db = str(tmp_path / "runs.db")
    saved = cli("servers", "set", f"{url}?{QUERY}", "--header", "X-Tenant: acme", "--db", db)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.strip() == f"Saved {url}; its query is kept as a secret and sent with every call."
    assert file_keyring.entries()[f"{url} ?query"] == QUERY
    listed = json.loads(cli("servers", "--json", "--db", db).stdout)["servers"]
    assert listed[0]["url"] == url and listed[0]["secret_query"] is True
    assert listed[0]["headers"] == [{"name": "X-Tenant", "secret": False}]
    called = cli("call", url, *ECHO, "--json", "--wire", "full", "--db", db)
    assert called.returncode == 0, called.stdout + called.stderr
    assert json.loads(called.stdout)["outcome"] == "ok"
    done = [cli(command, url, "--db", db) for command in ("tools", "ping")]
    assert [d.returncode for d in done] == [0, 0], [d.stdout + d.stderr for d in done]
    assert gate.seen and set(gate.seen) == {QUERY}
    # An update that gives no query (a budget, headers) keeps the one kept.
    updated = cli("servers", "set", url, "--budget", "9", "--header", "X-Tenant: other", "--db", db)
    assert updated.returncode == 0 and updated.stdout.strip() == f"Saved {url}."
    as_json = cli("servers", "--json", "set", url, "--db", db)
    assert json.loads(as_json.stdout)["saved"]["secret_query"] is True
    assert cli("call", url, *ECHO, "--db", db).returncode == 0 and set(gate.seen) == {QUERY}
    shown = cli("runs", "show", "1", "--json", "--db", db)
    assert shown.returncode == 0 and f"{url}?[REDACTED]" in shown.stdout  # the wire's address: sent, not shown
    exported = cli("export", "--all", "-o", str(tmp_path / "runs.json"), "--db", db)
    otlp = cli("export", "--all", "--format", "otlp", "-o", str(tmp_path / "otlp.json"), "--db", db)
    assert exported.returncode == 0 and otlp.returncode == 0, exported.stderr + otlp.stderr
    _no_leak(saved.stdout, saved.stderr, called.stdout, called.stderr, *(d.stdout + d.stderr for d in done),
             updated.stdout, as_json.stdout, shown.stdout, exported.stdout)
    _files_hold_no_leak(tmp_path)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_confirmation_says_the_query_is_kept_and_never_its_value(tmp_path: Path, file_keyring: FileKeyring,
                                                                     lang: str) -> None:
    saved = cli("--lang", lang, "servers", "set", f"http://127.0.0.1:9/mcp?{QUERY}", "--db", str(tmp_path / "r.db"))
    assert saved.returncode == 0, saved.stderr
    said = saved.stdout.strip()
    assert said == ("Saved http://127.0.0.1:9/mcp; its query is kept as a secret and sent with every call."
                    if lang == "en" else
                    "http://127.0.0.1:9/mcp gespeichert; seine Abfrage wird als Geheimnis aufbewahrt und bei jedem "
                    "Aufruf mitgesendet.")
    both = cli("--lang", lang, "servers", "set", f"http://ann:pw-1234@127.0.0.1:9/other?{QUERY}",
               "--db", str(tmp_path / "r.db"))
    assert both.returncode == 0, both.stderr
    assert (both.stdout.strip() == "Saved http://127.0.0.1:9/other; its user name and password are kept as a secret "
            "Authorization header, and its query is kept as a secret and sent with every call." if lang == "en"
            else "Abfrage" in both.stdout)
    _no_leak(saved.stdout, saved.stderr, both.stdout, both.stderr)


def test_a_refused_kept_query_is_never_quoted_back_and_editing_replaces_it(
        served, tmp_path: Path, file_keyring: FileKeyring) -> None:
    url, gate = served
    db = str(tmp_path / "runs.db")
    wrong = "api_key=wr0ng-k3y-value"
    assert cli("servers", "set", f"{url}?{wrong}", "--db", db).returncode == 0
    refused = cli("call", url, *ECHO, "--db", db)
    refused_json = cli("call", url, *ECHO, "--json", "--wire", "full", "--db", db)
    assert refused.returncode == 1 and refused_json.returncode == 1
    assert wrong in gate.seen  # sent, and said back by the server: cut out of what is shown
    for text in (refused.stdout, refused.stderr, refused_json.stdout, refused_json.stderr):
        assert "wr0ng" not in text
    # Set again with the right query: it replaces the one kept.
    again = cli("servers", "set", f"{url}?{QUERY}", "--db", db)
    assert again.returncode == 0
    assert file_keyring.entries()[f"{url} ?query"] == QUERY
    gate.seen.clear()
    assert cli("call", url, *ECHO, "--db", db).returncode == 0 and set(gate.seen) == {QUERY}
    # Removing the server removes its secret query from the keyring.
    removed = cli("servers", "remove", url, "--db", db)
    assert removed.returncode == 0, removed.stderr
    assert f"{url} ?query" not in file_keyring.entries()
    for file in tmp_path.rglob("*"):
        if file.is_file():
            assert b"wr0ng" not in file.read_bytes()


def test_without_a_keyring_servers_set_says_the_query_was_not_kept(served, tmp_path: Path) -> None:
    url, gate = served
    db = str(tmp_path / "runs.db")
    saved = cli("servers", "set", f"{url}?{QUERY}", "--db", db)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.strip() == f"Saved {url}."
    assert ("no system keyring is available, so the query of the address was not kept. Give the address with it "
            "on each call (at a terminal you will be asked for it).") in " ".join(saved.stderr.split())
    # As said: the address with its query is sent it; without a terminal nothing is asked.
    called = cli("call", f"{url}?{QUERY}", *ECHO, "--db", db)
    assert called.returncode == 0, called.stdout + called.stderr
    bare = cli("call", url, *ECHO, "--db", db)
    assert bare.returncode == 1
    assert gate.seen[0] == QUERY and "" in gate.seen
    _no_leak(saved.stdout, saved.stderr, called.stdout, called.stderr)
    _files_hold_no_leak(tmp_path)


def test_servers_import_keeps_the_query_of_an_address_in_the_file(served, tmp_path: Path,
                                                                   file_keyring: FileKeyring) -> None:
    url, gate = served
    db = str(tmp_path / "runs.db")
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"web": {"url": f"{url}?{QUERY}"}}}))
    added = cli("servers", "import", str(config), "--yes", "--db", db)
    assert added.returncode == 0, added.stderr
    assert "its address's query: kept as a secret and sent with every call" in added.stdout
    assert "The query in the address of web is kept as a secret and sent with every call." in added.stdout
    assert file_keyring.entries()[f"{url} ?query"] == QUERY
    for command in (("call", "web", *ECHO), ("tools", "web"), ("ping", "web")):
        done = cli(*command, "--db", db)
        assert done.returncode == 0, done.stdout + done.stderr
        _no_leak(done.stdout, done.stderr)
    assert set(gate.seen) == {QUERY}
    _no_leak(added.stdout, added.stderr)
    _files_hold_no_leak(tmp_path, given=config)


def test_the_address_as_typed_with_its_query_and_password_is_not_repeated_by_a_refusal(served,
                                                                                       tmp_path: Path) -> None:
    """The address ``call`` and ``servers set`` take (a password, a query) given where a server is named: `runs list
    --server` found none of its runs ('No stored run was made on the server http://me:pw@…?api_key=…'), and `servers
    remove` of a server already removed, or an address not valid, repeated the key and the password."""
    url, _gate = served
    db = str(tmp_path / "runs.db")
    typed = url.replace("://", "://me:pw-51c2@") + "?" + QUERY
    for words in (["servers", "remove", typed], ["servers", "--json", "remove", typed]):  # no database yet
        refused = cli(*words, "--db", db)
        assert refused.returncode == 2 and f"No configured server is named {url}?…:" in refused.stderr
        _no_leak(refused.stdout, refused.stderr)
        assert "pw-51c2" not in refused.stdout + refused.stderr
    assert cli("call", typed, *ECHO, "--db", db).returncode == 0
    listed = cli("runs", "list", "--json", "--server", typed, "--db", db)
    assert [run["server"] for run in json.loads(listed.stdout)["runs"]] == [url]
    other = url.replace("/mcp", "/other")
    for words, said in ((["servers", "remove", typed], f"No configured server is named {url}?…: give"),
                        (["runs", "list", "--server", typed.replace("/mcp", "/other")],
                         f"No stored run was made on the server {other}. "),
                        (["servers", "set", typed.replace("127.0.0.1:", "127.0.0.1:9999")],
                         f"'{url.replace('127.0.0.1:', '127.0.0.1:9999')}?…' is not a server address")):
        refused = cli(*words, "--db", db)
        assert said in refused.stdout + refused.stderr, refused
        _no_leak(refused.stdout, refused.stderr)
        assert "pw-51c2" not in refused.stdout + refused.stderr
