"""``servers set`` and ``servers import`` undo a change the keyring refused, putting back the secrets they wrote
before the refusal: when the keyring will not put one back either (it locked after refusing), the command says
which, and that it may hold the value given (never the value), and no longer that the secrets were left as they
were. A real keyring in a file that locks after a refusal (tests/support/file_keyring.py ``LockingEntries``)."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import pytest

from tests.support.cli_process import cli_here
from tests.support.file_keyring import FileKeyring, LockingEntries

URL = "http://127.0.0.1:9/mcp"
LOCKED = "KeyringLocked: locked since a refusal"


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_secret_the_keyring_does_not_put_back_is_named_by_servers_set(tmp_path: Path, file_keyring: FileKeyring,
                                                                        language: str) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL + "?token=old", "--header", "X-Api-Key: old", "--db", db).returncode == 0
    before = cli_here("servers", "--json", "--db", db).stdout
    keyring.set_keyring(LockingEntries(file_keyring.path, " ?query"))  # the key kept, then the query refused
    done = cli_here("--lang", language, "servers", "set", URL + "?token=n3w-q", "--header", "X-Api-Key: n3w-k",
                    "--db", db)
    assert done.returncode == 1 and done.stdout == ""
    if language == "en":
        assert done.stderr == (
            f"run-inspector: {URL} was not saved: the system keyring did not keep the query in the address "
            "(PasswordSetError: refused for this entry), so its settings were left as they were. Unlock the keyring "
            "and save it again, or save it without that secret and give it on each call. The system keyring did not "
            f"put back the secret X-Api-Key of {URL} ({LOCKED}): it may hold the value given to this command "
            f"rather than the one before (service run-inspector, entry “{URL} X-Api-Key”). Save the server again once "
            "the keyring answers.\n")
    else:
        assert "daher blieben seine Einstellungen, wie sie waren" in done.stderr
        assert f"hat das Geheimnis X-Api-Key von {URL} nicht wiederhergestellt ({LOCKED})" in done.stderr
    assert "n3w" not in done.stderr
    assert cli_here("servers", "--json", "--db", db).stdout == before  # the settings as they were
    assert file_keyring.entries() == {f"{URL} ?query": "token=old", f"{URL} X-Api-Key": "n3w-k"}  # as said


def test_a_secret_the_keyring_does_not_put_back_is_named_by_servers_import(tmp_path: Path,
                                                                           file_keyring: FileKeyring) -> None:
    db = str(tmp_path / "runs.db")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "vault": {"url": URL, "headers": {"X-Api-Key": "n3w-k"}},
        "notes": {"command": "notes-server", "env": {"API_TOKEN": "s3cr3t"}}}}))
    keyring.set_keyring(LockingEntries(file_keyring.path, " env:API_TOKEN"))  # vault's key kept, then notes' refused
    done = cli_here("servers", "import", str(config), "--yes", "--db", db)
    assert done.returncode == 1
    assert done.stderr.startswith("run-inspector: Nothing was added: the configured servers were left as they were. "
                                  "The system keyring did not keep the secret API_TOKEN of notes"), done.stderr
    assert (f"The system keyring did not put back the secret X-Api-Key of vault ({LOCKED}): it may hold the value "
            f"given to this command rather than the one before (service run-inspector, entry “{URL} X-Api-Key”)."
            ) in done.stderr
    assert "their secrets were left as they were" not in done.stderr and "n3w" not in done.stderr
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "n3w-k"}
    assert json.loads(cli_here("servers", "--json", "--db", db).stdout)["servers"] == []


@pytest.mark.parametrize(("stop", "said"), [("SIGINT", "Cancelled (Ctrl-C)"),
                                            ("SIGTERM", "Ended by a signal (SIGTERM)")])
def test_a_stop_whose_secret_the_keyring_does_not_take_away_names_it(tmp_path: Path, file_keyring: FileKeyring,
                                                                     stop: str, said: str) -> None:
    """The key of a new server written, then a stop: the keyring refuses to remove it again (the command said 'its
    settings and its secrets were left as they were' beside the key left in the keyring)."""
    from tests.integration.test_cli_late_stop import stopped_at
    from tests.support.file_keyring import FILE_ENV, TROUBLE_ENV, TROUBLED_NAME

    db = str(tmp_path / "runs.db")
    done = stopped_at(stop, "inspector.store.keyring_entries:KeyringEntries.write", "servers", "set", URL,
                      "--header", "X-Api-Key: n3w-k", "--db", db, after=True,
                      env={FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": TROUBLED_NAME,
                           TROUBLE_ENV: "delete=KeyringLocked"})
    assert done.returncode == 130
    assert done.stderr == (
        f"run-inspector: {said} before {URL} was saved: its settings were left as they were. The system keyring did "
        f"not put back the secret X-Api-Key of {URL} (KeyringLocked: the test keyring refuses to delete "
        "(KeyringLocked)): it may hold the value given to this command rather than the one before (service "
        f"run-inspector, entry “{URL} X-Api-Key”). Save the server again once the keyring answers.\n")
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "n3w-k"}
    assert json.loads(cli_here("servers", "--json", "--db", db).stdout)["servers"] == []
