"""The command line on a system keyring that refuses (locked, a write or a delete refused): it says
so, naming the keyring's answer, and ends with exit status 1 (``failed``); nothing is lost silently.
A real ``keyring`` backend (tests/support/file_keyring.py ``TroubledKeyring``), real SQLite; the
removal in a process of its own, which finds the backend by ``PYTHON_KEYRING_BACKEND``."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import pytest

from inspector.store import RunStore, ServerRegistry
from tests.support.cli_process import cli, cli_here
from tests.support.file_keyring import TROUBLE_ENV, TROUBLED_NAME, FileKeyring, TroubledKeyring

URL = "http://127.0.0.1:9/mcp"


def _troubled(file_keyring: FileKeyring, **refuse: str) -> TroubledKeyring:
    troubled = TroubledKeyring(file_keyring.path, wait_s=0, refuse=refuse)
    keyring.set_keyring(troubled)
    return troubled


@pytest.mark.parametrize("error", ["KeyringLocked", "PasswordSetError", "InitError"])
def test_a_secret_the_keyring_does_not_keep_ends_the_save_with_a_sentence_and_status_1(
        tmp_path: Path, file_keyring: FileKeyring, error: str) -> None:
    db = str(tmp_path / "runs.db")
    _troubled(file_keyring, set=error)
    done = cli_here("servers", "set", URL + "?key=q", "--header", "X-Api-Key: k3y", "--header", "X-Team: blue",
                    "--db", db)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"run-inspector: Saved {URL}. The system keyring did not keep the secrets X-Api-Key, the "
                           f"query of its address ({error}: the test keyring refuses to set ({error})): give them on "
                           "each call (at a terminal you will be asked for them), or unlock the keyring and save the "
                           "server again.\n")
    assert file_keyring.entries() == {}
    with RunStore.open(Path(db)) as store:  # saved, as it says, without them
        assert [header.name for header in ServerRegistry(store.db).settings(URL).headers] == ["X-Api-Key", "X-Team"]
    as_json = cli_here("servers", "--json", "set", "notes", "--command", "notes-server", "--env", "API_TOKEN=s3cr3t",
                       "--db", db)
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout)["error"] == {
        "kind": "failed", "message": "Saved notes. The system keyring did not keep the secret API_TOKEN ("
        f"{error}: the test keyring refuses to set ({error})): give it on each call (at a terminal you will be asked "
        "for it), or unlock the keyring and save the server again."}
    assert "s3cr3t" not in as_json.stdout + as_json.stderr and "k3y" not in done.stderr


def test_a_secret_the_keyring_does_not_remove_is_said_to_be_still_there(tmp_path: Path,
                                                                         file_keyring: FileKeyring,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: k3y", "--db", db).returncode == 0
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", TROUBLED_NAME)
    monkeypatch.setenv(TROUBLE_ENV, "wait=0.1,delete=KeyringLocked")
    removed = cli("servers", "remove", URL, "--db", db)
    assert removed.returncode == 1, removed.stderr
    assert removed.stderr == (f"run-inspector: Removed {URL}; its runs stay stored. The system keyring did not remove "
                              f"the secret X-Api-Key of {URL} (KeyringLocked: the test keyring refuses to delete "
                              "(KeyringLocked)): it is still in the keyring (service run-inspector, entry "
                              f"“{URL} X-Api-Key”).\n")
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "k3y"}
    assert cli_here("servers", "--json", "--db", db).stdout.count(URL) == 0  # the server went


def test_a_call_whose_secret_the_keyring_will_not_give_sends_nothing(tmp_path: Path,
                                                                     file_keyring: FileKeyring) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: k3y", "--db", db).returncode == 0
    _troubled(file_keyring, get="KeyringLocked")
    refused = cli_here("--lang", "de", "call", URL, "echo", "--db", db)
    assert refused.returncode == 1
    assert refused.stderr == (f"run-inspector: Der System-Schlüsselbund hat das Geheimnis X-Api-Key von {URL} nicht "
                              "herausgegeben (KeyringLocked: the test keyring refuses to get (KeyringLocked)); es "
                              "wurde nichts gesendet. Entsperren Sie den Schlüsselbund oder geben Sie es auf der "
                              "Kommandozeile an (--header, --env oder die Adresse mit ihrer Abfrage).\n")
    with RunStore.open(Path(db)) as store:
        assert store.db.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0  # nothing was sent
    given = cli_here("call", URL, "echo", "--header", "X-Api-Key: given", "--db", db)
    assert "keyring" not in given.stderr and "unreachable" in given.stdout  # given here: sent without it
