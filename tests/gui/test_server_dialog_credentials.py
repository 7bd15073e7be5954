"""A user name and password typed into the server dialog's URL (``http://user:pw@host/mcp``) move
into a secret Authorization header: the field no longer shows them, the server is sent them, and an
Authorization header already there is never overwritten (they were dropped without a word before)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.language import switch_language
from tests.support.basic_auth_server import basic, basic_auth_server

TYPED = "http://ann:s3cr%25t%20pw@127.0.0.1:9/mcp"
TOKEN = basic("ann", "s3cr%t pw")


def test_leaving_the_url_field_moves_its_credentials_into_a_secret_header(qtbot) -> None:
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.url.setText(TYPED)
    assert dialog.url_credentials.note.isHidden()
    dialog.url.editingFinished.emit()  # what the field says when the user leaves it
    assert dialog.url.text() == "http://127.0.0.1:9/mcp"
    [row] = dialog.header_rows
    assert (row.name.text(), row.value.text(), row.secret.isChecked()) == ("Authorization", TOKEN, True)
    assert row.value.echoMode() == QLineEdit.EchoMode.Password
    assert not dialog.url_credentials.note.isHidden()
    assert "secret Authorization header" in dialog.url_credentials.note.text()
    settings = dialog.settings()
    assert settings is not None and settings.url == "http://127.0.0.1:9/mcp"
    assert settings.headers == {"Authorization": TOKEN} and settings.secret == {"Authorization"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_authorization_header_already_there_is_never_overwritten(qtbot, language: str) -> None:
    switch_language(language)
    try:
        dialog = ServerDialog(url="http://127.0.0.1:9/mcp", headers=[("Authorization", "Bearer kept", True)])
        qtbot.addWidget(dialog)
        dialog.url.setText(TYPED)
        assert dialog.settings() is None  # OK refuses, and says what to do to keep which
        assert dialog.url.text() == "http://127.0.0.1:9/mcp"  # the password is out of sight meanwhile
        said = dialog.url_error.text()
        assert not dialog.url_error.isHidden()
        assert ("To use them, remove that header; to keep it, change the address" in said if language == "en"
                else "Um sie zu verwenden, entfernen Sie diesen Header" in said)
        [row] = dialog.header_rows
        assert row.value.text() == "Bearer kept"
        dialog._remove_header(row)
        settings = dialog.settings()
        assert settings is not None and settings.headers == {"Authorization": TOKEN}
        assert dialog.url.text() == "http://127.0.0.1:9/mcp"
    finally:
        switch_language("en")


def test_changing_the_address_keeps_the_header_and_forgets_the_credentials(qtbot) -> None:
    dialog = ServerDialog(url="http://127.0.0.1:9/mcp", headers=[("Authorization", "Bearer kept", True)])
    qtbot.addWidget(dialog)
    dialog.url.setText(TYPED)
    assert dialog.settings() is None
    qtbot.keyClicks(dialog.url, "x")
    qtbot.keyClick(dialog.url, Qt.Key.Key_Backspace)
    settings = dialog.settings()
    assert settings is not None and settings.url == "http://127.0.0.1:9/mcp"
    assert settings.headers == {"Authorization": "Bearer kept"}


def test_a_server_added_with_credentials_in_its_url_is_sent_them(qtbot, make_window, monkeypatch) -> None:
    window = make_window()

    with basic_auth_server("ann", "s3cr%t pw") as (url, gate):
        def fill_and_accept(dialog: ServerDialog) -> int:
            dialog.url.setText(url.replace("http://", "http://ann:s3cr%25t%20pw@"))
            dialog.accept()
            return ServerDialog.DialogCode.Accepted

        monkeypatch.setattr(ServerDialog, "exec", fill_and_accept)
        window.admin.add_server()
        record = window.servers.current()
        assert record.url == url
        assert [(h.name, h.secret, h.value) for h in record.headers] == [("Authorization", True, None)]
        task = window.admin.test_server(record)
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
        assert window.servers.test_result.text().startswith("Answered in ")
        assert gate.seen and set(gate.seen) == {TOKEN}


def test_file_import_shows_no_password_and_keeps_the_credentials_as_a_header(qtbot, make_window, tmp_path) -> None:
    """File → Import servers… showed the address with its password in the preview, and dropped it."""
    import json

    from inspector.gui.workbench.server_import import preview

    window = make_window()
    with basic_auth_server("ann", "s3cr%t pw") as (url, gate):
        config = tmp_path / "mcp.json"
        config.write_text(json.dumps({"mcpServers": {
            "web": {"url": url.replace("http://", "http://ann:s3cr%25t%20pw@")},
            "both": {"url": "http://bob:hunter22@127.0.0.1:9/mcp", "headers": {"Authorization": "Bearer b"}}}}))
        dialog = preview(window.admin, config, window)
        qtbot.addWidget(dialog)
        rows = {dialog.table.item(row, 0).text(): [dialog.table.item(row, c).text() for c in range(4)]
                for row in range(2)}
        assert rows["web"][2:] == [url, "Authorization"]
        assert rows["both"][2] == "http://127.0.0.1:9/mcp"
        assert "s3cr" not in dialog.table.item(0, 2).toolTip() + dialog.table.item(1, 2).toolTip()
        dialog.accept()
        said = window.status.text()
        assert "1 server imported." in said
        assert "The user name and password in the address of web are kept as a secret Authorization header." in said
        assert ("both was not imported: http://127.0.0.1:9/mcp carries a user name and password, and an "
                "Authorization header is configured for it already, so nothing was saved. Keep either its "
                "Authorization header or the user name and password in its address.") in said
        assert "hunter22" not in said and "s3cr" not in said
        [record] = window.admin.registry.all()
        assert record.url == url
        assert [(h.name, h.secret) for h in record.headers] == [("Authorization", True)]
        task = window.admin.test_server(record)
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
        assert set(gate.seen) == {TOKEN}
