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
from tests.support.file_keyring import TROUBLE_ENV, TROUBLED_NAME, FileKeyring, RefusingEntries, TroubledKeyring

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
    assert done.stderr == (f"run-inspector: {URL} was not saved: the system keyring did not keep the secret "
                           f"X-Api-Key and the query in the address ({error}: the test keyring refuses to set "
                           f"({error})), so its settings and its secrets were left as they were. Unlock the keyring "
                           "and save it again, or save it without those secrets and give them on each call.\n")
    assert file_keyring.entries() == {}
    with RunStore.open(Path(db)) as store:  # not saved, as it says: it was saved without them
        assert ServerRegistry(store.db).all() == []
    as_json = cli_here("servers", "--json", "set", "notes", "--command", "notes-server", "--env", "API_TOKEN=s3cr3t",
                       "--db", db)
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout)["error"] == {
        "kind": "failed", "message": "notes was not saved: the system keyring did not keep the secret API_TOKEN ("
        f"{error}: the test keyring refuses to set ({error})), so its settings and its secrets were left as they "
        "were. Unlock the keyring and save it again, or save it without that secret and give it on each call."}
    assert "s3cr3t" not in as_json.stdout + as_json.stderr and "k3y" not in done.stderr
    with RunStore.open(Path(db)) as store:
        assert ServerRegistry(store.db).all() == []


def test_a_change_the_keyring_refuses_leaves_the_server_as_it_was(tmp_path: Path, file_keyring: FileKeyring) -> None:
    """The settings were changed beside the key kept before (a later call sent the old key, though the command said
    it would be asked for), and a new header in place of the old one had the old key removed from the keyring: the
    server lost its working key, and the new one was not kept."""
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: old", "--budget", "5", "--db", db).returncode == 0
    before = cli_here("servers", "--json", "--db", db).stdout
    _troubled(file_keyring, set="KeyringLocked")
    for change in (["--header", "X-Api-Key: new", "--budget", "9"], ["--header", "Authorization: Bearer new"]):
        done = cli_here("servers", "set", URL, *change, "--db", db)
        assert done.returncode == 1 and f"{URL} was not saved" in done.stderr
        assert cli_here("servers", "--json", "--db", db).stdout == before
        assert file_keyring.entries() == {f"{URL} X-Api-Key": "old"}


def test_the_secrets_kept_before_a_refusal_get_their_earlier_values_back(tmp_path: Path,
                                                                         file_keyring: FileKeyring) -> None:
    """The address's query was kept, the key after it refused: the new query stayed beside the old key."""
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL + "?token=old", "--header", "X-Api-Key: old", "--db", db).returncode == 0
    kept = file_keyring.entries()
    keyring.set_keyring(RefusingEntries(file_keyring.path, " X-Api-Key"))
    done = cli_here("servers", "set", URL + "?token=new", "--header", "X-Api-Key: new", "--db", db)
    assert done.returncode == 1 and "did not keep the secret X-Api-Key (PasswordSetError" in done.stderr
    assert file_keyring.entries() == kept


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
                              "wurde nichts gesendet. Entsperren Sie den Schlüsselbund oder geben Sie den Wert auf "
                              "der Befehlszeile an (--header, --env oder die Adresse mit ihrer Abfrage).\n")
    with RunStore.open(Path(db)) as store:
        assert store.db.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0  # nothing was sent
    given = cli_here("call", URL, "echo", "--header", "X-Api-Key: given", "--db", db)
    assert "keyring" not in given.stderr and "unreachable" in given.stdout  # given here: sent without it


