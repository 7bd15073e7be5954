"""A query typed into the server dialog's URL (``http://host/mcp?api_key=…``) is taken out of the
address when the field is left and kept as the server's secret: the field no longer shows it, the note
says so, the server is sent it, and editing can forget it (it was dropped without a word before)."""

from __future__ import annotations

import base64

import pytest

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.language import switch_language
from tests.support.query_key_server import query_key_server

QUERY = "api_key=k3y-9f3aQ77x"
#: The keyring entry (and this session's) of a secret query, beside the secret headers.
QUERY_ACCOUNT = "?query"


@pytest.mark.parametrize("language", ["en", "de"])
def test_leaving_the_url_field_takes_its_query_out_and_says_it_is_kept_as_a_secret(qtbot, language: str) -> None:
    switch_language(language)
    try:
        dialog = ServerDialog()
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.url.setText(f"http://127.0.0.1:9/mcp?{QUERY}")
        assert dialog.url_query.row.isHidden()
        dialog.url.editingFinished.emit()  # what the field says when the user leaves it
        assert dialog.url.text() == "http://127.0.0.1:9/mcp"
        assert not dialog.url_query.row.isHidden()
        said = dialog.url_query.note.text()
        assert said == ("The query was taken out of the address: it is kept as a secret and sent with every call."
                        if language == "en" else "Die Abfrage wurde aus der Adresse genommen: Sie wird als Geheimnis "
                        "aufbewahrt und bei jedem Aufruf mitgesendet.")
        assert "k3y" not in said
        settings = dialog.settings()
        assert settings is not None and settings.url == "http://127.0.0.1:9/mcp" and settings.query == QUERY
    finally:
        switch_language("en")


def test_a_query_typed_and_accepted_at_once_is_kept_too(qtbot) -> None:
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.url.setText(f"http://127.0.0.1:9/mcp?{QUERY}")
    settings = dialog.settings()  # OK without leaving the field
    assert settings is not None and (settings.url, settings.query) == ("http://127.0.0.1:9/mcp", QUERY)


def test_a_server_added_with_a_query_is_sent_it_and_editing_can_forget_it(qtbot, make_window, monkeypatch) -> None:
    """The window's keyring keeps nothing here: the query is kept for the session, never in the database."""
    from inspector.store import resolve_db_path

    window = make_window()
    with query_key_server(QUERY) as (url, gate):
        def fill_and_accept(dialog: ServerDialog) -> int:
            dialog.url.setText(f"{url}?{QUERY}")
            dialog.accept()
            return ServerDialog.DialogCode.Accepted

        monkeypatch.setattr(ServerDialog, "exec", fill_and_accept)
        window.admin.add_server()
        record = window.servers.current()
        assert record.url == url and record.secret_query and record.headers == ()
        assert window.admin.session_secrets[(url, QUERY_ACCOUNT)] == QUERY
        assert b"k3y" not in resolve_db_path().read_bytes()
        task = window.admin.test_server(record)
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
        assert window.servers.test_result.text().startswith("Answered in ")
        assert gate.seen and set(gate.seen) == {QUERY}
        assert "k3y" not in window.servers.test_result.text()

        def keep(dialog: ServerDialog) -> int:  # the dialog knows a query is kept, and keeps it
            assert not dialog.url_query.row.isHidden() and dialog.url.text() == url
            dialog.accept()
            return ServerDialog.DialogCode.Accepted

        monkeypatch.setattr(ServerDialog, "exec", keep)
        window.admin.edit_server(record)
        assert window.servers.current().secret_query
        assert window.admin.endpoint_for(window.servers.current()).url == f"{url}?{QUERY}"

        def forget(dialog: ServerDialog) -> int:
            dialog.url_query.forget.click()
            assert dialog.url_query.row.isHidden()
            dialog.accept()
            return ServerDialog.DialogCode.Accepted

        monkeypatch.setattr(ServerDialog, "exec", forget)
        window.admin.edit_server(window.servers.current())
        record = window.servers.current()
        assert not record.secret_query
        assert window.admin.endpoint_for(record).url == url  # what the next operation is sent to
        assert "k3y" not in window.servers.test_result.text()


