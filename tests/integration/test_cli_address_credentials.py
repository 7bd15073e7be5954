"""An address with a user name and password (``http://user:pw@host/mcp``): ``servers set`` and
``servers import`` keep them as a secret Authorization header (they were dropped, and later calls
failed with 401), never beside one already configured; ``call`` sends them as Basic auth. Neither the
password nor the Basic token is ever printed, stored in the database or exported."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.basic_auth_server import BasicAuthGate, basic, basic_auth_server
from tests.support.cli_process import cli_here as cli
from tests.support.file_keyring import FileKeyring

USER, PASSWORD = "ann", "s3cr%t pw"
#: What the password and its Basic token look like anywhere they might leak.
LEAKS = ("s3cr", "s3cr%25t", basic(USER, PASSWORD).split()[1])


@pytest.fixture()
def served() -> Iterator[tuple[str, str, BasicAuthGate]]:
    """The server's address, the same address with the user name and password, and its gate."""
    with basic_auth_server(USER, PASSWORD) as (url, gate):
        yield url, url.replace("http://", "http://ann:s3cr%25t%20pw@"), gate


def _no_leak(*texts: str) -> None:
    for text in texts:
        for leak in LEAKS:
            assert leak not in text


def _files_hold_no_leak(folder: Path, given: Path | None = None) -> None:
    """No file in ``folder`` (the database, its journal, exports) but the one ``given`` holds them."""
    for file in folder.rglob("*"):
        if file.is_file() and file != given:
            _no_leak(file.read_bytes().decode("latin-1"))


def test_servers_set_keeps_the_credentials_as_a_secret_header_that_later_calls_send(
        served, tmp_path: Path, file_keyring: FileKeyring) -> None:
    url, with_credentials, gate = served
    db = str(tmp_path / "runs.db")
    saved = cli("servers", "set", with_credentials, "--header", "X-Tenant: acme", "--db", db)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.strip() == (f"Saved {url}; its user name and password are kept as a secret Authorization "
                                    "header.")
    assert file_keyring.entries()[f"{url} Authorization"] == basic(USER, PASSWORD)
    listed = json.loads(cli("servers", "--json", "--db", db).stdout)["servers"]
    assert listed[0]["headers"] == [{"name": "X-Tenant", "secret": False}, {"name": "Authorization", "secret": True}]
    called = cli("call", url, "echo", "--args", '{"text": "hi"}', "--json", "--db", db)
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["outcome"] == "ok"
    assert gate.seen and set(gate.seen) == {basic(USER, PASSWORD)}
    # Saying the same user name and password again overwrites nothing, so it is not refused.
    again = cli("servers", "set", with_credentials, "--db", db)
    assert again.returncode == 0, again.stderr
    _no_leak(saved.stdout, saved.stderr, called.stdout, called.stderr, again.stdout)
    _files_hold_no_leak(tmp_path)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_servers_set_never_replaces_an_authorization_header_silently(served, tmp_path: Path,
                                                                      file_keyring: FileKeyring, lang: str) -> None:
    url, with_credentials, _gate = served
    db = str(tmp_path / "runs.db")
    assert cli("servers", "set", url, "--header", "Authorization: Bearer kept-token", "--db", db).returncode == 0
    refused = cli("--lang", lang, "servers", "set", with_credentials, "--db", db)
    assert refused.returncode == 2
    said = " ".join(refused.stderr.split())
    if lang == "en":
        assert (f"{url} carries a user name and password, and an Authorization header is configured for it "
                f"already, so nothing was saved. To keep the header, give the address without them; to use them "
                f"instead, remove the server first (servers remove {url}) and set it again.") in said
    else:
        assert f"{url} enthält einen Benutzernamen und ein Passwort" in said and "servers remove" in said
    both = cli("servers", "set", with_credentials, "--header", "Authorization: Bearer other", "--db", db)
    assert both.returncode == 2 and "leave out --header Authorization" in both.stderr
    assert file_keyring.entries()[f"{url} Authorization"] == "Bearer kept-token"
    _no_leak(refused.stdout, refused.stderr, both.stdout, both.stderr)


def test_without_a_keyring_servers_set_says_the_credentials_were_not_kept(served, tmp_path: Path) -> None:
    url, with_credentials, gate = served
    db = str(tmp_path / "runs.db")
    saved = cli("servers", "set", with_credentials, "--db", db)
    assert saved.returncode == 0, saved.stderr
    assert saved.stdout.strip() == f"Saved {url}."
    assert ("no system keyring is available, so the user name and password of the address were not kept. Give "
            "the address with them on each call.") in " ".join(saved.stderr.split())
    # As said: the address with them is sent them, the configured server lending the rest.
    called = cli("call", with_credentials, "echo", "--args", '{"text": "hi"}', "--db", db)
    assert called.returncode == 0, called.stdout + called.stderr
    assert set(gate.seen) == {basic(USER, PASSWORD)}
    _no_leak(saved.stdout, saved.stderr, called.stdout, called.stderr)
    _files_hold_no_leak(tmp_path)


