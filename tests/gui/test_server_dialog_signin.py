"""The server dialog's Sign-in (OAuth) section: what ``servers set --client-id ...`` sets, from the window.

Real SQLite, the file keyring (tests/conftest.py ``file_keyring``), real widgets offscreen; the
end-to-end test signs in as the client set in the dialog against the loopback authorization server.
"""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QLineEdit

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.language import switch_language
from inspector.mcp.signin.model import TokenSet
from inspector.store import RunStore, resolve_db_path
from inspector.store.signin_settings import SignInSetup, StoredSignIn
from inspector.store.signin_vault import KeyringVault, client_secret_account
from tests.support.auth_config import PRE_REGISTERED_ID, PRE_REGISTERED_SECRET, AuthConfig, pre_registered
from tests.support.auth_server import serve_auth_server
from tests.support.secret_search import assert_nowhere

from .test_models_and_accessibility import _unnamed
from .test_signin_window import asked_view, open_window, row_texts  # noqa: F401 - open_window is a fixture

URL = "http://127.0.0.1:9/mcp"
SECRET = "dialog-secret-7f3a91c2"
SHOTS = Path(__file__).parent / "screenshots"  # git-ignored: for looking at, not for comparing


def key_file(folder: Path) -> Path:
    key = ec.generate_private_key(ec.SECP256R1())
    path = folder / "client.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption()))
    return path


def in_dialog(act) -> dict:
    """Run ``act(dialog)`` while the server dialog's exec() runs; it returns True to accept (else
    the dialog is cancelled). What it noted is returned."""
    seen: dict = {}

    def step() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ServerDialog):
            QTimer.singleShot(20, step)
            return
        try:
            accept = act(dialog, seen)
        except Exception as error:  # noqa: BLE001 - said by the test's asserts, never a dialog left open
            seen["error"] = error
            accept = False
        if accept:
            dialog.accept()
            seen["accepted"] = dialog.result() == ServerDialog.DialogCode.Accepted
        else:
            dialog.reject()

    QTimer.singleShot(20, step)
    return seen


def stored(url: str = URL) -> SignInSetup | None:
    with RunStore.open(resolve_db_path()) as store:
        return StoredSignIn(store.db).setup(url)


def kept_secret(file_keyring, url: str = URL) -> str | None:
    return file_keyring.entries().get(client_secret_account(url))


def fill(dialog: ServerDialog, key: Path) -> None:
    fields = dialog.signin
    fields.toggle.setChecked(True)
    fields.client_id.setText("cid-dialog-7")
    fields.secret.setText(SECRET)
    fields.metadata_url.setText("https://app.example.com/client.json")
    fields.grant.setCurrentIndex(fields.grant.findData("client-credentials"))
    fields.auth_method.setCurrentIndex(fields.auth_method.findData("private_key_jwt"))
    fields.key_file.setText(str(key))
    fields.scope.setText("read write")


def test_set_save_reopen_the_secret_only_in_the_keyring_then_cleared(make_window, qtbot, file_keyring,
                                                                       tmp_path: Path) -> None:
    window = make_window((URL, "remote"))
    key = key_file(tmp_path)

    def set_all(dialog: ServerDialog, seen: dict) -> bool:
        assert not dialog.signin.unfolded  # nothing set: folded away
        assert dialog.signin.secret.echoMode() == QLineEdit.EchoMode.Password
        fill(dialog, key)
        return True

    seen = in_dialog(set_all)
    window.admin.edit_current()
    assert seen["accepted"]
    qtbot.waitUntil(lambda: kept_secret(file_keyring) == SECRET, timeout=5000)
    assert stored() == SignInSetup("cid-dialog-7", "private_key_jwt", "https://app.example.com/client.json",
                                   "client-credentials", "read write", str(key), client_secret_kept=True)
    # The secret is in the keyring only: nowhere in the database's bytes or tables.
    assert_nowhere([SECRET], database=resolve_db_path(), processes=False)
    # The next operation signs in with it (the endpoint is built anew once the secret is kept).
    qtbot.waitUntil(lambda: window.admin.endpoint_for(window.admin.current()).signin is not None, timeout=5000)
    settings = window.admin.endpoint_for(window.admin.current()).signin
    assert (settings.client_id, settings.client_secret, settings.grant) == ("cid-dialog-7", SECRET,
                                                                            "client-credentials")
    assert "PRIVATE KEY" in settings.client_key_pem

    def look(dialog: ServerDialog, seen: dict) -> bool:
        fields = dialog.signin
        seen["values"] = (fields.unfolded, fields.client_id.text(), fields.secret.text(), fields.metadata_url.text(),
                          fields.grant.currentData(), fields.auth_method.currentData(), fields.key_file.text(),
                          fields.scope.text())
        seen["placeholder"] = fields.secret.placeholderText()
        seen["unnamed"] = _unnamed(dialog)
        fields.clear_secret.click()
        return True

    seen = in_dialog(look)
    window.admin.edit_current()
    assert seen["values"] == (True, "cid-dialog-7", "", "https://app.example.com/client.json", "client-credentials",
                              "private_key_jwt", str(key), "read write")
    assert seen["placeholder"] == "kept in the keyring" and seen["unnamed"] == []
    # Clear: the secret goes from the keyring, the rest stays.
    qtbot.waitUntil(lambda: kept_secret(file_keyring) is None, timeout=5000)
    assert stored() == SignInSetup("cid-dialog-7", "private_key_jwt", "https://app.example.com/client.json",
                                   "client-credentials", "read write", str(key), client_secret_kept=False)


