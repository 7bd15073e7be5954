"""`servers set` with sign-in options: kept with the server, the client secret (read from the variable
--client-secret-env names) in the keyring only, listed as "kept in the keyring"; nothing secret in the
database, the output or the process list."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from inspector.cli import signin_options
from inspector.mcp.signin import model
from tests.support.cli_process import cli_here
from tests.support.file_keyring import FileKeyring
from tests.support.secret_search import assert_nowhere

ROOT = Path(__file__).resolve().parents[2]
URL = "https://mcp.example.com/mcp"
SECRET = "CLIENT-SECRET-abc-4711"
KEY_BODY = "MIGkAgEBBDBthisIsTheSecretKeyBody0123456789"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={**os.environ, **(env or {})})


def test_the_grammar_knows_the_models_methods_and_the_grants_a_server_keeps() -> None:
    from inspector.store.signin_settings import STORED_GRANTS

    assert signin_options.AUTH_METHODS == model.AUTH_METHODS
    assert signin_options.GRANTS == STORED_GRANTS and set(STORED_GRANTS) <= set(model.GRANTS)
    assert signin_options.COMMAND_GRANTS == model.GRANTS  # one command may use every grant the flow knows


def test_servers_set_keeps_signin_settings_and_the_secret_only_in_the_keyring(tmp_path: Path,
                                                                             file_keyring: FileKeyring) -> None:
    db = tmp_path / "runs.db"
    key = tmp_path / "client.pem"
    key.write_text(f"-----BEGIN PRIVATE KEY-----\n{KEY_BODY}\n-----END PRIVATE KEY-----\n")
    done = cli("servers", "set", URL, "--name", "Work", "--client-id", "cid-7", "--client-secret-env", "WORK_SECRET",
               "--grant", "client-credentials", "--auth-method", "client_secret_post", "--scope", "read write",
               "--client-metadata-url", "https://app.example.com/client.json", "--db", str(db),
               env={"WORK_SECRET": SECRET})
    assert done.returncode == 0, done.stderr
    assert file_keyring.entries() == {f"signin client-secret {URL}": SECRET}
    assert cli("servers", "set", URL, "--client-key", str(key), "--auth-method", "private_key_jwt",
               "--db", str(db)).returncode == 0  # an update: the rest stays
    listed = cli("servers", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    assert ("sign-in: --client-id cid-7 --auth-method private_key_jwt --client-metadata-url "
            f"https://app.example.com/client.json --grant client-credentials --client-key {key} --scope 'read write' "
            "(the client secret is kept in the keyring)") in listed.stdout
    as_json = cli("servers", "--json", "--db", str(db))
    (server,) = json.loads(as_json.stdout)["servers"]
    assert server["signin"] == {"client_id": "cid-7", "auth_method": "private_key_jwt",
                                "client_metadata_url": "https://app.example.com/client.json",
                                "grant": "client-credentials", "scope": "read write", "client_key_file": str(key),
                                "client_secret_kept": True}
    cleared = cli("servers", "--json", "set", URL, "--scope", "", "--client-metadata-url", "", "--db", str(db))
    assert json.loads(cleared.stdout)["saved"]["signin"] == {
        **server["signin"], "scope": None, "client_metadata_url": None}  # the rest stays
    out = tmp_path / "out.txt"
    out.write_text(done.stdout + done.stderr + listed.stdout + listed.stderr + as_json.stdout + as_json.stderr)
    assert_nowhere([SECRET, KEY_BODY], database=db, files=[out])
    removed = cli("servers", "remove", "Work", "--db", str(db))
    assert removed.returncode == 0, removed.stderr
    assert file_keyring.entries() == {}  # the client secret went with the server


def test_without_a_keyring_servers_set_says_the_secret_was_not_kept(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    done = cli("servers", "set", URL, "--client-id", "cid", "--client-secret-env", "WORK_SECRET", "--db", str(db),
               env={"WORK_SECRET": SECRET})
    assert done.returncode == 0, done.stderr
    assert "no system keyring is available, so the client secret was not kept" in done.stderr
    assert "kept in the keyring" not in cli("servers", "--db", str(db)).stdout
    assert_nowhere([SECRET], database=db)


def test_sign_in_options_that_cannot_be_used_are_refused_with_a_reason(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    for args, reason in (
            (("--client-secret-env", "NOT_SET_ANYWHERE"), "NOT_SET_ANYWHERE is not set or empty"),
            (("--grant", "client-credentials"), "needs the client's id"),
            (("--auth-method", "private_key_jwt"), "needs the client's key"),
            (("--client-key", str(tmp_path / "none.pem")), "cannot be read"),
            (("--client-metadata-url", "file:///etc/passwd"), "--client-metadata-url needs an address"),
            (("--client-metadata-url", "http://example.com/client.json"), "--client-metadata-url needs an address"),
    ):
        done = cli_here("servers", "set", URL, *args, "--db", db)  # what it says, not its process
        assert done.returncode == 2 and reason in done.stderr, (args, done.stderr)
    done = cli_here("servers", "set", "local", "--command", "python -m x", "--client-id", "cid", "--db", db)
    assert done.returncode == 2 and "Signing in is for a server at an address" in done.stderr
