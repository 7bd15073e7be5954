"""In the window, a tool that requires a task runs as one: its polls are legs on the operation's bar,
Cancel cancels the task on the server, and the stored step keeps the task's handle."""

from __future__ import annotations

import pytest

from inspector.gui.workbench.engine import OperationsEngine
from inspector.gui.workbench.operation_task import OperationTask
from inspector.mcp import ServerEndpoint
from inspector.store import RunStore, resolve_db_path
from tests.support.task_server import TaskServer, _tools


@pytest.fixture
def engine(qtbot):
    engine = OperationsEngine(resolve_db_path())
    engine.start()
    yield engine
    engine.shutdown()


@pytest.fixture
def task_server():
    server = TaskServer(poll_ms=20)
    with server.serve() as url:
        yield server, ServerEndpoint(url, name="Tasks", era="handshake")


def finish(qtbot, task: OperationTask):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=10000):
            pass
    return task.outcome


def _definition(name: str) -> dict:
    return next(tool for tool in _tools() if tool["name"] == name)


def test_a_required_task_from_the_catalogue_runs_as_one_with_its_polls_on_the_bar(qtbot, engine,
                                                                                 task_server) -> None:
    server, endpoint = task_server
    task = engine.call_tool(endpoint, "must", {}, budget_s=10, definition=_definition("must"))
    outcome = finish(qtbot, task)
    assert outcome.status == "ok"
    methods = [leg.method for leg in task.state.legs]
    # The definition came with the call: no catalogue leg, the task's poll and result are on the bar.
    assert methods == ["initialize", "notifications/initialized", "tools/call", "tasks/get", "tasks/result"]
    with RunStore.open(resolve_db_path()) as store:
        [stored] = list(store.iter_steps(outcome.run_id))
        assert stored.step.task["taskId"] == "task-1"
        assert stored.step.task["status"] == "completed"


def test_cancel_in_the_window_cancels_the_task_on_the_server(qtbot, engine, task_server) -> None:
    server, endpoint = task_server
    task = engine.call_tool(endpoint, "forever", {}, budget_s=20, definition={
        **_definition("forever"), "execution": {"taskSupport": "required"}})
    qtbot.waitUntil(lambda: sum(leg.method == "tasks/get" for leg in task.state.legs) >= 2, timeout=5000)
    # While it runs, the task's status is known on the GUI thread (the result view shows it).
    qtbot.waitUntil(lambda: task.task_seen is not None and task.task_seen.polls >= 2, timeout=10000)
    assert task.task_seen.status == "working"
    task.cancel()
    outcome = finish(qtbot, task)
    assert outcome.status == "cancelled"
    assert task.state.ending == "cancelled"
    qtbot.waitUntil(lambda: server.cancelled == ["task-1"], timeout=10000)


def test_a_timed_out_task_is_looked_up_again_from_its_stored_step(qtbot, make_window, task_server) -> None:
    """The Runs tab's step detail offers "Look up task"; it runs tasks/get in the task's kept session."""
    server, endpoint = task_server
    # The look-up runs with the server's budget: generous, as it must end ok on a loaded machine too
    # (it takes some 20 ms; a budget of 1 s left a stall of the worker thread no room).
    window = make_window((endpoint.url, "Tasks"), budget_s=30)
    # The call times out with its task still working: its budget must leave room for the task to be
    # made first (handshake and tools/call, some 30 ms idle, far more on a loaded machine).
    task = window.engine.call_tool(endpoint, "forever", {}, budget_s=3, definition={
        **_definition("forever"), "execution": {"taskSupport": "required"}})
    outcome = finish(qtbot, task)
    assert outcome.record.error.kind.value == "timed_out"
    assert outcome.record.step.task["taskId"] == "task-1"
    window.workbench.operations.select(task)
    qtbot.waitUntil(lambda: "task was still running" in window.workbench.result.sentence.text(), timeout=10000)
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    tab.reload()
    qtbot.waitUntil(lambda: tab.select_runs([outcome.run_id]) and tab.timeline_pane.model.rowCount() > 0,
                    timeout=5000)
    tab.timeline_pane.view.selectRow(0)
    qtbot.waitUntil(lambda: tab.detail.step is not None, timeout=5000)
    assert tab.detail.look_up_task.isVisible()
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        tab.detail.look_up_task.click()
    lookup = submitted.args[0]
    looked = finish(qtbot, lookup)
    assert looked.status == "ok", looked.record.error
    assert [leg.method for leg in lookup.state.legs] == ["initialize", "notifications/initialized", "tasks/get"]
    assert looked.record.step.task["sessionId"] == outcome.record.step.task["sessionId"]
    assert window.tabs.currentWidget() is window.workbench
    window.workbench.operations.select(lookup)
    qtbot.waitUntil(lambda: "The task task-1 is working." in window.workbench.result.text.toPlainText(),
                    timeout=10000)