def test_an_empty_client_id_removes_the_secret(make_window, qtbot, file_keyring) -> None:
    window = make_window((URL, "remote"))
    with RunStore.open(resolve_db_path()) as store:
        StoredSignIn(store.db, window.engine.signins.vault).save(URL, SignInSetup("cid-1"), client_secret=SECRET)
    assert kept_secret(file_keyring) == SECRET

    def empty(dialog: ServerDialog, seen: dict) -> bool:
        seen["placeholder"] = dialog.signin.secret.placeholderText()
        dialog.signin.client_id.setText("")
        return True

    seen = in_dialog(empty)
    window.admin.edit_current()
    assert seen["placeholder"] == "kept in the keyring"
    qtbot.waitUntil(lambda: kept_secret(file_keyring) is None, timeout=5000)
    setup = stored()
    assert setup is not None and not setup.configured


def test_what_cannot_be_used_is_refused_with_a_sentence_and_nothing_stored_is_lost(
        make_window, qtbot, file_keyring, tmp_path: Path) -> None:
    window = make_window((URL, "remote"))
    key = key_file(tmp_path)
    before = SignInSetup("cid-1", "private_key_jwt", None, None, "read", str(key))
    with RunStore.open(resolve_db_path()) as store:
        StoredSignIn(store.db, window.engine.signins.vault).save(URL, before, client_secret=SECRET)
    not_a_key = tmp_path / "not-a-key.pem"
    not_a_key.write_text("just some text\n")

    def bad(dialog: ServerDialog, seen: dict) -> bool:
        fields = dialog.signin
        fields.key_file.setText(str(not_a_key))
        fields.metadata_url.setText("http://example.com/client.json")
        fields.secret.setText("another-secret-value-55")
        dialog.accept()  # refused: the dialog stays open and says why, under each field
        seen["open"] = dialog.isVisible()
        seen["key"] = (fields.key_error.text(), fields.key_error.isVisible())
        seen["metadata"] = (fields.metadata_error.text(), fields.metadata_error.isVisible())
        fields.key_file.setText("")
        fields.metadata_url.setText("")
        fields.grant.setCurrentIndex(fields.grant.findData("client-credentials"))
        fields.client_id.setText("")
        dialog.accept()
        seen["id"] = fields.id_error.text()
        seen["no key"] = fields.key_error.text()
        seen["open"] = seen["open"] and dialog.isVisible()
        dialog.grab().save(str(tmp_path / "refused.png"))
        return False

    seen = in_dialog(bad)
    window.admin.edit_current()
    assert seen["open"]
    assert seen["key"] == (f"The client key {not_a_key} holds no PEM private key (-----BEGIN ... PRIVATE KEY-----).",
                           True)
    assert seen["metadata"][1] and "needs an https address with a path" in seen["metadata"][0]
    assert seen["id"] == ("A client secret belongs to a client: give the client ID too.\n"
                          "Signing in with client credentials needs the client ID.")
    assert seen["no key"] == "private_key_jwt signs with a key: choose the client's key file."
    # Nothing was saved: the stored settings and the kept secret are as they were.
    assert stored() == SignInSetup("cid-1", "private_key_jwt", None, None, "read", str(key), client_secret_kept=True)
    assert kept_secret(file_keyring) == SECRET