@pytest.mark.parametrize(("stop", "said"), [
    ("SIGTERM", "Ended by a signal (SIGTERM) before {url} was saved: its settings and its secrets were left as they "
                "were."),
    ("SIGINT", "Cancelled (Ctrl-C) before {url} was saved: its settings and its secrets were left as they were."),
])
def test_a_stop_half_way_through_a_save_leaves_the_server_as_it_was(tmp_path: Path, file_keyring: FileKeyring,
                                                                    stop: str, said: str) -> None:
    """Raised once the settings are written and the new key kept, before the sign-in options: SIGTERM killed the
    process there (status -15), the settings and the key changed, the sign-in options not."""
    from tests.integration.test_cli_late_stop import stopped_at
    from tests.support.file_keyring import BACKEND_NAME, FILE_ENV

    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: old", "--db", db).returncode == 0
    before = cli_here("servers", "--json", "--db", db).stdout
    done = stopped_at(stop, "inspector.cli.servers:save_signin_options", "servers", "set", URL, "--header",
                      "X-Api-Key: new", "--budget", "9", "--client-id", "inspector", "--db", db,
                      env={FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": BACKEND_NAME})
    assert done.returncode == 130 and done.stderr == f"run-inspector: {said.format(url=URL)}\n"
    assert cli_here("servers", "--json", "--db", db).stdout == before
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "old"}


def test_a_client_secret_the_keyring_does_not_keep_leaves_the_server_as_it_was(
        tmp_path: Path, file_keyring: FileKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    """The sign-in vault kept it apart: the server was saved with the new key and client id beside the old client
    secret, exit status 0 and a sentence saying no keyring was available; a key refused after it left the new client
    secret in the keyring beside the old settings."""
    db = str(tmp_path / "runs.db")
    monkeypatch.setenv("WORK_SECRET", "old-secret")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: old", "--client-id", "cid-old",
                    "--client-secret-env", "WORK_SECRET", "--db", db).returncode == 0
    before = cli_here("servers", "--json", "--db", db).stdout
    kept = file_keyring.entries()
    monkeypatch.setenv("WORK_SECRET", "new-secret")
    keyring.set_keyring(RefusingEntries(file_keyring.path, "signin client-secret "))
    done = cli_here("servers", "set", URL, "--header", "X-Api-Key: new", "--client-id", "cid-new",
                    "--client-secret-env", "WORK_SECRET", "--db", db)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (f"run-inspector: {URL} was not saved: the system keyring did not keep the sign-in's "
                           "client secret (PasswordSetError: refused for this entry), so its settings and "
                           "its secrets were left as they were. Unlock the keyring and save it again, or save it "
                           "without that secret and give it on each call.\n")
    assert cli_here("servers", "--json", "--db", db).stdout == before
    assert file_keyring.entries() == kept
    keyring.set_keyring(RefusingEntries(file_keyring.path, " X-Api-Key"))  # the key refused, the client secret kept
    done = cli_here("servers", "set", URL, "--client-id", "cid-new", "--client-secret-env", "WORK_SECRET",
                    "--header", "X-Api-Key: new", "--db", db)
    assert done.returncode == 1 and "did not keep the secret X-Api-Key (PasswordSetError" in done.stderr
    assert cli_here("servers", "--json", "--db", db).stdout == before
    assert file_keyring.entries() == kept


@pytest.mark.parametrize("as_json", [False, True])
def test_a_secret_servers_set_drops_that_the_keyring_does_not_remove_is_said_to_be_still_there(
        tmp_path: Path, file_keyring: FileKeyring, as_json: bool) -> None:
    """The change is kept (the header is no longer sent), as ``servers import`` and ``servers remove`` keep theirs;
    the secret left behind in the keyring is said, and the command ends 1 (it said nothing, and ended 0)."""
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: k3y", "--db", db).returncode == 0
    _troubled(file_keyring, delete="KeyringLocked")
    done = cli_here("servers", *(["--json"] if as_json else []), "set", URL, "--header", "X-Team: blue",
                    "--db", db)
    said = (f"Saved {URL}. The system keyring did not remove the secret X-Api-Key of {URL} (KeyringLocked: the test "
            "keyring refuses to delete (KeyringLocked)): it is still in the keyring (service run-inspector, entry "
            f"“{URL} X-Api-Key”).")
    assert done.returncode == 1, done.stderr
    if as_json:
        assert json.loads(done.stdout)["error"] == {"kind": "failed", "message": said}
    else:
        assert (done.stdout, done.stderr) == ("", f"run-inspector: {said}\n")
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "k3y"}
    listed = json.loads(cli_here("servers", "--json", "--db", db).stdout)
    assert [header["name"] for server in listed["servers"] for header in server["headers"]] == ["X-Team"]


