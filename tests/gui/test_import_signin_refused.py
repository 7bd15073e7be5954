"""The window's File › Import servers… skips an entry of a listing edited by hand whose sign-in settings the
Servers dialog and ``servers set`` refuse, saying why, as ``servers import`` does
(tests/integration/test_servers_import_signin_refused.py): it added them. Real parts: the window and its preview
offscreen, a real SQLite file, a real key file."""

from __future__ import annotations

from pathlib import Path

from tests.integration.test_servers_import_signin_refused import _listing


def test_the_windows_import_skips_them_too(make_window, qtbot, tmp_path: Path) -> None:
    from inspector.gui.workbench.server_import import preview

    window = make_window(wait_tools=False)
    dialog = preview(window.admin, _listing(tmp_path), window)
    qtbot.addWidget(dialog)
    assert [dialog.table.item(row, 0).text() for row in range(dialog.table.rowCount())] == ["s9001"]
    assert dialog.skipped.text().splitlines()[1:] == [
        "s9002: the client metadata document's address of its sign-in is not an https address with a path (http "
        "only on this machine): http://metadata.example.com/client.json",
        "s9003: the client key of its sign-in cannot be used: The client key /nonexistent/client.pem cannot be read: "
        "no such file or folder.",
        "s9004: its sign-in's client-credentials grant needs the client's id, which it does not give",
        "s9005: its sign-in's private_key_jwt needs the client's key file, which it does not give"]
    dialog.accept()
    [record] = window.admin.registry.all()
    from inspector.store.signin_settings import StoredSignIn

    setup = StoredSignIn(window.admin.store).setup(record.url)
    assert setup is not None and setup.client_key_file == str(tmp_path / "keys" / "client.pem")


def test_the_preview_says_the_signin_settings_an_entry_brings(make_window, qtbot, tmp_path: Path) -> None:
    """The command line's preview names them ("sign-in: --client-id … --client-key …"); the window's said nothing of
    them, as it says the folders an entry is offered: a file from elsewhere set a key file of this machine and a
    client to sign in as without a word before Add."""
    import json

    from inspector.gui.language import switch_language
    from inspector.gui.workbench.server_import import preview

    key = tmp_path / "client.pem"
    key.write_text("-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n", encoding="utf-8")
    listing = tmp_path / "listing.json"
    listing.write_text(json.dumps({"servers": [{"url": "https://mcp.example.com/mcp", "transport": "http", "signin": {
        "client_id": "cid-7", "auth_method": "private_key_jwt", "client_key_file": str(key), "scope": "read",
        "client_secret": "SECRET-not-shown-9f"}}]}), encoding="utf-8")
    window = make_window(wait_tools=False)
    shown = {}
    for language in ("en", "de"):
        switch_language(language)
        dialog = preview(window.admin, listing, window)
        qtbot.addWidget(dialog)
        shown[language] = dialog.table.item(0, 2).text(), dialog.table.item(0, 2).toolTip()
        dialog.reject()
    switch_language("en")
    assert shown["en"][0] == (f"https://mcp.example.com/mcp; sign-in (OAuth): Client ID cid-7, Token auth "
                              f"private_key_jwt, Key file {key}, Scope read, Client secret in the file")
    assert shown["de"][0].startswith("https://mcp.example.com/mcp; Anmeldung (OAuth): Client-ID cid-7, ")
    assert all("SECRET-not-shown-9f" not in text for texts in shown.values() for text in texts)
    assert "Client secret in the file" in shown["en"][1]
