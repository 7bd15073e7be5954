"""``servers --json --with-secrets`` then ``servers import`` into an empty database and an empty keyring gives a
server's sign-in settings back (client id, grant, how the client authenticates, scope) and its client secret, kept in
the keyring again: the backup held the settings, the import dropped them, and the secret was never listed. The
client secret is listed with ``--with-secrets`` only, said on stderr as the other credentials are; ``servers --json``
imported where the server is configured keeps the configured secret, and into an empty database says that it was
left out.

Real parts: the real command line, real SQLite files, the file keyring."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.cli_process import ROOT
from tests.support.file_keyring import FileKeyring

URL = "https://mcp.example.com/mcp"
SECRET = "CLIENT-SECRET-rt-9Qw2"
ACCOUNT = f"signin client-secret {URL}"


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={**os.environ, **(env or {})})


def signin(db: Path) -> dict[str, object]:
    listed = cli("servers", "--json", "--db", str(db))
    assert listed.returncode == 0, listed.stderr
    [server] = json.loads(listed.stdout)["servers"]
    return server["signin"]


def test_the_whole_listing_gives_the_signin_back_with_its_client_secret(tmp_path: Path,
                                                                        file_keyring: FileKeyring) -> None:
    db, elsewhere, empty = tmp_path / "runs.db", tmp_path / "elsewhere.db", tmp_path / "empty.db"
    done = cli("servers", "set", URL, "--name", "Work", "--client-id", "cid-7", "--client-secret-env", "WORK_SECRET",
               "--grant", "client-credentials", "--auth-method", "client_secret_post", "--scope", "read write",
               "--db", str(db), env={"WORK_SECRET": SECRET})
    assert done.returncode == 0, done.stderr
    configured = signin(db)
    masked = cli("servers", "--json", "--db", str(db))
    assert SECRET not in masked.stdout + masked.stderr and masked.stderr == ""
    whole = cli("servers", "--json", "--with-secrets", "--db", str(db))
    assert whole.returncode == 0, whole.stderr
    assert json.loads(whole.stdout)["servers"][0]["signin"] == {**configured, "client_secret": SECRET}
    assert whole.stderr == ("run-inspector: the output holds the credentials of Work (--with-secrets): keep it as you "
                            "keep a password.\n")
    (tmp_path / "whole.json").write_text(whole.stdout, encoding="utf-8")
    (tmp_path / "masked.json").write_text(masked.stdout, encoding="utf-8")
    file_keyring.path.unlink()  # another machine: its keyring holds nothing
    imported = cli("servers", "import", str(tmp_path / "whole.json"), "--yes", "--db", str(elsewhere))
    assert imported.returncode == 0, imported.stderr
    assert ("sign-in: --client-id cid-7 --auth-method client_secret_post --grant client-credentials --scope "
            "'read write' (the client secret is kept in the keyring)") in imported.stdout
    assert SECRET not in imported.stdout + imported.stderr
    assert signin(elsewhere) == configured
    assert file_keyring.entries() == {ACCOUNT: SECRET}
    assert SECRET.encode() not in elsewhere.read_bytes()
    # The listing without secrets, where the server is configured: its secret stays.
    again = cli("servers", "import", str(tmp_path / "masked.json"), "--yes", "--db", str(elsewhere))
    assert again.returncode == 0 and again.stderr == "", again.stderr
    assert signin(elsewhere) == configured and file_keyring.entries() == {ACCOUNT: SECRET}
    # ... and into an empty database: the settings come back, the secret is said to be left out.
    fresh = cli("servers", "import", str(tmp_path / "masked.json"), "--yes", "--db", str(empty))
    assert fresh.returncode == 0, fresh.stderr
    assert signin(empty) == {**configured, "client_secret_kept": False}
    assert fresh.stderr == ("run-inspector: the listing leaves out the client secret of Work (servers --json without "
                            f"--with-secrets), so none is kept; give it with servers set {URL} --client-secret-env "
                            "VARIABLE.\n")


def test_with_secrets_lists_nothing_when_the_keyring_does_not_give_the_client_secret(
        tmp_path: Path, file_keyring: FileKeyring) -> None:
    import keyring

    from tests.support.cli_process import cli_here
    from tests.support.file_keyring import TroubledKeyring

    db = tmp_path / "runs.db"
    done = cli("servers", "set", URL, "--name", "Work", "--client-id", "cid-7", "--client-secret-env", "WORK_SECRET",
               "--db", str(db), env={"WORK_SECRET": SECRET})
    assert done.returncode == 0, done.stderr
    keyring.set_keyring(TroubledKeyring(file_keyring.path, wait_s=0, refuse={"get": "KeyringLocked"}))
    listed = cli_here("--db", str(db), "servers", "--json", "--with-secrets")
    assert listed.returncode == 1, listed.stdout  # a backup without its client secret: none at all
    assert json.loads(listed.stdout) == {"error": {"kind": "failed", "message": (
        "The system keyring did not give the sign-in's client secret of Work (KeyringLocked: the test keyring refuses "
        "to get (KeyringLocked)), so the configuration was not listed (--with-secrets lists it whole). Unlock the "
        "keyring and list it again.")}}


def test_a_keyring_refusing_the_client_secret_adds_nothing(tmp_path: Path, file_keyring: FileKeyring) -> None:
    import keyring

    from tests.support.cli_process import cli_here
    from tests.support.file_keyring import RefusingEntries

    listing = tmp_path / "whole.json"
    listing.write_text(json.dumps({"servers": [{"url": URL, "name": "Work", "transport": "http", "headers": [],
                                                "signin": {"client_id": "cid-7", "client_secret_kept": True,
                                                           "client_secret": SECRET}}]}), encoding="utf-8")
    keyring.set_keyring(RefusingEntries(file_keyring.path, "signin client-secret"))
    done = cli_here("--db", str(tmp_path / "runs.db"), "servers", "import", str(listing), "--yes")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr.startswith(
        "run-inspector: Nothing was added: the configured servers and their secrets were left as they were. The system "
        "keyring did not keep the sign-in's client secret of Work (PasswordSetError: refused for this entry)."
    ), done.stderr
    assert SECRET not in done.stdout + done.stderr
    listed = cli_here("--db", str(tmp_path / "runs.db"), "servers", "--json")
    assert json.loads(listed.stdout)["servers"] == [] and file_keyring.entries() == {}
