"""Every sentence the command line says of the window's demo entry names it as `servers` lists it: "Demo-Server"
in German. The stored budget that cannot be used, the keyring that would not give its secret, `subscribe`'s
server without a stream of its own and its session not opened in time, and `signout` said the stored
"Demo server" in German sentences. Real servers on 127.0.0.1, a real keyring backend, real SQLite."""

from __future__ import annotations

import keyring
import pytest

from inspector.i18n.entry_names import DEMO_ENTRY_NAME
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.store.secrets import KeyringSecretKeeper
from tests.support.asgi_server import ReservedPort
from tests.support.cli_process import cli_here
from tests.support.fault_server import FaultServer
from tests.support.file_keyring import FileKeyring, TroubledKeyring

#: How each language names the demo entry in a sentence.
SHOWN = {"en": "Demo server", "de": "Demo-Server"}


def _demo_entry(url: str, **settings: object) -> None:
    store = RunStore.open(resolve_db_path())
    ServerRegistry(store.db, KeyringSecretKeeper()).save_server(url, name=DEMO_ENTRY_NAME, **settings)
    store.close()


def _refused_address() -> str:
    return f"http://127.0.0.1:{ReservedPort().port}/mcp"


@pytest.mark.parametrize(("language", "said"), [
    ("en", "run-inspector: the budget stored for Demo server, 1E308 s, cannot be used"),
    ("de", "run-inspector: das für Demo-Server gespeicherte Budget, 1E308 s, kann nicht verwendet werden")])
def test_the_budget_stored_that_cannot_be_used_names_the_demo_entry_as_shown(language: str, said: str) -> None:
    _demo_entry(_refused_address())
    store = RunStore.open(resolve_db_path())
    with store.db.conn:
        store.db.conn.execute("UPDATE servers SET budget_s = 1e308")  # as an older version kept it
    store.close()
    called = cli_here("--lang", language, "call", SHOWN[language], "echo")
    assert called.stderr.splitlines()[0].startswith(said), called.stderr


@pytest.mark.parametrize(("language", "said"), [
    ("en", "The system keyring did not give the secret X-Api-Key of Demo server (KeyringLocked"),
    ("de", "Der System-Schlüsselbund hat das Geheimnis X-Api-Key von Demo-Server nicht herausgegeben")])
def test_a_secret_the_keyring_will_not_give_names_the_demo_entry_as_shown(file_keyring: FileKeyring, language: str,
                                                                         said: str) -> None:
    _demo_entry(_refused_address(), headers={"X-Api-Key": "k3y"})
    keyring.set_keyring(TroubledKeyring(file_keyring.path, wait_s=0, refuse={"get": "KeyringLocked"}))
    refused = cli_here("--lang", language, "call", SHOWN[language], "echo")
    assert refused.returncode == 1 and refused.stderr.startswith(f"run-inspector: {said}"), refused.stderr


def _held(exchange) -> None:
    exchange.hold_open()  # the stream never opens


@pytest.mark.parametrize(("language", "get", "extra", "said"), [
    ("en", None, (), "The server Demo server offers no stream of its own (HTTP 405), so it cannot send updates."),
    ("de", None, (), "Der Server Demo-Server bietet keinen eigenen Stream an (HTTP 405) und kann daher keine "
                     "Aktualisierungen senden."),
    ("en", _held, ("--budget", "1"), "The server Demo server did not open a listening session within the budget."),
    ("de", _held, ("--budget", "1"), "Der Server Demo-Server hat innerhalb des Budgets keine Empfangssitzung "
                                     "geöffnet.")])
def test_subscribe_names_the_demo_entry_as_shown(language: str, get, extra: tuple[str, ...], said: str) -> None:
    with FaultServer("session", get=get) as server:  # without ``get`` its GET is answered 405: no stream of its own
        _demo_entry(server.url)
        subscribed = cli_here("--lang", language, "resources", "subscribe", SHOWN[language], "test://watched",
                              "--no-store", *extra)
    assert subscribed.returncode == 1 and subscribed.stderr == f"run-inspector: {said}\n", subscribed.stderr


@pytest.mark.parametrize(("language", "said"), [
    ("en", "No sign-in to Demo server was kept here: there was nothing to forget.\n"),
    ("de", "Hier war keine Anmeldung bei Demo-Server aufbewahrt: Es gab nichts zu vergessen.\n")])
def test_signout_names_the_demo_entry_as_shown(file_keyring: FileKeyring, language: str, said: str) -> None:
    _demo_entry(_refused_address())
    signed_out = cli_here("--lang", language, "signout", SHOWN[language])
    assert signed_out.returncode == 0 and signed_out.stdout == said, signed_out
    as_json = cli_here("--lang", language, "signout", SHOWN[language], "--json")
    assert f'"server": "{DEMO_ENTRY_NAME}"' in as_json.stdout  # --json: as stored, in every language