def test_a_secret_variable_a_new_command_drops_that_the_keyring_does_not_remove_is_said(
        tmp_path: Path, file_keyring: FileKeyring) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", "notes", "--command", "notes-server", "--env", "API_TOKEN=s3cr3t",
                    "--db", db).returncode == 0
    kept = file_keyring.entries()
    _troubled(file_keyring, delete="KeyringLocked")
    done = cli_here("servers", "set", "notes", "--command", "notes-server --fast", "--db", db)
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("run-inspector: Saved notes. The system keyring did not remove the secret "
                                  "API_TOKEN of notes (KeyringLocked: "), done.stderr
    assert "it is still in the keyring (service run-inspector, entry “" in done.stderr, done.stderr
    assert file_keyring.entries() == kept


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("at", ["COMMIT", "inspector.cli.server_saving:HeldKeeper.done"])
def test_a_stop_as_the_save_is_kept_changes_nothing(tmp_path: Path, file_keyring: FileKeyring, stop: str,
                                                    at: str) -> None:
    """Landing as the settings were committed, the stop had the keyring's entries put back all the same (the new
    settings beside the old key, the new one gone) and said they were left as they were; landing as the secrets the
    change dropped were removed, Ctrl-C said 'Cancelled (Ctrl-C) before the command had done its work' of the server
    saved, the dropped key left in the keyring (SIGTERM killed it there, status -15, saying nothing)."""
    from tests.integration.test_cli_late_stop import stopped_at
    from tests.support.file_keyring import BACKEND_NAME, FILE_ENV

    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: old", "--db", db).returncode == 0
    done = stopped_at(stop, at, "servers", "set", URL, "--header", "Authorization: Bearer new", "--budget", "9",
                      "--db", db, env={FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": BACKEND_NAME})
    assert (done.returncode, done.stdout, done.stderr) == (0, f"Saved {URL}.\n", "")
    [server] = json.loads(cli_here("servers", "--json", "--db", db).stdout)["servers"]
    assert ([header["name"] for header in server["headers"]], server["budget_s"]) == (["Authorization"], 9)
    assert file_keyring.entries() == {f"{URL} Authorization": "Bearer new"}


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("at", ["inspector.store.keyring_entries:KeyringEntries.write",
                                "inspector.store.signin_vault:KeyringVault.keep_client_secret"])
def test_a_stop_as_the_keyring_writes_a_secret_has_it_put_back(tmp_path: Path, file_keyring: FileKeyring, stop: str,
                                                                at: str) -> None:
    """Landing as the keyring's write returned (the first: the key; or the client secret), the entry was not yet
    noted as written: the new value stayed in the keyring beside the old settings, the command saying 'its settings
    and its secrets were left as they were'."""
    from tests.integration.test_cli_late_stop import stopped_at
    from tests.support.file_keyring import BACKEND_NAME, FILE_ENV

    db = str(tmp_path / "runs.db")
    keyring_env = {FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": BACKEND_NAME}
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: old", "--client-id", "cid-old",
                    "--client-secret-env", "WORK_SECRET", "--db", db, env={"WORK_SECRET": "old-secret"}).returncode == 0
    before, kept = cli_here("servers", "--json", "--db", db).stdout, file_keyring.entries()
    done = stopped_at(stop, at, "servers", "set", URL, "--header", "X-Api-Key: new", "--client-id", "cid-new",
                      "--client-secret-env", "WORK_SECRET", "--db", db,
                      env={**keyring_env, "WORK_SECRET": "new-secret"}, after=True)
    assert done.returncode == 130 and f"before {URL} was saved: its settings and its secrets were left as they were" \
        in done.stderr, done.stderr
    assert cli_here("servers", "--json", "--db", db).stdout == before
    assert file_keyring.entries() == kept


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
@pytest.mark.parametrize(("at", "removed"), [("inspector.store.servers:ServerRegistry.remove_server", False),
                                             ("COMMIT", True),
                                             ("inspector.store.signin_vault:KeyringVault.forget", True)])
def test_a_stop_while_a_server_is_removed_removes_it_whole_or_not_at_all(tmp_path: Path, file_keyring: FileKeyring,
                                                                         stop: str, at: str, removed: bool) -> None:
    """Its sign-in's client secret and settings went first, committed on their own: a stop before the server went
    left it configured without them (SIGTERM killed the process there, saying nothing), and one once the server was
    removed, as its sign-in's tokens went, said 'before the command had done its work'."""
    from tests.integration.test_cli_late_stop import stopped_at
    from tests.support.file_keyring import BACKEND_NAME, FILE_ENV

    db = str(tmp_path / "runs.db")
    assert cli_here("servers", "set", URL, "--header", "X-Api-Key: k3y", "--client-id", "cid", "--client-secret-env",
                    "WORK_SECRET", "--db", db, env={"WORK_SECRET": "s3cr3t"}).returncode == 0
    before, kept = cli_here("servers", "--json", "--db", db).stdout, file_keyring.entries()
    done = stopped_at(stop, at, "servers", "remove", URL, "--db", db,
                      env={FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": BACKEND_NAME})
    if removed:
        assert (done.returncode, done.stdout, done.stderr) == (0, f"Removed {URL}; its runs stay stored.\n", "")
        assert json.loads(cli_here("servers", "--json", "--db", db).stdout) == {"servers": []}
        assert file_keyring.entries() == {}
    else:
        said = ("Ended by a signal (SIGTERM)" if stop == "SIGTERM" else "Cancelled (Ctrl-C)") + \
            " before the command had done its work."
        assert (done.returncode, done.stderr) == (130, f"run-inspector: {said}\n")
        assert cli_here("servers", "--json", "--db", db).stdout == before
        assert file_keyring.entries() == kept
