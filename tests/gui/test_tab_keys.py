"""The keys that choose a tab leave the keyboard's focus in the tab chosen: Ctrl+Tab, Alt+W/U/P
(German Alt+W/L/F), and Ctrl+PgDown / Ctrl+PgUp, which choose the next or previous tab of the pane
the focus is in, as Ctrl+Tab does, and the window's tabs from the Servers panel or the Server log,
where Ctrl+Tab does nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.support.sample_runs import mixed_run

CTRL, ALT = Qt.KeyboardModifier.ControlModifier, Qt.KeyboardModifier.AltModifier


def _focused() -> QWidget:
    return QApplication.focusWidget()


def _active(qtbot, window) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # a shortcut is the active window's


def _focus(qtbot, widget: QWidget) -> None:
    widget.setFocus()
    qtbot.waitUntil(widget.hasFocus)


def test_the_play_tab_s_first_showing_keeps_the_focus_in_it(qtbot, make_window, demo_server) -> None:
    """The Play tab is built when first shown: Ctrl+Tab or Alt+P to it sent the focus to the Servers
    panel's + button, across the window, and every tab chosen after it left the focus there."""
    window = make_window((demo_server.url, "Demo server"))
    _active(qtbot, window)
    tab = window.runs_tab
    assert not window.play.built
    window.tabs.setCurrentWidget(tab)
    _focus(qtbot, tab.run_view)
    qtbot.keyClick(tab.run_view, Qt.Key.Key_Tab, CTRL)
    assert window.play.built and window.tabs.currentWidget() is window.play.room
    assert window.play.room.isAncestorOf(_focused()), _focused().accessibleName()
    assert _focused() is window.play.room.choices.what  # its first control


def test_alt_and_a_tab_s_letter_takes_the_focus_into_that_tab(qtbot, make_window, demo_server) -> None:
    """From the Servers panel or the Server log, Alt+U showed the Runs tab and left the focus (and a
    screen reader) where it was."""
    window = make_window((demo_server.url, "Demo server"))
    _active(qtbot, window)
    bench, runs = window.workbench, window.runs_tab
    _focus(qtbot, bench.tools.view)
    _focus(qtbot, window.servers.view)
    keyboard = Qt.WidgetAttribute.WA_KeyboardFocusChange
    window.setAttribute(keyboard, False)  # as after a click
    qtbot.keyClick(window.servers.view, Qt.Key.Key_U, ALT)
    assert window.tabs.currentWidget() is runs and runs.isAncestorOf(_focused()), _focused().accessibleName()
    # Marked as a keyboard's move, so the combo box chosen shows its focus (it showed none).
    assert window.testAttribute(keyboard)
    _focus(qtbot, window.log_dock.widget())
    switch_language("de")
    try:
        qtbot.keyClick(_focused(), Qt.Key.Key_W, ALT)
        assert _focused() is bench.tools.view  # where it was in that tab
        qtbot.keyClick(_focused(), Qt.Key.Key_L, ALT)  # "&Läufe"
        assert runs.isAncestorOf(_focused())
    finally:
        switch_language("en")
    _focus(qtbot, window.tabs.tabBar())
    qtbot.keyClick(_focused(), Qt.Key.Key_W, ALT)
    assert _focused() is window.tabs.tabBar()  # on the tabs, it stays on them, as arrows do


