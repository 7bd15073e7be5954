"""File › Import servers… of what ``servers --json --with-secrets`` printed gives a server's sign-in settings back
(client id, grant, how the client authenticates, scope) and its client secret, kept in the keyring: the import
dropped them. A listing without the secret imported into a database where the server is not configured says it was
left out.

Real parts: the real window and preview offscreen, a real SQLite file, the file keyring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

URL = "https://mcp.example.com/mcp"
SECRET = "CLIENT-SECRET-gui-5Tz8"
SIGNIN = {"client_id": "cid-7", "auth_method": "client_secret_post", "client_metadata_url": None,
          "grant": "client-credentials", "scope": "read write", "client_key_file": None, "client_secret_kept": True}


@pytest.fixture
def keyring_window(qtbot, file_keyring):
    """The window on the test's run database, its secrets and sign-ins kept in the file keyring."""
    from inspector.gui.main_window import MainWindow
    from inspector.gui.settings import AppSettings
    from inspector.store import RunStore, resolve_db_path

    store = RunStore.open(resolve_db_path())
    window = MainWindow(store, resolve_db_path(), AppSettings())
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    yield window
    window.shut_down()
    store.close()


def _imported(window, qtbot, path: Path, signin: dict[str, object]) -> None:
    from inspector.gui.workbench.server_import import preview

    path.write_text(json.dumps({"servers": [{"url": URL, "name": "Work", "transport": "http", "headers": [],
                                             "signin": signin}]}), encoding="utf-8")
    dialog = preview(window.admin, path, window)
    qtbot.addWidget(dialog)
    dialog.accept()


def test_the_whole_listing_gives_the_signin_and_its_client_secret_back(keyring_window, qtbot, tmp_path: Path,
                                                                       file_keyring) -> None:
    from inspector.store.signin_settings import SignInSetup, StoredSignIn

    window = keyring_window
    _imported(window, qtbot, tmp_path / "whole.json", {**SIGNIN, "client_secret": SECRET})
    stored = StoredSignIn(window.admin.store)
    qtbot.waitUntil(lambda: file_keyring.entries() == {f"signin client-secret {URL}": SECRET}, timeout=20000)
    assert stored.setup(URL) == SignInSetup("cid-7", "client_secret_post", None, "client-credentials", "read write",
                                            None, client_secret_kept=True)
    _imported(window, qtbot, tmp_path / "masked.json", SIGNIN)  # configured so: its secret stays
    assert window.status.text() == "1 server imported."
    assert stored.setup(URL).client_secret_kept
    assert file_keyring.entries() == {f"signin client-secret {URL}": SECRET}


def test_a_listing_without_the_client_secret_says_it_is_left_out(keyring_window, qtbot, tmp_path: Path) -> None:
    from inspector.store.signin_settings import StoredSignIn

    window = keyring_window
    _imported(window, qtbot, tmp_path / "masked.json", SIGNIN)
    assert window.status.text() == ("1 server imported. The listing leaves out the client secret of Work, so none is "
                                    "kept: give it in the server's sign-in settings (Edit…).")
    setup = StoredSignIn(window.admin.store).setup(URL)
    assert (setup.client_id, setup.grant, setup.client_secret_kept) == ("cid-7", "client-credentials", False)