def test_servers_import_keeps_the_credentials_of_an_address_in_the_file(served, tmp_path: Path,
                                                                         file_keyring: FileKeyring) -> None:
    url, with_credentials, gate = served
    db = str(tmp_path / "runs.db")
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"web": {"url": with_credentials}}}))
    added = cli("servers", "import", str(config), "--yes", "--db", db)
    assert added.returncode == 0, added.stderr
    assert "its address's user name and password: kept as a secret Authorization header" in added.stdout
    assert "The user name and password in the address of web are kept as a secret Authorization header." \
        in added.stdout
    assert file_keyring.entries()[f"{url} Authorization"] == basic(USER, PASSWORD)
    called = cli("call", "web", "echo", "--args", '{"text": "hi"}', "--db", db)
    assert called.returncode == 0, called.stdout + called.stderr
    assert set(gate.seen) == {basic(USER, PASSWORD)}
    # An entry with both: nothing is imported, and the sentence says which to keep.
    config.write_text(json.dumps({"mcpServers": {"web": {"url": with_credentials,
                                                         "headers": {"Authorization": "Bearer x"}}}}))
    refused = cli("servers", "import", str(config), "--yes", "--db", db)
    assert refused.returncode != 0
    assert "Keep either the Authorization header of web or the user name and password in its address." \
        in " ".join(refused.stderr.split())
    _no_leak(added.stdout, added.stderr, called.stdout, refused.stdout, refused.stderr)
    _files_hold_no_leak(tmp_path, given=config)


def test_call_sends_the_credentials_of_its_address_and_keeps_them_nowhere(served, tmp_path: Path) -> None:
    _url, with_credentials, gate = served
    db = str(tmp_path / "runs.db")
    called = cli("call", with_credentials, "echo", "--args", '{"text": "hi"}', "--json", "--db", db)
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["outcome"] == "ok"
    assert set(gate.seen) == {basic(USER, PASSWORD)}
    exported = cli("export", "--all", "-o", str(tmp_path / "runs.json"), "--db", db)
    assert exported.returncode == 0, exported.stderr
    otlp = cli("export", "--all", "--format", "otlp", "-o", str(tmp_path / "otlp.json"), "--db", db)
    assert otlp.returncode == 0, otlp.stderr
    shown = cli("runs", "show", "1", "--json", "--db", db)
    _no_leak(called.stdout, called.stderr, exported.stdout, shown.stdout)
    _files_hold_no_leak(tmp_path)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_refused_password_in_the_address_is_said_to_be_refused_not_missing(served, tmp_path: Path,
                                                                             lang: str) -> None:
    """The 401 was said to answer a request "sent no credentials", though the address's were sent."""
    url, _with_credentials, gate = served
    wrong = url.replace("http://", "http://ann:wr0ng-pass@")
    called = cli("--lang", lang, "call", wrong, "echo", "--args", '{"text": "hi"}', "--db", str(tmp_path / "r.db"))
    assert called.returncode == 1
    said = " ".join(called.stdout.split())
    assert basic("ann", "wr0ng-pass") in gate.seen
    if lang == "en":
        assert ("The server refused the user name and password of its address (sent as HTTP Basic); check them."
                in said)
        assert "sent no credentials" not in said
    else:
        assert "Der Server hat Benutzername und Passwort seiner Adresse abgewiesen" in said
    for text in (called.stdout, called.stderr):
        assert "wr0ng" not in text and basic("ann", "wr0ng-pass").split()[1] not in text


def test_servers_import_json_names_the_address_as_kept_not_with_its_password(tmp_path: Path) -> None:
    """The preview's `url` is the address as it will be kept, as the readable preview and `key` show it: it
    printed the file's address with the user name and password (and a query's key) on standard output."""
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {"web": {"url": "http://ann:s3cr%25t%20pw@127.0.0.1:9/mcp?api_key=k3y"},
                                                 "local": {"command": "npx", "args": ["-y", "server"]}}}))
    previewed = cli("servers", "import", str(config), "--json", "--db", str(tmp_path / "runs.db"))
    assert previewed.returncode == 2  # no terminal to confirm at, and no --yes: only the preview
    servers = {server["name"]: server for server in json.loads(previewed.stdout)["servers"]}
    assert servers["web"]["url"] == servers["web"]["key"] == "http://127.0.0.1:9/mcp"
    assert servers["local"]["url"] is None
    _no_leak(previewed.stdout, previewed.stderr)
    assert "k3y" not in previewed.stdout


def test_the_credentials_of_the_address_win_over_an_authorization_header_configured_for_it(
        served, tmp_path: Path, file_keyring: FileKeyring) -> None:
    """README: ``call http://user:pw@host/mcp`` to a server whose entry keeps an Authorization header sends
    the address's user name and password; the header is sent when the address has none."""
    url, with_credentials, gate = served
    db = str(tmp_path / "runs.db")
    saved = cli("servers", "set", url, "--header", "Authorization: Bearer stale-token", "--db", db)
    assert saved.returncode == 0, saved.stderr
    assert file_keyring.entries()[f"{url} Authorization"] == "Bearer stale-token"
    called = cli("call", with_credentials, "echo", "--args", '{"text": "hi"}', "--json", "--db", db)
    assert called.returncode == 0, called.stderr
    assert json.loads(called.stdout)["outcome"] == "ok"
    for command in ("tools", "ping"):
        done = cli(command, with_credentials, "--db", db)
        assert done.returncode == 0, (command, done.stderr)
    assert set(gate.seen) == {basic(USER, PASSWORD)}
    gate.seen.clear()
    refused = cli("call", url, "echo", "--args", '{"text": "hi"}', "--json", "--db", db)
    assert refused.returncode != 0 and gate.seen and set(gate.seen) == {"Bearer stale-token"}
    _no_leak(called.stdout, called.stderr)