def test_ctrl_page_down_and_up_choose_the_tab_of_the_pane_in_focus(qtbot, make_window, demo_server) -> None:
    """Ctrl+PgDown, the other usual key for the next tab, did nothing anywhere, and from the Servers panel
    or the Server log no key chose the window's next tab."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    window = make_window((demo_server.url, "Demo server"))
    _active(qtbot, window)
    bench = window.workbench
    assert bench.tools.select_tool("echo")

    def text_fields() -> list[QLineEdit]:
        fields = bench.arguments.form.findChildren(QLineEdit)
        return [w for w in fields if w.accessibleName() == "text" and w.isVisible()]
    qtbot.waitUntil(lambda: len(text_fields()) == 1)
    (field,) = text_fields()
    _focus(qtbot, field)
    qtbot.keyClick(field, Qt.Key.Key_PageDown, CTRL)
    assert bench.arguments.tabs.currentIndex() == 1 and _focused() is bench.arguments.editor  # JSON
    qtbot.keyClick(_focused(), Qt.Key.Key_PageUp, CTRL)
    assert bench.arguments.tabs.currentIndex() == 0 and bench.arguments.form.isAncestorOf(_focused())
    _focus(qtbot, bench.tools.view)  # in the tools' pane (Tools, Resources, ...): its tabs
    offers = bench.tools.view.parentWidget()
    while offers.accessibleName() != "What the server offers":
        offers = offers.parentWidget()
    qtbot.keyClick(bench.tools.view, Qt.Key.Key_PageDown, CTRL)
    assert offers.currentIndex() == 1 and offers.currentWidget().isAncestorOf(_focused())
    qtbot.keyClick(_focused(), Qt.Key.Key_PageUp, CTRL)
    assert offers.currentIndex() == 0 and _focused() is bench.tools.view
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
    assert tab.select_runs([run_id])
    qtbot.waitUntil(lambda: tab.timeline.rowCount() > 1)
    tab.timeline_view.setCurrentIndex(tab.timeline_view.model().index(1, 0))
    detail = tab.detail.tabs
    assert detail.currentIndex() == 0
    _focus(qtbot, tab.detail.result)
    shown = [i for i in range(detail.count()) if detail.isTabVisible(i)]
    qtbot.keyClick(_focused(), Qt.Key.Key_PageUp, CTRL)  # from the first, round to the last shown
    assert detail.currentIndex() == shown[-1] and _focused() is detail.currentWidget()  # the payload's text
    _focus(qtbot, tab.run_view)  # in no inner pane with tabs: the window's tabs
    qtbot.keyClick(tab.run_view, Qt.Key.Key_PageDown, CTRL)
    assert window.tabs.currentWidget() is window.play.room and window.play.room.isAncestorOf(_focused())
    _focus(qtbot, window.servers.view)  # outside the window's tabs, where Ctrl+Tab does nothing
    qtbot.keyClick(window.servers.view, Qt.Key.Key_Tab, CTRL)
    assert window.tabs.currentWidget() is window.play.room
    qtbot.keyClick(window.servers.view, Qt.Key.Key_PageDown, CTRL)
    assert window.tabs.currentWidget() is bench and bench.isAncestorOf(_focused())


def test_the_keys_are_in_the_list_of_shortcuts(qtbot, make_window) -> None:
    from inspector.gui.help_menu import ShortcutsDialog

    window = make_window(wait_tools=False)
    switch_language("de")
    try:
        rows = dict(ShortcutsDialog(window).rows())
    finally:
        switch_language("en")
    assert rows["Nächster Tab des Bereichs mit dem Fokus"] == "Strg+Bild abwärts", rows
    assert rows["Voriger Tab des Bereichs mit dem Fokus"] == "Strg+Bild aufwärts"


def test_a_menu_s_entry_that_shows_a_tab_takes_the_focus_into_it(qtbot, make_window) -> None:
    """Ctrl+Shift+E (File › Export the selected runs…) or Ctrl+Shift+Enter (Run › Play a run) pressed in
    the Servers panel showed the Runs or the Play tab and left the focus in the panel."""
    window = make_window(wait_tools=False)
    _active(qtbot, window)
    _focus(qtbot, window.servers.view)
    qtbot.keyClick(window.servers.view, Qt.Key.Key_E, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert window.tabs.currentWidget() is window.runs_tab and window.runs_tab.isAncestorOf(_focused())
    _focus(qtbot, window.servers.view)
    window.play.play_action.trigger()
    room = window.play.room
    assert window.tabs.currentWidget() is room and room.isAncestorOf(_focused()), _focused().accessibleName()
    qtbot.waitUntil(lambda: not room.playing, timeout=30000)
