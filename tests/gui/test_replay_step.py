"""Replay a stored step from the Runs tab: the same tool, arguments and budget run as an operation
in the workbench, its run linked to the step; the step detail then shows both results side by side.
A step of an imported trace asks which configured server to use."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.step_replays import ReplaysView
from inspector.mcp import ServerEndpoint
from inspector.runs import RunStep, StepKind
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_screenshots import save


def _finish(qtbot, task):
    if task.running:
        with qtbot.waitSignal(task.finished, timeout=15000):
            pass
    return task.outcome


def _select_step(qtbot, tab, run_id: int, row: int = 0) -> None:
    tab.reload()
    qtbot.waitUntil(lambda: tab.select_runs([run_id]) and tab.timeline_pane.model.rowCount() > row, timeout=5000)
    tab.timeline_pane.view.selectRow(row)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.run_id == run_id, timeout=5000)


def _replays_tab_shown(detail) -> bool:
    return not detail.replays.isHidden() and not detail.replays.other.isHidden()


def _stored_tool_step(window, title: str, source: str, server: str, step: RunStep):
    """A stored ok run of one tool ``step`` (``source``, on ``server``), the Runs tab shown: the tab and the run id."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run(title, source, server)
        store.append_step(run_id, step)
        store.finish_run(run_id, "ok")
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    return tab, run_id


