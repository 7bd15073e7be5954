"""The Play tab (issue 26): shipped scenarios played from the window against the demo server, live,
stored as they happen, cancelled with Esc (the tool in flight cancelled in flight, nothing after)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def play_tab(window):
    tab = window.play
    window.tabs.setCurrentWidget(tab.room)
    return tab


def stored(run_id):
    """The run as stored, and its steps (kind, tool, outcome), read with a connection of the test's own."""
    from inspector.store import RunStore, resolve_db_path

    store = RunStore.open(resolve_db_path())
    try:
        steps = [(s.step.kind.value, s.step.tool_name, s.outcome) for s in store.iter_steps(run_id)]
        return store.get_run(run_id), steps
    finally:
        store.close()


def test_play_flaky_server_on_a_fresh_demo_server(qtbot, make_window, qtmodeltester) -> None:
    window = make_window()
    room = play_tab(window).room
    assert room.choices.choose("flaky-server")
    assert "fails every second call" in room.choices.description.text()
    run = room.play()
    assert run is not None and room.playing
    qtbot.waitUntil(lambda: run.run_id is not None, timeout=20000)  # the demo server's process is up
    with qtbot.waitSignal(run.ended, timeout=30000):
        pass
    # As `run-inspector scenario flaky-server` says: a run with a failed call is failed, answered to its end.
    assert (run.status, run.stop_reason) == ("failed", "answered"), run.error
    kinds = [(row.kind, row.state) for row in run.rows]
    # Round 1 ok, round 2 fails, the retry is ok, then the picture, then the final answer.
    assert kinds == [("model", "ok"), ("tool", "ok"), ("model", "ok"), ("tool", "failed"), ("model", "ok"),
                     ("tool", "ok"), ("model", "ok"), ("tool", "ok"), ("model", "ok")]
    assert all(row.bar is not None and row.bar.finished for row in run.rows if row.kind == "tool")
    assert "coloured stripes" in room.said.toPlainText()
    qtmodeltester.check(room.model)
    assert room.model.rowCount() == len(run.rows)
    # The run is in the Runs list, stored step by step.
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(run.run_id) is not None, timeout=5000)
    assert room.runs_button.isEnabled()
    room.runs_button.click()
    assert window.tabs.currentWidget() is tab
    assert tab.current_run().id == run.run_id and tab.current_run().status == "failed"
    assert tab.timeline.rowCount() == len(run.rows)


def test_play_user_cancels_and_cancel_with_esc_mid_run(qtbot, make_window) -> None:
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # a shortcut is the active window's
    room = play_tab(window).room
    assert room.choices.choose("user-cancels")
    run = room.play()
    # Esc while `hang` is in flight (before the scenario's own cancel after 2 s would come).
    qtbot.waitUntil(lambda: any(row.text == "hang" and row.running for row in run.rows), timeout=20000)
    assert window.play.cancel_action.isEnabled()
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert "cancelling" in room.status.text()
    with qtbot.waitSignal(run.ended, timeout=10000):
        pass
    assert run.status == "cancelled"
    hang = run.rows[-1]
    assert hang.text == "hang" and hang.state == "cancelled" and hang.step.cancelled_in_flight is True
    assert hang.bar.ending == "cancelled"
    assert "cancelled" in room.status.text() and "failed" not in room.status.text()
    # Stored: the run cancelled, never failed; no step after the cancelled call.
    record, steps = stored(run.run_id)
    assert record.status == "cancelled"
    assert steps == [("llm", None, ""), ("tool", "write_note", "ok"), ("llm", None, ""),
                     ("tool", "hang", "cancelled")]


def test_the_scenario_own_cancel_ends_the_run_cancelled(qtbot, make_window) -> None:
    window = make_window()
    room = play_tab(window).room
    assert room.choices.choose("user-cancels")
    run = room.play()
    with qtbot.waitSignal(run.ended, timeout=30000):
        pass
    assert run.status == "cancelled"
    assert [row.state for row in run.rows if row.kind == "tool"] == ["ok", "cancelled"]


def test_esc_belongs_to_the_tab_in_view(qtbot, make_window) -> None:
    window = make_window()
    tab = window.play
    window.tabs.setCurrentWidget(window.workbench)
    assert window.cancel_action.shortcuts() and tab.cancel_action.shortcut().isEmpty()
    window.tabs.setCurrentWidget(tab.room)
    assert not window.cancel_action.shortcuts() and not tab.cancel_action.shortcut().isEmpty()
    assert not tab.cancel_action.isEnabled()  # nothing plays