def test_file_import_shows_no_query_and_keeps_it_as_a_secret(qtbot, make_window, tmp_path) -> None:
    import json

    from inspector.gui.workbench.server_import import preview

    window = make_window()
    with query_key_server(QUERY) as (url, gate):
        config = tmp_path / "mcp.json"
        config.write_text(json.dumps({"mcpServers": {"web": {"url": f"{url}?{QUERY}"}}}))
        dialog = preview(window.admin, config, window)
        qtbot.addWidget(dialog)
        shown = dialog.table.item(0, 2).text() + dialog.table.item(0, 2).toolTip()
        assert dialog.table.item(0, 2).text() == f"{url} (its query kept as a secret)"
        assert "k3y" not in shown
        dialog.accept()
        said = window.status.text()
        assert "The query in the address of web is kept as a secret and sent with every call." in said
        [record] = window.admin.registry.all()
        assert record.url == url and record.secret_query
        task = window.admin.test_server(record)
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
        assert set(gate.seen) == {QUERY}


@pytest.mark.parametrize("language", ["en", "de"])
def test_an_address_naming_two_servers_is_said_so_and_nothing_is_moved(qtbot, language: str) -> None:
    """``bob:se@relay.example/ret@127.0.0.1:9``: RFC 3986 reads the host relay.example (and ``se`` would be sent to
    it), a password ``se@relay.example/ret`` the host 127.0.0.1:9. Neither is taken: the field says both and asks
    for %40 and %2F (the window took the second, as the command line refused the address)."""
    switch_language(language)
    try:
        dialog = ServerDialog()
        qtbot.addWidget(dialog)
        dialog.show()
        dialog.url.setText("http://bob:se@relay.example/ret@127.0.0.1:9/mcp")
        dialog.url.editingFinished.emit()
        said = dialog.url_error.text()
        assert not dialog.url_error.isHidden() and ": relay.example o" in said.replace(",", ""), said
        assert "or 127.0.0.1:9" in said.replace("oder", "or"), said
        assert "%40" in said and "%2F" in said and "se@" not in said and "ret" not in said, said
        assert dialog.header_rows == [] or all(not row.value.text() for row in dialog.header_rows)
        assert dialog.url.text() == "http://bob:se@relay.example/ret@127.0.0.1:9/mcp" and dialog.settings() is None
        dialog.url.setText("http://bob:se%40c%2Fret@127.0.0.1:9/mcp")  # written as it asks: the password is whole
        settings = dialog.settings()
        assert settings is not None and settings.url == "http://127.0.0.1:9/mcp"
        assert settings.headers == {"Authorization": "Basic " + base64.b64encode(b"bob:se@c/ret").decode()}
    finally:
        switch_language("en")


def test_an_at_in_a_later_segment_after_a_password_names_two_servers_and_written_as_asked_stays(qtbot) -> None:
    """``bob:pw@127.0.0.1:9/users/me@example.org/mcp``: the password ``pw`` and the host 127.0.0.1:9, or the password
    ``pw@127.0.0.1:9/users/me`` and the host example.org (it took the first: ``pw`` went to the header). Said as the
    first segment's "@" is; the path's "@" written %40, the password moves to the header and the path stays."""
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.url.setText("http://bob:pw@127.0.0.1:9/users/me@example.org/mcp")
    dialog.url.editingFinished.emit()
    said = dialog.url_error.text()
    assert not dialog.url_error.isHidden() and ": 127.0.0.1:9, or example.org if" in said and "%40" in said, said
    assert "users/me" not in said and dialog.settings() is None
    dialog.url.setText("http://bob:pw@127.0.0.1:9/users/me%40example.org/mcp")
    dialog.url.editingFinished.emit()
    assert dialog.url.text() == "http://127.0.0.1:9/users/me%40example.org/mcp"
    settings = dialog.settings()
    assert settings is not None and settings.url == "http://127.0.0.1:9/users/me%40example.org/mcp"
    assert settings.headers == {"Authorization": "Basic " + base64.b64encode(b"bob:pw").decode()}
