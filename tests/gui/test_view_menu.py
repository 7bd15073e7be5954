"""For an audience (issue 26): zoom for the whole window, full screen, presentation, and the Runs
tab's timeline following the newest step of a growing run unless the reader scrolled away."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inspector.gui.settings import AppSettings
from inspector.runs import RunStep, StepKind
from tests.support.runs_tab import RunsShown


def active(qtbot, window):
    """The window, active (a shortcut is the active window's)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


def test_zoom_in_out_and_back_with_the_keys(qtbot, make_window) -> None:
    window = active(qtbot, make_window())
    view = window.view_menu
    base = window.font().pointSizeF()
    editor = window.workbench.arguments.editor  # a fixed-width font of its own
    editor_base = editor.font().pointSizeF()
    QTest.keyClick(window.tabs, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == 110
    QTest.keyClick(window.tabs, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == 125
    assert abs(window.font().pointSizeF() - base * 1.25) < 0.01
    # Every part grows: the tabs' pages, the Play tab's rows, a fixed-width editor too.
    assert abs(window.play.room.view.font().pointSizeF() - base * 1.25) < 0.01
    assert abs(editor.font().pointSizeF() - editor_base * 1.25) < 0.01
    rows = window.play.room.view.verticalHeader()
    assert rows.defaultSectionSize() >= window.play.room.view.fontMetrics().height()
    assert "125" in view.zoom_reset_action.text()
    QTest.keyClick(window.tabs, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == 110
    QTest.keyClick(window.tabs, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom == 100
    assert abs(window.font().pointSizeF() - base) < 0.01
    assert abs(editor.font().pointSizeF() - editor_base) < 0.01
    for _ in range(20):
        view.step_zoom(1)
    assert view.zoom == 300 and not view.zoom_in_action.isEnabled()
    view.set_zoom(150)
    assert AppSettings().qsettings.value("view/zoom") in (150, "150")  # remembered for the next launch
    view.set_zoom(100)


def test_full_screen_with_f11(qtbot, make_window) -> None:
    window = active(qtbot, make_window())
    QTest.keyClick(window.tabs, Qt.Key.Key_F11)
    qtbot.waitUntil(window.isFullScreen)
    assert window.view_menu.full_screen_action.isChecked()
    QTest.keyClick(window.tabs, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not window.isFullScreen())
    assert not window.view_menu.full_screen_action.isChecked()


def test_presentation_hides_what_a_demo_does_not_need_and_brings_it_back(qtbot, make_window) -> None:
    window = make_window()
    view = window.view_menu
    assert window.servers.isVisible() and window.log_dock.isVisible() and window.statusBar().isVisible()
    view.presentation_action.trigger()
    assert view.presenting
    assert not window.servers.isVisible() and not window.log_dock.isVisible()
    assert not window.statusBar().isVisible()
    assert window.tabs.isVisible()
    view.presentation_action.trigger()
    assert not view.presenting
    assert window.servers.isVisible() and window.log_dock.isVisible() and window.statusBar().isVisible()


def test_presentation_leaves_a_pane_hidden_before_it_hidden_after(qtbot, make_window) -> None:
    window = make_window()
    window.log_dock.hide()
    window.view_menu.set_presentation(True)
    window.view_menu.set_presentation(False)
    assert window.servers.isVisible() and not window.log_dock.isVisible()


def test_the_timeline_follows_a_growing_run_unless_scrolled_away(qtbot, make_window) -> None:
    from inspector.store import RunStore, resolve_db_path

    window = make_window()
    window.resize(1200, 600)
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    store = RunStore.open(resolve_db_path())
    try:
        run_id = store.start_run("growing", "scenario", "http://127.0.0.1:1/mcp")

        def add(count: int) -> None:
            for number in range(count):
                store.append_step(run_id, RunStep(kind=StepKind.LLM, round=number + 1, duration_ms=1.0,
                                                  content=f"step {number}"), datetime.now(UTC))

        add(3)
        RunsShown(qtbot, window).select(run_id, steps=3)
        bar = tab.timeline_view.verticalScrollBar()
        add(60)
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == 63, timeout=5000)
        qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=5000)
        # The reader scrolls up: the timeline stays where they put it as steps keep coming.
        bar.setValue(0)
        add(20)
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == 83, timeout=5000)
        QTest.qWait(50)
        assert bar.value() == 0
        # Back at the end, it follows again.
        bar.setValue(bar.maximum())
        add(20)
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == 103, timeout=5000)
        qtbot.waitUntil(lambda: bar.value() == bar.maximum(), timeout=5000)
        # A growing run selected late (another run shown meanwhile) opens at its newest step.
        other = store.start_run("another", "live", "http://127.0.0.1:1/mcp")
        store.finish_run(other, "ok")
        tab.reload()
        assert tab.select_runs([other])
        qtbot.waitUntil(lambda: tab.timeline.run is not None and tab.timeline.run.id == other, timeout=5000)
        assert tab.select_runs([run_id])
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == 103, timeout=5000)
        qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=5000)
        add(5)
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == 108, timeout=5000)
        qtbot.waitUntil(lambda: bar.value() == bar.maximum(), timeout=5000)
        store.finish_run(run_id, "ok")
    finally:
        store.close()
