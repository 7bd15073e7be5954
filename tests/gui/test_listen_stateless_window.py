"""The window listens to a server of the stateless era with ``subscriptions/listen``: its tool
list change reaches the window (the catalogue is loaded again), the log header says it listens."""

from __future__ import annotations

from inspector.mcp.listening import ListenerState
from tests.support.asgi_server import serve_asgi
from tests.support.listen_servers import build_listen_server, listen_handler


def test_a_stateless_servers_tool_list_change_reaches_the_window(qtbot, make_window) -> None:
    server = build_listen_server()
    with serve_asgi(server.streamable_http_app()) as url:
        window = make_window((url, "modern"))
        endpoint = window.admin.endpoint_for(window.servers.current())
        # What an operation in auto found (the lead's client remembers it): the server speaks stateless.
        window.engine.eras.remember(endpoint.key, "stateless")
        window.listener.listen(endpoint, None)
        qtbot.waitUntil(lambda: window.listener.status.state is ListenerState.LISTENING, timeout=10000)
        assert len(listen_handler(server)._streams) == 1
        # No log level asked (the default): such a server sends no log lines, and the header says why.
        assert window.log_dock.view.state.text() == (
            "Listening to modern. It sends log lines only once a level is chosen: File › Settings… "
            "(Server log level).")
        window.listener.set_log_level("info")  # as the window does once its settings are accepted
        assert window.log_dock.view.state.text() == "Listening to modern."
        task = window.engine.call_tool(endpoint, "announce_tools", {}, budget_s=10)
        with qtbot.waitSignal(window.listener.tools_changed, timeout=10000) as changed:
            pass
        assert changed.args == [url]
        qtbot.waitUntil(lambda: task.outcome is not None, timeout=10000)
        # The window loads the catalogue again (the change is what it reacts to).
        qtbot.waitUntil(lambda: window.workbench.tools.model.rowCount() == 3, timeout=10000)
        window.listener.stop()
        qtbot.waitUntil(lambda: not listen_handler(server)._streams, timeout=5000)


def test_the_listening_session_follows_an_era_an_operation_found(qtbot, make_window) -> None:
    # Nothing is known of the server when the window opens (auto): the window's own first operation
    # (the catalogue) finds the stateless era, and the listening session follows it: one
    # subscriptions/listen stream, and no handshake session of its own left listening.
    server = build_listen_server()
    with serve_asgi(server.streamable_http_app()) as url:
        window = make_window((url, "modern"))
        endpoint = window.admin.endpoint_for(window.servers.current())
        qtbot.waitUntil(lambda: window.engine.eras.recall(endpoint.key) == "stateless", timeout=10000)
        qtbot.waitUntil(lambda: len(listen_handler(server)._streams) == 1, timeout=10000)
        qtbot.waitUntil(lambda: window.listener.status.state is ListenerState.LISTENING, timeout=10000)
        assert window.listener._listener is not None and window.listener._listener.stateless
        window.listener.stop()
