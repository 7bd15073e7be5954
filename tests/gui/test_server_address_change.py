"""Editing a server's address in the window (Server › Edit…): what the keyring keeps for it moves.

Its secret headers, its address's secret query and its sign-in's client secret are shown as kept in
the dialog, so the server at its new address is sent them, and nothing is left under the old address.
The old address's sign-in tokens are forgotten (the new address signs in afresh) unless another
configured server is at the old resource and uses them. Real SQLite, the file keyring
(tests/conftest.py ``file_keyring``), real widgets offscreen.
"""

from __future__ import annotations

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.mcp.signin.model import TokenSet
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.store.secrets import KeyringSecretKeeper
from inspector.store.signin_settings import SignInSetup, StoredSignIn
from inspector.store.signin_vault import KeyringVault, client_secret_account, tokens_account

from .test_server_dialog_signin import in_dialog

OLD = "http://127.0.0.1:9/mcp"
NEW = "http://127.0.0.1:9/moved"
ISSUER = "https://auth.example.com"
SECRET = "client-secret-5e1d"


def _window(qtbot, file_keyring, *others: str):
    """The window with OLD configured as a user keeps it (secret header, secret query, a sign-in
    client with its secret, tokens), and ``others`` configured beside it."""
    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings

    store = RunStore.open(resolve_db_path())
    secrets = KeyringSecretKeeper()
    registry = ServerRegistry(store.db, secrets)
    registry.save_server(OLD, name="moving", headers={"X-Api-Key": "k3y-abc", "X-Team": "blue"},
                         query="api_key=q-abc")
    for other in others:
        registry.save_server(other, name="beside")
    vault = KeyringVault(file_keyring)
    StoredSignIn(store.db, vault).save(OLD, SignInSetup("cid-1", scope="read"), client_secret=SECRET)
    vault.keep_tokens(TokenSet("ACCESS-abc", ISSUER, OLD))
    window = MainWindow(store, resolve_db_path(), AppSettings(), secrets=secrets)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    window.admin.reload_servers(select_url=OLD)
    # The keyring is read on the worker once the window has painted: Edit… opens once it has been.
    qtbot.waitUntil(lambda: window.admin.secrets.known(OLD), timeout=5000)
    return window, store


def _move(qtbot, window) -> dict:
    def new_address(dialog: ServerDialog, seen: dict) -> bool:
        seen["shown"] = (not dialog.url_query.row.isHidden(), [row.value.text() for row in dialog.header_rows])
        dialog.url.setText(NEW)
        return True

    seen = in_dialog(new_address)
    window.admin.edit_current()
    assert seen.get("accepted"), seen
    # Selected at its new address once its sign-in's client secret is kept there (on the worker).
    qtbot.waitUntil(lambda: window.admin.current() is not None and window.admin.current().url == NEW, timeout=5000)
    return seen


def test_a_new_address_keeps_the_secrets_and_leaves_nothing_under_the_old_one(qtbot, file_keyring) -> None:
    window, store = _window(qtbot, file_keyring)
    try:
        seen = _move(qtbot, window)
        assert seen["shown"] == (True, ["k3y-abc", "blue"])  # the dialog said they are kept
        # The client secret moves on the worker; then nothing of OLD is left in the keyring.
        qtbot.waitUntil(lambda: not any(OLD in entry for entry in file_keyring.entries()), timeout=5000)
        assert file_keyring.entries() == {f"{NEW} X-Api-Key": "k3y-abc", f"{NEW} ?query": "api_key=q-abc",
                                          client_secret_account(NEW): SECRET}
        record = window.admin.current()
        assert record.url == NEW and [row.url for row in window.admin.registry.all()] == [NEW]
        endpoint = window.admin.endpoint_for(record)  # what the next operation is sent
        assert endpoint.url == f"{NEW}?api_key=q-abc" and endpoint.headers == {"X-Api-Key": "k3y-abc",
                                                                                "X-Team": "blue"}
        assert StoredSignIn(store.db).setup(NEW) == SignInSetup("cid-1", scope="read", client_secret_kept=True)
    finally:
        window.shut_down()
        store.close()


def test_the_old_sign_in_stays_while_another_configured_server_uses_it(qtbot, file_keyring) -> None:
    window, store = _window(qtbot, file_keyring, OLD + "/")  # …/mcp and …/mcp/ sign in as one resource
    try:
        _move(qtbot, window)
        qtbot.waitUntil(lambda: client_secret_account(OLD) not in file_keyring.entries(), timeout=5000)
        assert tokens_account(OLD) in file_keyring.entries()
        assert not any(entry.startswith(f"{OLD} ") for entry in file_keyring.entries())
    finally:
        window.shut_down()
        store.close()
