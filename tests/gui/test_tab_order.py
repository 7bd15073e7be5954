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
        assert regions == ["servers", "tab bar", "page", "server log", "servers"], where
        panel = [w for w in reached[:-1] if window.servers.isAncestorOf(w) and w is not window.servers.add_button]
        assert _reading_order(panel, window), [w.accessibleName() or w.text() for w in panel]


def _workbench_regions(window, reached: list[QWidget]) -> list[str]:
    bench = window.workbench

    def region(widget: QWidget) -> str:
        if window.servers.isAncestorOf(widget):
            return "servers"
        if widget is window.tabs.tabBar():
            return "tab bar"
        if bench.browse.isAncestorOf(widget):
            return "tool list"
        if widget is bench.arguments.tabs.tabBar():
            return "Form/JSON/Schema"
        if bench.arguments.form.isAncestorOf(widget):
            return "fields"
        if widget in (bench.run_button, bench.cancel_button):
            return "Run/Cancel"
        if widget is bench.operations or bench.operations.isAncestorOf(widget):
            return "operations"
        if bench.detail.isAncestorOf(widget):
            return "result"
        return "server log" if window.log_dock.isAncestorOf(widget) else type(widget).__name__
    regions = [region(widget) for widget in reached]
    return [name for n, name in enumerate(regions) if n == 0 or regions[n - 1] != name]


def _field_controls(form) -> list[QWidget]:
    """The controls a person sees in the form (what Tab must reach there)."""
    return [w for w in form.findChildren(QWidget) if w.isVisible() and w.isEnabled()
            and w.focusPolicy() & Qt.FocusPolicy.TabFocus]


def test_tab_reaches_a_tools_fields_after_its_tabs_and_before_run(qtbot, make_window, demo_server) -> None:
    """The argument fields are built when a tool is chosen, after the window: yet Tab reaches them
    right after Form/JSON/Schema, in the order shown, then Run, the operations and the Server log;
    also after the tool is chosen again, an item is added to a list field (by Add item or in the JSON
    tab), or the language changes."""
    from inspector.gui.language import switch_language

    window = make_window((demo_server.url, "Demo server"))
    window.tabs.setCurrentWidget(window.workbench)
    bench, form = window.workbench, window.workbench.arguments.form
    expected = ["servers", "tab bar", "tool list", "Form/JSON/Schema", "fields", "Run/Cancel", "operations",
                "result", "server log", "servers"]

    def check(when: str, count: int) -> None:
        QApplication.processEvents()
        reached = _walk(qtbot, window.servers.view)
        assert reached[-1] is reached[0], f"{when}: Tab is caught in a loop at {reached[-1].accessibleName()!r}"
        assert _workbench_regions(window, reached) == expected, when
        fields = [w for w in reached if form.isAncestorOf(w)]
        assert len(fields) == count and set(fields) == set(_field_controls(form)), when  # nothing skipped
        assert _reading_order(fields, window), (when, [w.accessibleName() for w in fields])

    assert bench.tools.select_tool("write_note")
    check("write_note chosen", 5)  # text, tags' Add item, priority, meta's author, delay_seconds
    tags = form.field_at(("tags",))
    qtbot.mouseClick(tags.add_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(tags.add_button, Qt.MouseButton.LeftButton)
    check("two tags added", 9)  # each item: its line and its Remove
    assert bench.tools.select_tool("echo") and bench.tools.select_tool("write_note")
    check("write_note chosen again", 5)
    bench.arguments.editor.setPlainText('{"text": "hi", "tags": ["a"]}')  # typed in the JSON tab
    check("a tag given as JSON", 7)
    switch_language("de")
    try:
        check("in German, what was typed kept", 7)
    finally:
        switch_language("en")


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
