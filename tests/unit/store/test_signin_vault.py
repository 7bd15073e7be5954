"""The sign-in vault: tokens per server and clients per issuer in a real keyring backend (a file),
read back by another process; what is not ours reads as nothing; sign-out; no keyring, a locked one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.mcp.signin.model import REGISTERED, ClientIdentity, TokenSet
from inspector.store.signin_vault import (
    KeyringVault,
    ProcessVault,
    client_account,
    kept_sign_in,
    open_signin_vault,
    tokens_account,
)
from tests.support.file_keyring import FileKeyring, RefusingKeyring

ROOT = Path(__file__).resolve().parents[3]
RESOURCE = "https://mcp.example.com/mcp"
ISSUER = "https://auth.example.com"
TOKENS = TokenSet("ACCESS-abcdef123", ISSUER, RESOURCE, refresh_token="REFRESH-abcdef123", expires_at=1_900_000_000.5,
                  scope="read write", subject="ada@example.com", dpop_key_pem="-----BEGIN PRIVATE KEY-----DPOP")
CLIENT = ClientIdentity("client-42", ISSUER, REGISTERED, client_secret="CLIENTSECRET-abc123",
                        auth_method="client_secret_post", redirect_uris=("http://127.0.0.1/callback",))


def test_tokens_and_clients_round_trip_through_the_keyring(file_keyring: FileKeyring) -> None:
    vault = open_signin_vault()
    assert isinstance(vault, KeyringVault) and vault.persistent
    vault.keep_tokens(TOKENS)
    vault.keep_client(CLIENT)
    # Named for what they hold, in the app's own service.
    assert set(file_keyring.entries()) == {f"signin tokens {RESOURCE}", f"signin client {ISSUER}"}
    again = KeyringVault(FileKeyring(file_keyring.path))  # nothing carried over in memory
    assert again.tokens(RESOURCE) == TOKENS and again.client(ISSUER) == CLIENT
    assert again.tokens("https://other.example.com/mcp") is None and again.client("https://other") is None


def test_another_process_reads_what_this_one_kept(file_keyring: FileKeyring) -> None:
    open_signin_vault().keep_tokens(TOKENS)
    script = ("import sys; from inspector.store.signin_vault import open_signin_vault; v = open_signin_vault();"
              " t = v.tokens(sys.argv[1]); print(v.persistent, t.subject, t.expires_at)")
    done = subprocess.run([sys.executable, "-c", script, RESOURCE], capture_output=True, text=True, timeout=60,
                          cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "ada@example.com", "1900000000.5"]


@pytest.mark.parametrize("text", [
    "not json", "[1, 2]", "null", '"a text"', "{}", "[" * 50_000, "[" * 100_000,
    json.dumps({"format": 2, "kind": "tokens", "access_token": "a", "issuer": ISSUER, "resource": RESOURCE,
                "token_type": "Bearer"}),
    json.dumps({"format": 1, "kind": "client", "access_token": "a", "issuer": ISSUER, "resource": RESOURCE,
                "token_type": "Bearer"}),
    json.dumps({"format": 1, "kind": "tokens", "access_token": 5, "issuer": ISSUER, "resource": RESOURCE,
                "token_type": "Bearer"}),
    json.dumps({"format": 1, "kind": "tokens", "access_token": "a", "issuer": ISSUER, "resource": RESOURCE,
                "token_type": "Bearer", "expires_at": "soon"}),
    json.dumps({"format": 1, "kind": "tokens", "access_token": "a", "issuer": ISSUER, "resource": RESOURCE,
                "token_type": "Bearer", "expires_at": True}),
    '{"format": 1, "kind": "tokens", "access_token": "a", "issuer": "%s", "resource": "%s", "token_type": "Bearer",'
    ' "expires_at": 1e400}' % (ISSUER, RESOURCE),
    '{"format": 1, "kind": "tokens", "access_token": "a", "issuer": "%s", "resource": "%s", "token_type": "Bearer",'
    ' "expires_at": %s}' % (ISSUER, RESOURCE, "9" * 400),
    json.dumps({"format": 1, "kind": "tokens", "access_token": "a", "issuer": ISSUER,
                "resource": "https://another.example.com/mcp", "token_type": "Bearer"}),  # not for this server
    json.dumps({"format": 1, "kind": "tokens", "access_token": "a", "issuer": ISSUER, "resource": RESOURCE,
                "token_type": "Bearer", "refresh_token": ["r"]}),
    json.dumps({"format": 1, "kind": "tokens", "access_token": "a" * 70_000, "issuer": ISSUER, "resource": RESOURCE,
                "token_type": "Bearer"}),  # larger than any token: not ours
])
def test_tokens_that_are_not_ours_read_as_none(file_keyring: FileKeyring, text: str) -> None:
    file_keyring.set_password("run-inspector", tokens_account(RESOURCE), text)
    vault = open_signin_vault()
    assert vault.tokens(RESOURCE) is None
    assert kept_sign_in(vault, RESOURCE).signed_in is False


@pytest.mark.parametrize("changes", [
    {"how": "found-it"}, {"auth_method": "magic"}, {"client_id": ""}, {"client_id": None},
    {"issuer": "https://other-issuer.example.com"}, {"client_secret": 7}, {"redirect_uris": "http://x"},
    {"redirect_uris": ["http://x"] * 17}, {"redirect_uris": [1]}, {"format": None},
])
def test_clients_that_are_not_ours_read_as_none(file_keyring: FileKeyring, changes: dict[str, object]) -> None:
    entry = {"format": 1, "kind": "client", "client_id": "c", "issuer": ISSUER, "how": REGISTERED,
             "client_secret": None, "auth_method": "none", "private_key_pem": None, "redirect_uris": []}
    vault = open_signin_vault()
    file_keyring.set_password("run-inspector", client_account(ISSUER), json.dumps(entry))
    assert vault.client(ISSUER) == ClientIdentity("c", ISSUER, REGISTERED)  # the unchanged entry reads
    file_keyring.set_password("run-inspector", client_account(ISSUER), json.dumps({**entry, **changes}))
    assert vault.client(ISSUER) is None


def test_signing_out_forgets_the_tokens_and_keeps_the_registered_client(file_keyring: FileKeyring) -> None:
    vault = open_signin_vault()
    vault.keep_tokens(TOKENS)
    vault.keep_client(CLIENT)
    other = TokenSet("ACCESS-other-123", ISSUER, "https://mcp2.example.com/mcp")
    vault.keep_tokens(other)
    vault.forget(RESOURCE)
    assert vault.tokens(RESOURCE) is None
    assert vault.tokens(other.resource) == other  # another server of the same issuer stays signed in
    assert vault.client(ISSUER) == CLIENT  # keyed by issuer, shared: reused on the next sign-in
    assert "ACCESS-abcdef123" not in json.dumps(file_keyring.entries())
    vault.forget(RESOURCE)  # signing out twice is no error
    vault.forget_client(ISSUER)
    assert vault.client(ISSUER) is None
    assert set(file_keyring.entries()) == {tokens_account(other.resource)}


def test_without_a_usable_keyring_the_vault_lasts_for_the_process() -> None:
    vault = open_signin_vault()  # the tests' keyring is the one that keeps nothing
    assert isinstance(vault, ProcessVault) and vault.persistent is False
    vault.keep_tokens(TOKENS)
    vault.keep_client(CLIENT)
    assert vault.tokens(RESOURCE) == TOKENS and vault.client(ISSUER) == CLIENT
    assert vault.keep_client_secret("https://mcp.example.com/mcp", "SECRET-xyz-123") is False  # not kept for later
    assert vault.client_secret("https://mcp.example.com/mcp") == "SECRET-xyz-123"
    vault.forget(RESOURCE)
    assert vault.tokens(RESOURCE) is None and vault.client(ISSUER) == CLIENT
    assert open_signin_vault().tokens(RESOURCE) is None


def test_a_keyring_that_refuses_everything_never_raises_and_says_nothing_outlives_the_process() -> None:
    vault = open_signin_vault(RefusingKeyring())
    assert isinstance(vault, KeyringVault) and vault.persistent is True
    assert vault.tokens(RESOURCE) is None
    vault.keep_tokens(TOKENS)  # refused: kept for this process instead
    assert vault.persistent is False
    assert vault.tokens(RESOURCE) == TOKENS
    assert vault.keep_client_secret(RESOURCE, "SECRET-xyz-123") is False
    assert vault.client_secret(RESOURCE) == "SECRET-xyz-123"
    vault.forget(RESOURCE)
    assert vault.tokens(RESOURCE) is None


def test_a_token_too_large_for_the_keyring_stays_in_the_process(file_keyring: FileKeyring) -> None:
    vault = open_signin_vault()
    huge = TokenSet("A" * 70_000, ISSUER, RESOURCE)
    vault.keep_tokens(huge)
    assert vault.tokens(RESOURCE) == huge and vault.persistent is False
    assert file_keyring.entries() == {}


def test_what_is_kept_is_listed_without_secrets(file_keyring: FileKeyring) -> None:
    vault = open_signin_vault()
    assert kept_sign_in(vault, RESOURCE).signed_in is False
    vault.keep_tokens(TOKENS)
    vault.keep_client(CLIENT)
    kept = kept_sign_in(vault, RESOURCE)
    assert kept.to_dict() == {"signed_in": True, "issuer": ISSUER, "subject": "ada@example.com",
                              "scope": "read write", "expires_at": 1_900_000_000.5, "refreshable": True,
                              "client_id": "client-42", "client_how": REGISTERED}
    shown = repr(kept) + json.dumps(kept.to_dict()) + repr(TOKENS) + repr(CLIENT)
    for secret in ("ACCESS-abcdef123", "REFRESH-abcdef123", "CLIENTSECRET-abc123", "DPOP"):
        assert secret not in shown


def test_the_tests_keyring_is_never_the_real_one() -> None:
    import keyring
    from keyring.backends import fail

    assert isinstance(keyring.get_keyring(), fail.Keyring)
    with pytest.raises(RuntimeError):
        FileKeyring.priority  # noqa: B018 - without the fixture's file it is not viable
    # Nor in a process a test starts.
    done = subprocess.run([sys.executable, "-c", "import keyring; print(type(keyring.get_keyring()).__module__)"],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "keyring.backends.fail", done.stderr
