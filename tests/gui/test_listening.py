"""The window's listening session: the Server log, list changes, roots, the log level, 405, closing.

The handshake era is pinned for the SDK server (``era="handshake"``): these are the ways of that
era's listening session (its GET stream, ``logging/setLevel``, requests on the stream); the
stateless era's (``subscriptions/listen``) are tested in test_listen_stateless_window."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.gui.workbench.listening import LogEntry
from inspector.gui.workbench.server_log import ServerLogModel
from inspector.mcp import LOG_LEVELS
from inspector.mcp.listening import ListenerState
from tests.support.asgi_server import serve_asgi
from tests.support.fault_server import Exchange, FaultServer
from tests.support.sdk_server import Listeners, build_sdk_server

SCREENSHOTS = Path(__file__).parent / "screenshots"


@pytest.fixture
def listened() -> Iterator[tuple[str, Listeners]]:
    listeners = Listeners()
    app = build_sdk_server(listeners=listeners).streamable_http_app(json_response=False, stateless_http=False)
    with serve_asgi(app) as url:
        yield url, listeners


def wait_listening(qtbot, window) -> None:
    qtbot.waitUntil(lambda: window.listener.status is not None
                    and window.listener.status.state is ListenerState.LISTENING, timeout=10000)


def call(qtbot, window, tool: str, arguments: dict | None = None) -> str:
    endpoint = window.admin.endpoint_for(window.servers.current())
    task = window.engine.call_tool(endpoint, tool, arguments or {}, budget_s=10)
    with qtbot.waitSignal(task.finished, timeout=10000):
        pass
    return task.outcome.record.result.content


def levels_shown(window) -> list[str | None]:
    return [entry.level for entry in window.log_dock.view.model.entries if entry.request is None]


def test_log_messages_at_each_level_arrive_in_the_server_log(qtbot, make_window, listened) -> None:
    url, listeners = listened
    window = make_window((url, "sdk server"), era="handshake")
    wait_listening(qtbot, window)
    assert window.log_dock.view.state.text() == "Listening to sdk server."
    assert call(qtbot, window, "log_to_listeners").startswith("sent")
    qtbot.waitUntil(lambda: len(levels_shown(window)) == len(LOG_LEVELS), timeout=5000)
    assert levels_shown(window) == list(LOG_LEVELS)
    assert listeners.asked_levels == []  # off by default: no logging/setLevel
    model = window.log_dock.view.model
    assert model.index(3, 1).data() == "▲ warning"
    assert model.index(4, 5).data() == json.dumps({"level": "error", "note": "a error message"},
                                                  separators=(",", ":"))
    assert model.index(0, 4).data() == "listeners"
    assert model.index(0, 3).data() == "listening"  # the session: the listening one, not an operation
    # The filter hides what is below the minimum; Clear empties the log.
    window.log_dock.view.minimum.setCurrentIndex(LOG_LEVELS.index("error"))
    assert window.log_dock.view.model.rowCount() == 4
    window.log_dock.view.clear_button.click()
    assert model.rowCount() == 0


def test_the_level_setting_is_applied_at_once_and_the_server_filters(qtbot, make_window, listened) -> None:
    url, listeners = listened
    window = make_window((url, "sdk server"), era="handshake")
    wait_listening(qtbot, window)
    window.settings.server_log_level = "error"
    assert window.listener.set_log_level("error")
    qtbot.waitUntil(lambda: listeners.asked_levels == ["error"], timeout=5000)
    call(qtbot, window, "log_to_listeners")
    qtbot.waitUntil(lambda: len(levels_shown(window)) == 4, timeout=5000)
    assert levels_shown(window) == ["error", "critical", "alert", "emergency"]


def test_a_list_change_on_the_listening_stream_refreshes_the_catalogue(qtbot, make_window, listened) -> None:
    url, _listeners = listened
    window = make_window((url, "sdk server"), era="handshake")
    wait_listening(qtbot, window)
    model = window.workbench.tools.model
    names = lambda: [model.index(row, 0).data() for row in range(model.rowCount())]  # noqa: E731
    assert "fresh_tool" not in names()
    assert call(qtbot, window, "add_tool_for_listeners", {"name": "fresh_tool"}) == "added"
    qtbot.waitUntil(lambda: any("fresh_tool" in str(name) for name in names()), timeout=5000)


def test_roots_from_the_server_dialog_are_answered(qtbot, make_window, listened, tmp_path: Path) -> None:
    url, _listeners = listened
    # The handshake era, pinned: the test server's show_roots asks roots/list on the stream, and the
    # listening session's roots are asked on its GET stream; neither exists in the stateless era.
    window = make_window((url, "sdk server"), era="handshake")
    wait_listening(qtbot, window)
    # None by default: the operation's own session and the listening session offer no roots.
    assert call(qtbot, window, "show_roots").startswith("roots failed")
    assert "error" in call(qtbot, window, "roots_of_listeners")
    from inspector.gui.dialogs.server_dialog import ServerDialog

    record = window.servers.current()
    dialog = ServerDialog(window, url=record.url, name=record.name, roots=record.roots)
    qtbot.addWidget(dialog)
    dialog.add_root(str(tmp_path))
    dialog.roots.setPlainText(dialog.roots.toPlainText() + "\nhttp://not-a-folder")
    assert dialog.settings() is None and "neither" in dialog.roots_error.text()
    dialog.roots.setPlainText(str(tmp_path))
    settings = dialog.settings()
    assert settings is not None and settings.roots == (tmp_path.as_uri(),)
    window.admin.save_server(settings.url, settings.name, settings.budget_s, settings.headers, settings.secret,
                       replaces=record.url, roots=settings.roots, era=record.era)
    wait_listening(qtbot, window)
    assert call(qtbot, window, "show_roots") == f"roots: {tmp_path.as_uri()}"
    qtbot.waitUntil(lambda: tmp_path.as_uri() in call(qtbot, window, "roots_of_listeners"), timeout=20000)
    # Asked before the save, the roots were declined; afterwards answered. The Server log arrives in
    # batches, so an earlier session's declined request may be listed after the answered one.
    qtbot.waitUntil(lambda: any(entry.request == "roots/list" and not entry.declined
                                for entry in window.log_dock.view.model.entries), timeout=10000)


def test_the_listeners_declined_roots_read_in_the_windows_language(qtbot, make_window, listened) -> None:
    # The Server log said "roots/list: abgelehnt (This client offers no roots.)" in a German window.
    url, _listeners = listened
    window = make_window((url, "sdk server"), era="handshake")
    wait_listening(qtbot, window)
    assert "error" in call(qtbot, window, "roots_of_listeners")  # the listening session offers no roots
    model = window.log_dock.view.model
    qtbot.waitUntil(lambda: any(entry.request == "roots/list" and entry.declined for entry in model.entries),
                    timeout=10000)
    row = next(row for row, entry in enumerate(model.rows) if entry.request == "roots/list" and entry.declined)
    said = {}
    try:
        for language in ("en", "de"):
            switch_language(language)
            said[language] = model.index(row, 5).data()
    finally:
        switch_language("en")
    assert said == {"en": "roots/list: declined (This client offers no roots.)",
                    "de": "roots/list: abgelehnt (Dieser Client bietet keine Roots an.)"}
    assert model.rows[row].data["message"] == "This client offers no roots."  # kept as the server read it


def test_a_server_without_a_stream_says_so_once_and_operations_work(qtbot, make_window) -> None:
    with FaultServer("session") as server:
        window = make_window((server.url, "no stream"))
        qtbot.waitUntil(lambda: window.listener.status.state is ListenerState.NO_STREAM, timeout=10000)
        assert "offers no stream of its own (HTTP 405)" in window.log_dock.view.state.text()
        assert window.workbench.tools.select_tool("echo")
        task = window.workbench.run_current_tool()
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
        assert task.outcome.status == "ok"
        qtbot.wait(300)
        # One GET per session: the listener's (no retry loop after its 405) and each operation's own.
        operations = len(window.engine.tasks)
        assert operations >= 2  # the catalogue's tools/list and the call
        assert [r.http_method for r in server.received].count("GET") == 1 + operations
        assert window.listener.status.state is ListenerState.NO_STREAM


def test_the_window_closes_promptly_with_a_stream_open_and_ends_the_session(qtbot, make_window) -> None:
    def get(exchange: Exchange) -> None:
        exchange.open_stream()
        exchange.write_raw("id: 1\ndata: \n\n")
        exchange.hold_open()

    with FaultServer("session", get=get) as server:
        window = make_window((server.url, "held open"))
        wait_listening(qtbot, window)
        started = time.monotonic()
        window.close()
        took = time.monotonic() - started
        assert took < 1.0, took
        deletes = [r for r in server.received if r.http_method == "DELETE"]
        listener_session = [r for r in server.received if r.http_method == "GET"][0].headers["mcp-session-id"]
        assert listener_session in [r.headers.get("mcp-session-id") for r in deletes]


def test_the_server_log_model(qtmodeltester) -> None:
    from datetime import datetime, timezone

    model = ServerLogModel()
    model.add(LogEntry(datetime.now(timezone.utc), "info", "app", {"a": 1}, "server"))
    model.add(LogEntry(datetime.now(timezone.utc), None, None, {"roots": []}, "server", request="roots/list"))
    model.add(LogEntry(datetime.now(timezone.utc), None, None, {"code": -1, "message": "no budget"}, "server",
                       request="elicitation/create", declined=True))
    qtmodeltester.check(model)
    assert model.index(0, 5).data() == '{"a":1}'
    assert model.index(2, 5).data() == "elicitation/create: declined (no budget)"
    assert model.index(1, 1).data() == "⇄ request"


def test_screenshot_of_the_window_with_the_server_log(qtbot, make_window, listened) -> None:
    url, _listeners = listened
    window = make_window((url, "sdk server"), era="handshake")
    wait_listening(qtbot, window)
    call(qtbot, window, "log_to_listeners")
    qtbot.waitUntil(lambda: len(levels_shown(window)) == len(LOG_LEVELS), timeout=5000)
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / "window-server-log.png"
    assert window.grab().save(str(path))
    assert path.stat().st_size > 0


def test_the_settings_dialog_keeps_the_server_log_level(qtbot) -> None:
    from inspector.gui.dialogs.settings_dialog import SettingsDialog
    from inspector.gui.settings import AppSettings

    settings = AppSettings()
    assert settings.server_log_level is None  # off by default
    dialog = SettingsDialog(settings, "runs.db")
    qtbot.addWidget(dialog)
    assert dialog.log_level.currentData() == ""
    dialog.log_level.setCurrentIndex(dialog.log_level.findData("warning"))
    dialog.accept()
    assert AppSettings().server_log_level == "warning"
