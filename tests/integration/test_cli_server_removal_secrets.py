"""``servers remove`` forgets what the keyring keeps for the server: its secret header values, its
command's secret variables, and its sign-in's tokens (signed out), in a real ``run-inspector``
process on a keyring backend whose entries are a file. Other servers' entries stay, and so does the
client registered with the authorization server (the issuer's, shared by the resources it protects)."""

from __future__ import annotations

from pathlib import Path

from inspector.mcp.signin.model import REGISTERED, ClientIdentity, TokenSet
from inspector.store.signin_vault import KeyringVault
from tests.support.cli_process import cli_here as cli
from tests.support.file_keyring import FileKeyring

URL = "http://127.0.0.1:9/mcp"
OTHER = "http://127.0.0.1:9/other"
ISSUER = "https://auth.example.com"


def _signed_in(file_keyring: FileKeyring, *resources: str) -> None:
    vault = KeyringVault(file_keyring)
    vault.keep_client(ClientIdentity("client-42", ISSUER, REGISTERED, redirect_uris=("http://127.0.0.1/callback",)))
    for resource in resources:
        vault.keep_tokens(TokenSet(f"ACCESS-{resource}", ISSUER, resource))


def test_servers_remove_leaves_no_secret_of_the_server_in_the_keyring(tmp_path: Path,
                                                                      file_keyring: FileKeyring) -> None:
    db = str(tmp_path / "runs.db")
    for given in (("servers", "set", URL, "--header", "Authorization: Bearer t0k3n-abc",
                   "--header", "X-Api-Key: k3y-abc", "--db", db),
                  ("servers", "set", "notes", "--command", "notes-server --fast", "--env", "API_TOKEN=s3cr3t-abc",
                   "--db", db),
                  ("servers", "set", OTHER, "--header", "Authorization: Bearer 0ther-abc", "--db", db)):
        assert cli(*given).returncode == 0
    _signed_in(file_keyring, URL, OTHER)
    assert len(file_keyring.entries()) == 7  # four secrets of the two servers to remove, two sign-ins, the client
    for name in (URL, "notes"):
        removed = cli("servers", "remove", name, "--db", db)
        assert removed.returncode == 0, removed.stderr
    assert set(file_keyring.entries()) == {f"{OTHER} Authorization", f"signin tokens {OTHER}",
                                           f"signin client {ISSUER}"}


def test_the_sign_in_stays_while_another_configured_server_uses_it(tmp_path: Path,
                                                                   file_keyring: FileKeyring) -> None:
    db = str(tmp_path / "runs.db")
    for address in (URL, URL + "/"):  # one resource: https://h/mcp and https://h/mcp/ sign in as one
        assert cli("servers", "set", address, "--db", db).returncode == 0
    _signed_in(file_keyring, URL)
    assert cli("servers", "remove", URL + "/", "--db", db).returncode == 0
    assert f"signin tokens {URL}" in file_keyring.entries()
    assert cli("servers", "remove", URL, "--db", db).returncode == 0
    assert f"signin tokens {URL}" not in file_keyring.entries()
