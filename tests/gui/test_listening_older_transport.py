"""A server that speaks only the older HTTP+SSE transport (MCP 2024-11-05; the SDK's ``sse_app()``)
has no stream apart from an operation's. The window's listening session starts before the first
operation has found that out; its ``initialize`` POST is refused with 405 as such servers refuse it.
It then asks the address (its event stream names where to post), remembers it with the operations,
and the Server log says the older transport has nothing to listen to: before, it said the listening
had stopped because the server answered initialize with HTTP status 405, as if it were an error.

A real SDK server over its SSE app on 127.0.0.1, the real window (offscreen), English and German."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.mcp.listening import ListenerState
from tests.gui.test_budget_endings import finished
from tests.gui.test_screenshots import save

SAID = {"en": "Not listening to old: the older HTTP+SSE transport has no stream apart from an operation's",
        "de": "Kein Zuhören bei old: Der ältere HTTP+SSE-Transport hat keinen Stream außer dem eines Vorgangs"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_listening_to_an_older_transport_server_says_it_has_no_stream_not_an_error(
        qtbot, make_window, language) -> None:
    from tests.support.asgi_server import serve_asgi
    from tests.support.stdio_server import server as sdk_server

    switch_language(language)
    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        window = make_window((url, "old"))
        window.resize(1280, 800)
        dock = window.log_dock
        qtbot.waitUntil(lambda: SAID[language] in dock.view.state.text(), timeout=15000)
        status = window.listener.status
        assert status.state is ListenerState.NO_STREAM and status.older_transport and status.error is None
        assert "405" not in dock.view.state.text() and dock.view.state.toolTip()
        assert not any("405" in str(entry.data) for entry in dock.view.model.entries)
        endpoint = window.admin.endpoint_for(window.admin.current())
        assert window.engine.legacy == {endpoint.key}  # remembered with the operations
        # The next operation opens the event stream at once: no POST refused first.
        task = window.engine.call_tool(endpoint, "echo", {"text": "hello"}, 10)
        assert finished(qtbot, task).status == "ok"
        assert task.state.legs[0].method == "connect"
        QApplication.processEvents()
        assert save(window, f"listening-older-transport-{language}").exists()
        assert save(dock, f"listening-older-transport-log-{language}").exists()
    switch_language("en")
