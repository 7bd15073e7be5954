"""``servers import`` and ``agent`` on a system keyring that refuses, said as ``servers set`` says it:
the keyring's answer named, exit status 1 (``failed``) where a secret was not kept or not given, and
nothing sent without the key it needs. Real processes that find the test keyring
(tests/support/file_keyring.py ``TroubledKeyring``) through ``PYTHON_KEYRING_BACKEND``; real SQLite;
a fake OpenAI-compatible model on 127.0.0.1."""

from __future__ import annotations

import json
from pathlib import Path

import keyring
import pytest

from inspector.mcp import ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from inspector.store import RunStore, ServerRegistry
from inspector.store.secrets import KeyringSecretKeeper
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli, cli_here
from tests.support.fake_chat_model import FakeChatModel, answer
from tests.support.file_keyring import TROUBLE_ENV, TROUBLED_NAME, FileKeyring, RefusingEntries, TroubledKeyring

URL = "http://127.0.0.1:9/mcp"
LOCKED = "KeyringLocked: the test keyring refuses to {call} (KeyringLocked)"


def _troubled(monkeypatch: pytest.MonkeyPatch, trouble: str) -> None:
    """Processes started from here find TroubledKeyring, refusing as told."""
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", TROUBLED_NAME)
    monkeypatch.setenv(TROUBLE_ENV, trouble)


@pytest.mark.parametrize("language", ["en", "de"])
def test_servers_import_adds_nothing_when_the_keyring_does_not_keep_a_secret_and_ends_1(
        tmp_path: Path, file_keyring: FileKeyring, monkeypatch: pytest.MonkeyPatch, language: str) -> None:
    """All or nothing, as servers set: the servers were added without the secrets the keyring refused (a later call
    asked for them, or went out without them), and the server one of them replaced had gone with its key."""
    db = str(tmp_path / "runs.db")
    with RunStore.open(Path(db)) as store:
        ServerRegistry(store.db, KeyringSecretKeeper()).save_server("http://127.0.0.1:8/mcp", name="vault",
                                                                    headers={"X-Api-Key": "old"})
    before = cli("servers", "--json", "--db", db).stdout
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": {
        "vault": {"url": URL + "?key=q", "headers": {"X-Api-Key": "k3y", "X-Team": "blue"}},
        "notes": {"command": "notes-server", "env": {"API_TOKEN": "s3cr3t"}}}}))
    _troubled(monkeypatch, "set=KeyringLocked")
    done = cli("--lang", language, "servers", "import", str(config), "--yes", "--db", db)
    assert done.returncode == 1, done.stderr
    locked = LOCKED.format(call="set")
    said = {"en": ("run-inspector: Nothing was added: the configured servers and their secrets were left as they "
                   "were. The system keyring did not keep the secret X-Api-Key and the query in the address of vault "
                   f"({locked}). The system keyring did not keep the secret API_TOKEN of notes ({locked}). Unlock the "
                   "keyring and import the file again, or take those secrets out of the file and give them on each "
                   "call.\n"),
            "de": ("run-inspector: Es wurde nichts hinzugefügt: Die eingerichteten Server und ihre Geheimnisse sind "
                   "unverändert. Der System-Schlüsselbund hat das Geheimnis X-Api-Key und die Abfrage in der "
                   f"Adresse von vault nicht behalten ({locked}). Der System-Schlüsselbund hat das Geheimnis API_TOKEN "
                   f"von notes nicht behalten ({locked}). Entsperren Sie den Schlüsselbund und importieren Sie die "
                   "Datei erneut, oder nehmen Sie diese Geheimnisse aus der Datei und geben Sie sie bei jedem Aufruf "
                   "an.\n")}
    assert done.stderr == said[language]
    assert "k3y" not in done.stdout + done.stderr and "s3cr3t" not in done.stdout + done.stderr
    assert file_keyring.entries() == {"http://127.0.0.1:8/mcp X-Api-Key": "old"}
    assert cli("servers", "--json", "--db", db).stdout == before  # nothing added, nothing replaced
    as_json = cli("servers", "--json", "import", str(config), "--yes", "--db", db)
    assert as_json.returncode == 1
    assert json.loads(as_json.stdout)["error"]["message"].startswith(
        "Nothing was added: the configured servers and their secrets were left as they were. The system keyring did "
        f"not keep the secret X-Api-Key and the query in the address of vault ({locked})")


