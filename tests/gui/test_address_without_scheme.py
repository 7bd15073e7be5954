"""An address typed without its scheme (`localhost:8000/mcp`, as a server's own README often writes it)
is refused in the server dialog with the address it meant, as the command line's `call` says it; the
dialog said only "use an absolute http:// or https:// URL". English and German; a password typed in it
is not said back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.language import switch_language


@pytest.fixture
def language() -> Iterator[None]:
    yield
    switch_language("en")


@pytest.mark.parametrize(("code", "said"), [
    ("en", "'localhost:8000/mcp' is not a server address: it needs http:// or https:// before it, e.g. "
           "http://localhost:8000/mcp."),
    ("de", "'localhost:8000/mcp' ist keine Serveradresse: Davor gehört http:// oder https://, z. B. "
           "http://localhost:8000/mcp.")])
def test_the_dialog_says_the_address_it_meant(qtbot, language, code, said) -> None:
    switch_language(code)
    dialog = ServerDialog()
    qtbot.addWidget(dialog)
    dialog.url.setText("alice:pa55word@localhost:8000/mcp")
    assert dialog.settings() is None and not dialog.url_error.isHidden()
    assert dialog.url_error.text() == said
    dialog.url.setText("ftp://example.org/mcp")  # an address with another scheme: nothing to suggest
    assert dialog.settings() is None
    assert "e.g." not in dialog.url_error.text() and "z. B." not in dialog.url_error.text()
    dialog.url.setText("http://localhost:8000/mcp")
    assert dialog.settings() is not None
