"""The Server log hears what a server logs on an operation's own session (not only on the window's
listening session), tagged with the operation and the server; the log level chosen in Settings
is asked in every operation's session, as a leg of its own; a refusal does not fail the operation."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings
from inspector.gui.workbench.listening import LogEntry
from inspector.gui.workbench.operation_task import OperationTask
from inspector.gui.workbench.server_log import MAX_ENTRIES, ServerLogModel
from inspector.mcp import LOG_LEVELS
from inspector.mcp.listening import ListenerState
from inspector.mcp.standalone import ServerNotification
from inspector.store import RunStore, resolve_db_path
from tests.support.asgi_server import serve_asgi
from tests.support.fault_server import Exchange, FaultServer
from tests.support.sdk_server import Listeners, build_sdk_server

HANDSHAKE = ["initialize", "notifications/initialized"]


@pytest.fixture
def sdk() -> Iterator[tuple[str, Listeners]]:
    listeners = Listeners()
    app = build_sdk_server(listeners=listeners).streamable_http_app(json_response=False, stateless_http=False)
    with serve_asgi(app) as url:
        yield url, listeners


def run(qtbot, window, tool: str, arguments: dict | None = None, budget_s: float = 10) -> OperationTask:
    return window.engine.call_tool(window.admin.endpoint_for(window.servers.current()), tool, arguments or {},
                                   budget_s=budget_s)


def finished(qtbot, task: OperationTask, timeout: int = 10000):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=timeout):
            pass
    return task.outcome


def tagged(window, task: OperationTask) -> list[LogEntry]:
    """The log's entries from the operation's session, named by its run ("#12 tools/call hang");
    while it runs (its run's number not yet known here), by its title."""
    if task.outcome is not None:
        wanted = lambda tag: tag == run_tag(task)  # noqa: E731
    else:
        wanted = lambda tag: str(tag).endswith(f" {task.title}")  # noqa: E731
    return [entry for entry in window.log_dock.view.model.entries
            if wanted(getattr(entry, "operation", None)) and entry.server == task.server.label]


def run_tag(task: OperationTask) -> str:
    return f"#{task.outcome.run_id} {task.title}"


def row_of(window, entry: LogEntry) -> list[str]:
    model = window.log_dock.view.model
    row = model.entries.index(entry)
    return [model.index(row, column).data() for column in range(model.columnCount())]


def stored_notifications(run_id: int) -> list[dict]:
    with RunStore.open(resolve_db_path()) as store:
        [stored] = list(store.iter_steps(run_id))
    return list(stored.step.to_payload().get("serverNotifications") or [])


def test_what_hang_logs_during_its_operation_reaches_the_server_log(qtbot, make_window, demo_server) -> None:
    AppSettings().server_log_level = "debug"
    window = make_window((demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("hang")
    task = window.workbench.run_current_tool()
    assert task.title == "tools/call hang"
    # The start line (info) at once, then a debug line each second it waits, on the call's own stream.
    qtbot.waitUntil(lambda: any(entry.level == "debug" for entry in tagged(window, task)), timeout=10000)
    task.cancel()
    outcome = finished(qtbot, task)
    assert outcome.status == "cancelled"
    started, waiting = tagged(window, task)[:2]
    assert row_of(window, started)[1:] == ["info", "Demo server", f"#{outcome.run_id} tools/call hang", "demo",
                                           started.data]
    assert started.data.startswith("hang: request ") and "started" in started.data
    assert waiting.level == "debug" and "still waits after 1 s" in waiting.data
    # The stateless era (auto found it while the catalogue loaded): the level rides the call's own
    # _meta, no leg of its own, and the server sends the lines on the call's stream.
    assert [leg.method for leg in task.state.legs] == ["tools/call"]
    # The stored step keeps what the server logged, as before.
    kept = stored_notifications(outcome.run_id)
    assert {"method": "notifications/message", "via": "tools/call", "level": "info", "logger": "demo",
            "data": started.data} in kept


def test_the_settings_level_is_asked_in_each_operation_session_and_the_server_filters(
        qtbot, make_window, sdk, monkeypatch) -> None:
    url, listeners = sdk
    AppSettings().server_log_level = "warning"
    # The handshake era, pinned: logging/setLevel in each operation's session is that era's way.
    window = make_window((url, "sdk server"), era="handshake")
    qtbot.waitUntil(lambda: window.listener.status.state is ListenerState.LISTENING, timeout=10000)
    asked_before = len(listeners.asked_levels)  # the listening session asks too
    task = run(qtbot, window, "log_each_level")
    outcome = finished(qtbot, task)
    assert outcome.status == "ok", outcome.record.tool_result
    assert listeners.asked_levels[asked_before:] == ["warning"]
    assert [leg.method for leg in task.state.legs] == [*HANDSHAKE, "logging/setLevel", "tools/call"]
    with RunStore.open(resolve_db_path()) as store:
        [stored] = list(store.iter_steps(outcome.run_id))
    assert [leg.method for leg in stored.step.legs] == [*HANDSHAKE, "logging/setLevel", "tools/call"]
    # Nothing below the level: the server was told, in this operation's session.
    shown = LOG_LEVELS[LOG_LEVELS.index("warning"):]
    qtbot.waitUntil(lambda: len(tagged(window, task)) == len(shown), timeout=5000)
    assert [entry.level for entry in tagged(window, task)] == list(shown)
    assert {entry.server for entry in tagged(window, task)} == {"sdk server"}
    assert row_of(window, tagged(window, task)[0])[3:] == [run_tag(task), "levels", "a warning message"]
    # A new level chosen in Settings applies to the operations that start after it.
    from inspector.gui.dialogs.settings_dialog import SettingsDialog

    def choose_critical(dialog: SettingsDialog) -> int:
        dialog.log_level.setCurrentIndex(dialog.log_level.findData("critical"))
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(SettingsDialog, "exec", choose_critical)
    window.open_settings()
    assert window.settings.server_log_level == "critical"
    second = run(qtbot, window, "log_each_level")
    assert finished(qtbot, second).status == "ok"
    assert listeners.asked_levels[-1] == "critical"
    qtbot.waitUntil(lambda: len(tagged(window, second)) == 3, timeout=5000)
    assert [entry.level for entry in tagged(window, second)] == ["critical", "alert", "emergency"]


def test_with_the_level_off_nothing_extra_is_sent_and_the_server_chooses(qtbot, make_window, sdk) -> None:
    url, listeners = sdk
    assert AppSettings().server_log_level is None  # off by default
    # The handshake era, pinned: there a server with no level asked sends what it chooses; in the
    # stateless era a request that names no level gets no log lines at all.
    window = make_window((url, "sdk server"), era="handshake")
    task = run(qtbot, window, "log_each_level")
    outcome = finished(qtbot, task)
    assert outcome.status == "ok"
    assert listeners.asked_levels == []
    assert [leg.method for leg in task.state.legs] == [*HANDSHAKE, "tools/call"]
    qtbot.waitUntil(lambda: len(tagged(window, task)) == len(LOG_LEVELS), timeout=5000)
    assert [entry.level for entry in tagged(window, task)] == list(LOG_LEVELS)
    assert len(stored_notifications(outcome.run_id)) == len(LOG_LEVELS)


def refusing_server(exchange: Exchange) -> None:
    method = exchange.request.rpc_method
    if method == "logging/setLevel":
        exchange.send_rpc_error(-32601, "Method not found")
    elif method == "tools/list":
        exchange.send_result({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
    else:
        exchange.send_result({"content": [{"type": "text", "text": "echoed"}]})


def test_a_server_that_refuses_the_level_still_runs_the_operation_and_the_log_says_so(qtbot, make_window) -> None:
    AppSettings().server_log_level = "info"
    with FaultServer("session", work=refusing_server) as server:
        server.initialize = lambda ex: server.answer_initialize(ex, capabilities={"tools": {}, "logging": {}})
        window = make_window((server.url, "refuser"))
        task = run(qtbot, window, "echo")
        outcome = finished(qtbot, task)
        assert outcome.status == "ok", outcome.record.tool_result
        assert outcome.record.tool_result.content == "echoed"
        legs = [(leg.method, leg.outcome) for leg in task.state.legs]
        assert legs == [("initialize", "ok"), ("notifications/initialized", "ok"), ("logging/setLevel", "failed"),
                        ("tools/call", "ok")]
        qtbot.waitUntil(lambda: len(tagged(window, task)) == 1, timeout=5000)
        [said] = tagged(window, task)
        assert said.refused and said.request == "logging/setLevel"
        row = row_of(window, said)
        assert row[1:4] == ["⇄ request", "refuser", f"#{outcome.run_id} tools/call echo"]
        assert "rejected logging/setLevel with JSON-RPC error -32601: Method not found" in row[5]
        assert "The operation goes on" in row[5]
        # The listening session was refused too: it says so and listens all the same.
        qtbot.waitUntil(lambda: any(getattr(entry, "refused", False) and entry.operation is None
                                    for entry in window.log_dock.view.model.entries), timeout=5000)
        assert window.listener.status.state is not ListenerState.STOPPED


def test_log_messages_reach_the_gui_thread_in_batches(qtbot) -> None:
    from inspector.gui.workbench.operation_log import OperationLog

    log = OperationLog()
    batches: list[list[LogEntry]] = []
    log.entries.connect(lambda batch, dropped: batches.append(batch))
    note = ServerNotification("notifications/message", {"level": "info", "data": "line", "logger": "x"}, "tools/call")
    other = ServerNotification("notifications/tools/list_changed", {}, "GET")

    def worker() -> None:
        for _ in range(2000):
            log.heard("#1 tools/call hang", "demo", note)
        log.heard("#1 tools/call hang", "demo", other)  # not a log message: not an entry

    thread = threading.Thread(target=worker)
    thread.start()
    thread.join()
    qtbot.waitUntil(lambda: sum(len(batch) for batch in batches) == 2000, timeout=5000)
    # One wake-up while a batch waits: the GUI thread ran one slot for all of them.
    assert len(batches) == 1
    assert batches[0][0].operation == "#1 tools/call hang" and batches[0][0].server == "demo"


def test_the_model_takes_a_batch_and_keeps_the_newest(qtmodeltester) -> None:
    from datetime import datetime, timezone

    model = ServerLogModel()
    at = datetime.now(timezone.utc)
    model.add(LogEntry(at, "info", None, "first", "server"))
    model.extend([LogEntry(at, "debug", "app", {"n": n}, "server", operation="#2 ping") for n in range(MAX_ENTRIES)])
    qtmodeltester.check(model)
    assert model.rowCount() == MAX_ENTRIES
    assert model.index(0, 3).data() == "#2 ping"
    assert "#2 ping" in model.index(0, 3).data(Qt.ItemDataRole.ToolTipRole)
    assert model.index(MAX_ENTRIES - 1, 5).data() == json.dumps({"n": MAX_ENTRIES - 1}, separators=(",", ":"))


def test_the_log_header_says_a_server_did_not_answer_yet_or_its_stream_broke() -> None:
    from inspector.gui.workbench.log_dock import listener_sentence
    from inspector.mcp.listening import ListenerState, ListenerStatus

    never = ListenerStatus(ListenerState.RECONNECTING, retry_in_s=4.0)
    assert listener_sentence("No such host", never) == "No such host did not answer yet; trying again in 4 s…"
    broke = ListenerStatus(ListenerState.RECONNECTING, retry_in_s=4.0, reconnects=1, listened=True)
    assert listener_sentence("Demo server", broke) == "The stream of Demo server broke; reconnecting in 4 s…"
    switch_language("de")
    try:
        assert listener_sentence("No such host", never).startswith("No such host antwortete noch nicht;")
    finally:
        switch_language("en")


def test_a_cancelled_call_s_result_pane_starts_with_what_the_server_logged(qtbot, make_window, demo_server) -> None:
    """A cancelled call has no result text of its own: the pane's text began with two empty lines
    (the separator from a result that is not there) before the server's log lines."""
    AppSettings().server_log_level = "info"
    window = make_window((demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("hang")
    task = window.workbench.run_current_tool()
    qtbot.waitUntil(lambda: bool(tagged(window, task)), timeout=10000)
    task.cancel()
    assert finished(qtbot, task).status == "cancelled"
    window.workbench.operations.select(task)
    text = window.workbench.result.text.toPlainText()
    assert text.startswith("Server log (info): hang: request "), repr(text[:80])