def test_servers_import_puts_back_the_secrets_kept_before_a_refusal(tmp_path: Path,
                                                                     file_keyring: FileKeyring) -> None:
    """The first server's key was kept, the second's refused: the first server stayed added with its new key."""
    db = str(tmp_path / "runs.db")
    assert cli("servers", "set", URL, "--header", "X-Api-Key: old", "--db", db).returncode == 0
    before = cli("servers", "--json", "--db", db).stdout
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "vault": {"url": URL, "headers": {"X-Api-Key": "new"}},
        "notes": {"command": "notes-server", "env": {"API_TOKEN": "s3cr3t"}}}}))
    keyring.set_keyring(RefusingEntries(file_keyring.path, " env:API_TOKEN"))
    done = cli_here("servers", "import", str(config), "--yes", "--db", db)
    assert done.returncode == 1
    assert done.stderr.startswith("run-inspector: Nothing was added")
    assert "did not keep the secret API_TOKEN of notes (PasswordSetError: refused for this entry)" in done.stderr
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "old"}
    assert cli("servers", "--json", "--db", db).stdout == before


def test_servers_import_replacing_a_server_says_the_secrets_the_keyring_did_not_remove(
        tmp_path: Path, file_keyring: FileKeyring, monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(Path(db)) as store:
        ServerRegistry(store.db, KeyringSecretKeeper()).save_server(URL, name="vault", headers={"X-Api-Key": "k3y"})
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"vault": {"url": "http://127.0.0.1:8/mcp"}}}))
    _troubled(monkeypatch, "delete=KeyringLocked")
    done = cli("servers", "import", str(config), "--yes", "--db", db)
    assert done.returncode == 1, done.stderr
    assert done.stderr == ("run-inspector: Added 1 server. The system keyring did not remove the secret X-Api-Key of "
                           f"vault ({LOCKED.format(call='delete')}): it is still in the keyring (service "
                           f"run-inspector, entry “{URL} X-Api-Key”).\n")
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "k3y"}


def test_servers_import_on_a_keyring_that_keeps_them_is_as_before(tmp_path: Path, file_keyring: FileKeyring,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"notes": {"command": "notes-server", "env": {"API_TOKEN": "s"}}}}))
    _troubled(monkeypatch, "wait=0")
    done = cli("servers", "import", str(config), "--yes", "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    key = ServerEndpoint.for_command(ServerCommand("notes-server", (), {"API_TOKEN": "s"})).key
    assert file_keyring.entries() == {f"{key} env:API_TOKEN": "s"}


@pytest.fixture
def model():
    fake = FakeChatModel(lambda body: answer("Nothing to do."))
    with serve_asgi(fake.app(), path="/v1") as url:
        yield fake, url


def _kept_key(model_url: str) -> None:
    from inspector.agent.chat_model import completions_url
    from inspector.mcp import public_url

    assert KeyringSecretKeeper().save(public_url(completions_url(model_url)), "api-key", "sk-kept")


def test_an_agent_whose_key_the_keyring_will_not_give_sends_nothing(tmp_path: Path, file_keyring: FileKeyring,
                                                                    monkeypatch: pytest.MonkeyPatch, model,
                                                                    demo_server) -> None:
    fake, model_url = model
    _kept_key(model_url)
    monkeypatch.delenv("RUN_INSPECTOR_MODEL_API_KEY", raising=False)
    _troubled(monkeypatch, "get=KeyringLocked")
    db = tmp_path / "runs.db"
    done = cli("agent", "--model-url", model_url, "--model", "m", "--server", demo_server.url,
               "--db", str(db), "hi")
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stderr == (f"run-inspector: The system keyring did not give the API key for {model_url}/chat/"
                           f"completions ({LOCKED.format(call='get')}); nothing was sent. Unlock the keyring, or give "
                           "the key with --api-key-env (or --ask-api-key at a terminal).\n")
    assert fake.requests == []
    assert not db.exists() or RunStore.open(db).db.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0] == 0
    _troubled(monkeypatch, "wait=0")  # the keyring gives it: sent with it
    given = cli("agent", "--model-url", model_url, "--model", "m", "--server", demo_server.url,
                "--db", str(db), "hi")
    assert [headers["authorization"] for headers in fake.headers] == ["Bearer sk-kept"], given.stderr


def test_an_agent_key_typed_that_the_keyring_does_not_keep_is_said_and_ends_1(
        tmp_path: Path, file_keyring: FileKeyring, monkeypatch: pytest.MonkeyPatch, capsys, model,
        demo_server) -> None:
    """At a terminal (the prompt stood in for: getpass needs a real one): the run goes on with the
    key typed, the sentence says it was not kept, and the command ends with status 1."""
    import getpass
    import sys

    from inspector.cli import main

    fake, model_url = model
    keyring.set_keyring(TroubledKeyring(file_keyring.path, wait_s=0, refuse={"set": "KeyringLocked"}))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(getpass, "getpass", lambda prompt: "sk-typed")
    status = main(["--lang", "en", "agent", "--model-url", model_url, "--model", "m", "--server",
                   demo_server.url, "--db", str(tmp_path / "runs.db"), "--ask-api-key", "hi"])
    out, err = capsys.readouterr()
    assert status == 1, err
    assert (f"run-inspector: The system keyring did not keep the API key for {model_url}/chat/completions "
            f"({LOCKED.format(call='set')}): it is used for this run only. Unlock the keyring and give it again with "
            "--ask-api-key to keep it.\n") in err
    assert [headers["authorization"] for headers in fake.headers] == ["Bearer sk-typed"]
    assert file_keyring.entries() == {} and "sk-typed" not in out + err


