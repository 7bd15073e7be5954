"""Tab goes through the window in the order the eye reads it, and never sticks in one control."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QComboBox, QWidget

from inspector.store import RunStore, resolve_db_path
from tests.support.sample_runs import mixed_run


def _press_tab(qtbot, widget: QWidget) -> QWidget:
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)
    qtbot.keyClick(widget, Qt.Key.Key_Tab)
    return QApplication.focusWidget()


def test_a_table_is_one_tab_stop(qtbot, make_window, demo_server) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_ids = [mixed_run(store, f"run {n}") for n in range(3)]
    window = make_window((demo_server.url, "Demo server"))
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: all(tab.runs.row_of(run_id) is not None for run_id in run_ids))
    assert tab.select_runs([run_ids[0]])
    qtbot.waitUntil(lambda: tab.timeline.rowCount() > 1)
    for view in (tab.run_view, tab.timeline_view):
        view.setCurrentIndex(view.model().index(0, 0))
        after = _press_tab(qtbot, view)
        assert after is not view and not view.isAncestorOf(after), f"Tab stayed in {view.accessibleName()!r}"
        assert view.currentIndex().column() == 0  # and did not move the current cell
    assert window.play.room is not None  # built: its steps table counts too
    tables = [view for view in window.findChildren(QAbstractItemView)
              if not isinstance(view.parent() and view.parent().parent(), QComboBox)]
    assert [view.accessibleName() for view in tables if view.tabKeyNavigation()] == []


def _walk(qtbot, start: QWidget, presses: int = 150) -> list[QWidget]:
    """The widgets Tab reaches from ``start``, until one comes again (back at the start, or a trap)."""
    start.setFocus()
    qtbot.waitUntil(start.hasFocus)
    reached = [start]
    for _ in range(presses):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        reached.append(QApplication.focusWidget())
        if reached[-1] in reached[:-1]:
            break
    return reached


def _regions(window, reached: list[QWidget]) -> list[str]:
    def region(widget: QWidget) -> str:
        if window.servers.isAncestorOf(widget):
            return "servers"
        if widget is window.tabs.tabBar():
            return "tab bar"
        if window.tabs.currentWidget().isAncestorOf(widget):
            return "page"
        return "server log" if window.log_dock.isAncestorOf(widget) else type(widget).__name__
    regions = [region(widget) for widget in reached]
    return [name for n, name in enumerate(regions) if n == 0 or regions[n - 1] != name]


def _reading_order(widgets: list[QWidget], window) -> bool:
    places = [(w.mapTo(window, w.rect().topLeft()).y(), w.mapTo(window, w.rect().topLeft()).x()) for w in widgets]
    return places == sorted(places)


def test_tab_goes_through_each_tab_in_the_order_it_is_shown(qtbot, make_window, demo_server) -> None:
    window = make_window((demo_server.url, "Demo server"))
    assert window.runs_tab is not None and window.play.room is not None  # built after the first paint
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        QApplication.processEvents()
        reached = _walk(qtbot, window.servers.view)
        where = window.tabs.tabText(index)
        assert reached[-1] is reached[0], f"{where}: Tab is caught in a loop at {reached[-1].accessibleName()!r}"
        regions = _regions(window, reached)
        if window.tabs.currentWidget() is not window.workbench:
            # (The Workbench's argument fields are still reached after the Server log: see tab_stops.)
            assert regions == ["servers", "tab bar", "page", "server log", "servers"], where
        panel = [w for w in reached[:-1] if window.servers.isAncestorOf(w) and w is not window.servers.add_button]
        assert _reading_order(panel, window), [w.accessibleName() or w.text() for w in panel]


def test_no_tab_stop_is_a_bare_scroll_area(qtbot, make_window, demo_server) -> None:
    """A form's scroll area is no Tab stop of its own (a screen reader named it nothing; the first
    Tab in Settings landed there): its fields are the stops, and it scrolls to the one focused."""
    from PySide6.QtWidgets import QScrollArea

    from inspector.gui.dialogs.settings_dialog import SettingsDialog

    window = make_window((demo_server.url, "Demo server"))
    assert window.workbench.tools.select_tool("echo")
    reached = _walk(qtbot, window.workbench.tools.view)
    assert [w for w in reached if type(w) is QScrollArea] == []
    dialog = SettingsDialog(window.settings, str(window.db_path), window)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    first = dialog.focusWidget() or dialog
    reached = _walk(qtbot, first)
    assert len(reached) > 5 and [w for w in reached if type(w) is QScrollArea] == []


def test_export_has_a_shortcut_shown_in_the_menu_that_works_from_any_tab(qtbot, make_window) -> None:
    from inspector.gui.help_menu import ShortcutsDialog

    window = make_window(wait_tools=False)
    assert window.export_selected_action.shortcut() == QKeySequence("Ctrl+Shift+E")
    assert dict(ShortcutsDialog(window).rows())["File › Export the selected runs…"] == "Ctrl+Shift+E"
    window.workbench.tools.filter.setFocus()
    qtbot.waitUntil(window.workbench.tools.filter.hasFocus)
    qtbot.keyClick(window.workbench.tools.filter, Qt.Key.Key_E,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.tabs.currentWidget() is window.runs_tab  # no run selected: it says so, no file dialog
    assert window.runs_tab.status.text() == "There is no run to export: select runs or widen the filters."