def test_a_step_is_replayed_and_shown_beside_its_replay(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo"), wait_tools=False)
    endpoint = ServerEndpoint(demo_server.url, name="Demo")
    original = _finish(qtbot, window.engine.call_tool(endpoint, "echo", {"text": "again", "repeat": 2}, budget_s=6.5))
    assert original.status == "ok"
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    _select_step(qtbot, tab, original.run_id)
    assert tab.detail.replay.isVisible() and not _replays_tab_shown(tab.detail)
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        tab.detail.replay.click()
    replay = submitted.args[0]
    assert (replay.tool, replay.arguments, replay.budget_s) == ("echo", {"text": "again", "repeat": 2}, 6.5)
    assert window.tabs.currentWidget() is window.workbench  # it runs where operations are shown
    done = _finish(qtbot, replay)
    assert done.status == "ok" and done.run_id != original.run_id
    with RunStore.open(resolve_db_path()) as store:
        uid = store.get_run(original.run_id).uid
        assert store.step_at(done.run_id, 1).step.replay_of == {"run": uid, "step": 1}
    # Back on the step, still selected: its replay appears beside it once stored.
    window.tabs.setCurrentWidget(tab)
    view = tab.detail.replays
    qtbot.waitUntil(lambda: _replays_tab_shown(tab.detail), timeout=5000)
    assert tab.detail.step.run_id == original.run_id
    assert view.line.text() == f"replayed as run {done.run_id} (ok)"
    assert view.this_heading.text() == "This step" and view.this_summary.text().startswith("ok · ")
    assert view.other.heading.text() == f"Replay (run {done.run_id})"
    assert tab.detail.result.toPlainText() == view.other.result.toPlainText() == "again\nagain"
    assert view.verdict.text().startswith("Replay: the same outcome, the same result, ")
    # The replay's own step shows the step it replays beside it.
    _select_step(qtbot, tab, done.run_id)
    assert _replays_tab_shown(tab.detail)
    assert view.line.text() == f"replay of step 1 of run {original.run_id}"
    assert view.other.heading.text() == f"Original (run {original.run_id}, step 1)"
    with qtbot.waitSignal(tab.run_selected, timeout=10000):
        view.show_run.click()  # "Show that run": the replayed one
    assert tab.current_run().id == original.run_id


def test_several_replays_are_chosen_from_and_a_difference_is_named(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo"), wait_tools=False)
    tab, run_id = _stored_tool_step(window, "tools/call fail", "live", demo_server.url, RunStep(
        kind=StepKind.TOOL, round=0, duration_ms=3.0, tool_name="echo", tool_arguments={"text": "today's answer"},
        tool_result="yesterday's answer", tool_is_error=False, budget_s=4))
    for text in ("first", "second"):
        _select_step(qtbot, tab, run_id)
        with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
            tab.detail.replay.click()
        assert submitted.args[0].budget_s == 4
        assert _finish(qtbot, submitted.args[0]).status == "ok", text
        window.tabs.setCurrentWidget(tab)
    _select_step(qtbot, tab, run_id)
    view = tab.detail.replays
    assert not view.choice.isHidden() and view.choice.count() == 2 and view.choice.currentIndex() == 1
    assert view.verdict.text().startswith("Replay: the same outcome, a different result, ")
    assert tab.detail.result.toPlainText() == "yesterday's answer"
    assert view.other.result.toPlainText() == "today's answer"
    view.choice.setCurrentIndex(0)
    assert view.other.heading.text() == f"Replay (run {view.choice.itemData(0)})"


def _replay_asks(qtbot, window, source: str, server: str, arguments: dict, result: str):
    """A stored run (``source``, on ``server``) of one ``add`` step; Replay pressed: its server dialog."""
    tab, run_id = _stored_tool_step(window, f"{source} run", source, server, RunStep(
        kind=StepKind.TOOL, round=0, duration_ms=510.0, tool_name="add", tool_arguments=arguments,
        tool_result=result, tool_is_error=False))
    _select_step(qtbot, tab, run_id)
    tab.detail.replay.click()
    dialog = window.workbench.replay_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_an_imported_step_asks_which_server(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo"), wait_tools=False)
    dialog = _replay_asks(qtbot, window, "imported", "http://customer.invalid/mcp", {"a": 1, "b": 2}, "3")
    assert "imported trace" in dialog.why.text()
    assert dialog.call.text() == 'tools/call add with {"a": 1, "b": 2}'  # what is replayed, named
    save(dialog, "replay-server-dialog")
    assert dialog.servers.count() == 1 and dialog.servers.currentData() == demo_server.url
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        dialog.accept()
    replay = submitted.args[0]
    assert replay.server_url == demo_server.url and replay.tool == "add"
    assert _finish(qtbot, replay).status == "ok"
    assert window.tabs.currentWidget() is window.workbench


def test_a_played_scenario_s_step_on_a_demo_server_gone_with_its_run_asks_which_server(
        qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo"), wait_tools=False)
    # As a scenario played on a demo server of its own leaves it: a loopback address nobody configured.
    dialog = _replay_asks(qtbot, window, "scenario", "http://127.0.0.1:9/mcp", {"a": 2, "b": 40}, "42")
    assert "demo server started for its run alone" in dialog.why.text()
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        dialog.accept()
    replay = submitted.args[0]
    assert replay.server_url == demo_server.url and _finish(qtbot, replay).status == "ok"


@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshot_of_a_step_beside_its_replay(qtbot, make_window, demo_server, language: str) -> None:
    window = make_window((demo_server.url, "Demo"), wait_tools=False)
    endpoint = ServerEndpoint(demo_server.url, name="Demo")
    original = _finish(qtbot, window.engine.call_tool(endpoint, "fail", {}, budget_s=5))
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    _select_step(qtbot, tab, original.run_id)
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        tab.detail.replay.click()
    _finish(qtbot, submitted.args[0])
    switch_language(language)
    window.resize(1400, 860)
    window.tabs.setCurrentWidget(tab)
    _select_step(qtbot, tab, original.run_id)
    QApplication.processEvents()
    assert isinstance(tab.detail.replays, ReplaysView) and tab.detail.replays.other.isVisible()
    save(window, f"runs-replay-{language}", grey=True)


def test_a_cancelled_step_is_replayed_and_the_replay_cancelled_too(qtbot, make_window, demo_server) -> None:
    """The issue's check: a cancelled step replayed from the window (hang, cancelled in flight), the
    replay cancelled in its turn: both cancelled, never failed, side by side."""
    window = make_window((demo_server.url, "Demo"), wait_tools=False)
    endpoint = ServerEndpoint(demo_server.url, name="Demo")
    task = window.engine.call_tool(endpoint, "hang", {}, budget_s=30)
    qtbot.waitUntil(lambda: any(leg.method == "tools/call" for leg in task.state.legs), timeout=10000)
    task.cancel()
    original = _finish(qtbot, task)
    assert original.status == "cancelled"
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    _select_step(qtbot, tab, original.run_id)
    assert tab.detail.remote_effect.isVisibleTo(tab.detail) and tab.detail.replay.isVisible()
    with qtbot.waitSignal(window.engine.submitted, timeout=5000) as submitted:
        tab.detail.replay.click()
    replay = submitted.args[0]
    assert (replay.tool, replay.budget_s) == ("hang", 30)
    qtbot.waitUntil(lambda: any(leg.method == "tools/call" for leg in replay.state.legs), timeout=10000)
    window.workbench.cancel_current()  # Esc in the Workbench
    assert _finish(qtbot, replay).status == "cancelled"
    window.tabs.setCurrentWidget(tab)
    view = tab.detail.replays
    qtbot.waitUntil(lambda: _replays_tab_shown(tab.detail), timeout=5000)
    assert view.line.text().endswith("(cancelled)")
    assert view.this_summary.text().startswith("cancelled · ") and view.other.summary.text().startswith("cancelled · ")
    assert view.verdict.text().startswith("Replay: the same outcome, ")


def test_a_step_whose_server_is_no_address_says_so_in_the_readers_language(qtbot, make_window) -> None:
    """The status line said "'ftp://…' is not a server address: …" in English in a German window."""
    window = make_window(wait_tools=False)
    tab, run_id = _stored_tool_step(window, "tools/call add", "live", "ftp://customer.example/mcp", RunStep(
        kind=StepKind.TOOL, round=0, duration_ms=510.0, tool_name="add", tool_arguments={"a": 1}, tool_result="1",
        tool_is_error=False))
    _select_step(qtbot, tab, run_id)
    switch_language("de")
    try:
        tab.detail.replay.click()
        text = window.status.text()
        assert text.startswith("'ftp://customer.example/mcp' ist keine Serveradresse"), text
        assert "is not a server address" not in text
    finally:
        switch_language("en")