def test_a_command_server_has_no_sign_in_section(qtbot) -> None:
    dialog = ServerDialog(url=URL)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.signin.toggle.setChecked(True)
    assert dialog.signin.toggle.isVisible() and dialog.signin.client_id.isVisible()
    dialog.as_command.setChecked(True)
    assert not dialog.signin.toggle.isVisible() and not dialog.signin.client_id.isVisible()
    dialog.signin.client_id.setText("ignored")
    dialog.command.line.setText("python -m server")
    assert dialog.settings().signin is None


def test_removing_the_server_forgets_its_sign_in_settings_secret_and_tokens(make_window, qtbot,
                                                                             file_keyring) -> None:
    window = make_window((URL, "remote"))
    with RunStore.open(resolve_db_path()) as store:
        StoredSignIn(store.db, window.engine.signins.vault).save(URL, SignInSetup("cid-1", scope="read"),
                                                                 client_secret=SECRET)
    window.admin.registry.add_secret_header(URL, "X-Api-Key", "k3y-abc")
    KeyringVault(file_keyring).keep_tokens(TokenSet("ACCESS-abc", "https://auth.example.com", URL))
    assert kept_secret(file_keyring) == SECRET
    window.admin.forget_server(URL)
    # Signed out too: nothing of the server is left in the keyring.
    qtbot.waitUntil(lambda: file_keyring.entries() == {}, timeout=5000)
    assert stored() is None
    # Added again under the same address, it starts with nothing set.
    window.admin.registry.save_server(URL, name="again")
    assert not stored().configured


def test_a_client_set_in_the_dialog_signs_in_and_nothing_is_registered(qtbot, open_window, file_keyring) -> None:  # noqa: F811
    config = AuthConfig(clients=[pre_registered("client_secret_post")], registration=False,
                        token_auth_methods=("client_secret_post",))
    with serve_auth_server(config) as auth:
        window = open_window(auth.mcp_url, keyring=True)
        asked_view(qtbot, window).cancel_button.click()  # "Not now": no client is set yet
        qtbot.waitUntil(lambda: not window.workbench.tools.task.running, timeout=10000)

        def set_client(dialog: ServerDialog, seen: dict) -> bool:
            fields = dialog.signin
            fields.toggle.setChecked(True)
            fields.client_id.setText(PRE_REGISTERED_ID)
            fields.secret.setText(PRE_REGISTERED_SECRET)
            fields.auth_method.setCurrentIndex(fields.auth_method.findData("client_secret_post"))
            return True

        in_dialog(set_client)
        window.admin.edit_current()
        view = asked_view(qtbot, window)  # the list again, after the secret is kept: it asks
        view.sign_in_button.click()
        qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() > 0, timeout=20000)
        assert view.task.outcome.status == "ok"
        assert row_texts(view)[2][1:] == ("Registering the client", f"Client {PRE_REGISTERED_ID} (given by you).")
        assert not auth.requests("register")
        [token] = auth.requests("token")
        assert token.authorization is None  # client_secret_post: the secret in the form, as set
        assert_nowhere([PRE_REGISTERED_SECRET], database=resolve_db_path(), processes=False)


def test_screenshots_of_the_sign_in_section(qtbot, tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    key = key_file(tmp_path)
    for language in ("en", "de"):
        switch_language(language)
        try:
            dialog = ServerDialog(url=URL, name="remote", signin=SignInSetup(
                "cid-dialog-7", "private_key_jwt", None, "client-credentials", "read write", str(key),
                client_secret_kept=True), signin_in_keyring=True)
            qtbot.addWidget(dialog)
            dialog.show()
            qtbot.waitExposed(dialog)
            qtbot.waitUntil(lambda dialog=dialog: dialog.height() >= dialog.heightForWidth(dialog.width()))
            dialog.grab().save(str(SHOTS / f"server-dialog-signin-{language}.png"))
            dialog.signin.metadata_url.setText("http://example.com/client.json")
            dialog.signin.key_file.setText(str(tmp_path / "missing.pem"))
            assert dialog.settings() is None
            qtbot.waitUntil(lambda dialog=dialog: dialog.height() >= dialog.heightForWidth(dialog.width()))
            dialog.grab().save(str(SHOTS / f"server-dialog-signin-refused-{language}.png"))
            dialog.signin.toggle.setChecked(False)
            dialog.grab().save(str(SHOTS / f"server-dialog-signin-folded-{language}.png"))
            dialog.close()
        finally:
            switch_language("en")