@pytest.mark.parametrize(("stop", "said"), [
    ("SIGTERM", "Ended by a signal (SIGTERM) before the servers of {file} were added: nothing was added."),
    ("SIGINT", "Cancelled (Ctrl-C) before the servers of {file} were added: nothing was added."),
])
def test_a_stop_half_way_through_an_import_adds_nothing(tmp_path: Path, file_keyring: FileKeyring, stop: str,
                                                        said: str) -> None:
    """Raised once the first server is saved with its key: it stayed added (SIGTERM killed the process there,
    status -15), the second not."""
    from tests.integration.test_cli_late_stop import stopped_at
    from tests.support.file_keyring import BACKEND_NAME, FILE_ENV

    db = str(tmp_path / "runs.db")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "vault": {"url": URL, "headers": {"X-Api-Key": "k3y"}},
        "notes": {"command": "notes-server", "env": {"API_TOKEN": "s3cr3t"}}}}))
    keyring_env = {FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": BACKEND_NAME}
    done = stopped_at(stop, "inspector.store.servers:ServerRegistry.save_server", "servers", "import", str(config),
                      "--yes", "--db", db, env=keyring_env, after=True)
    assert done.returncode == 130 and done.stderr.endswith(f"run-inspector: {said.format(file=config)}\n")
    assert file_keyring.entries() == {}
    with RunStore.open(Path(db)) as store:
        assert ServerRegistry(store.db).all() == []


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_as_the_import_is_kept_changes_nothing(tmp_path: Path, file_keyring: FileKeyring, stop: str) -> None:
    """Landing as the servers were committed, the stop had their secrets taken out of the keyring all the same and
    said 'nothing was added' of the servers added, now without their keys."""
    from tests.integration.test_cli_late_stop import stopped_at
    from tests.support.file_keyring import BACKEND_NAME, FILE_ENV

    db = str(tmp_path / "runs.db")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"vault": {"url": URL, "headers": {"X-Api-Key": "k3y"}}}}))
    keyring_env = {FILE_ENV: str(file_keyring.path), "PYTHON_KEYRING_BACKEND": BACKEND_NAME}
    done = stopped_at(stop, "COMMIT", "servers", "import", str(config), "--yes", "--db", db, env=keyring_env)
    assert done.returncode == 0 and done.stdout.endswith("Added 1 server.\n"), (done.returncode, done.stderr)
    assert done.stderr == ""
    assert file_keyring.entries() == {f"{URL} X-Api-Key": "k3y"}
    with RunStore.open(Path(db)) as store:
        assert [server.url for server in ServerRegistry(store.db).all()] == [URL]


def test_a_server_listed_twice_in_the_file_is_added_once_with_its_secrets(tmp_path: Path,
                                                                         file_keyring: FileKeyring) -> None:
    """The same address (or command) under two names: the later entry replaced the earlier as it was added (its key
    and query dropped from the keyring), and the import said 'Added 2 servers', 'The query in the address of vault is
    kept as a secret' of a server no longer there."""
    db = str(tmp_path / "runs.db")
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {
        "vault": {"url": URL + "?key=q", "headers": {"X-Api-Key": "k3y"}},
        "vault-read": {"url": URL, "headers": {"X-Team": "blue"}},
        "notes": {"command": "notes-server", "env": {"API_TOKEN": "s3cr3t"}},
        "notes-again": {"command": "notes-server"}}}))
    done = cli_here("servers", "import", str(config), "--yes", "--db", db)
    assert done.returncode == 0, done.stderr
    assert ("Skipped 2 entries:\n  vault-read: the same server as vault, listed before it (a server is configured "
            "once)\n  notes-again: the same server as notes, listed before it (a server is configured once)\n"
            "Added 2 servers.\n") in done.stdout
    with RunStore.open(Path(db)) as store:
        assert sorted(server.name or "" for server in ServerRegistry(store.db).all()) == ["notes", "vault"]
    assert file_keyring.entries()[f"{URL} X-Api-Key"] == "k3y" and file_keyring.entries()[f"{URL} ?query"] == "key=q"
    assert "s3cr3t" in file_keyring.entries().values()
    as_json = json.loads(cli_here("servers", "--json", "import", str(config), "--yes", "--db", db).stdout)
    assert [server["name"] for server in as_json["servers"]] == ["vault", "notes"]
    assert [skipped["name"] for skipped in as_json["skipped"]] == ["vault-read", "notes-again"]
