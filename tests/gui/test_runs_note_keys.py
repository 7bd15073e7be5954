"""Notes from the keyboard: File › Note on this run… (Ctrl+Shift+N) and Note on this step… (Shift+F2),
enabled while the Runs tab shows a run (a step), listed under Help › Keyboard shortcuts, offered in the run
list's and the timeline's context menus; the dialog closed, the focus is back where it was. Before, the
Note… buttons were reached with Tab alone. The real window, offscreen, driven by keys."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QMenu, QPlainTextEdit, QWidget

from inspector.gui.help_menu import ShortcutsDialog
from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_notes import when_note_dialog_opens
from tests.gui.test_runs_screenshots import runs_window
from tests.gui.test_screenshots import save
from tests.support.sample_runs import mixed_run

CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier


def _type_and_ok(text: str, asked: list[str]) -> None:
    """Answer the note dialog about to open with keys: ``text`` typed, Tab to OK, Return."""
    def reply(dialog: QInputDialog) -> None:
        asked.append(dialog.windowTitle())
        (editor,) = dialog.findChildren(QPlainTextEdit)
        QTest.keyClicks(editor, text)
        QTest.keyClick(editor, Qt.Key.Key_Tab)  # to OK
        QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Return)

    when_note_dialog_opens(reply)


def _escape(asked: list[str]) -> None:
    def reply(dialog: QInputDialog) -> None:
        asked.append(dialog.windowTitle())
        QTest.keyClick(dialog.focusWidget(), Qt.Key.Key_Escape)

    when_note_dialog_opens(reply)


def _active(qtbot, window) -> None:
    """The window active again, as the desktop makes it once a dialog over it closed (offscreen, no window
    is active then: the window's shortcuts would not be heard)."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def _focused(qtbot, window, widget: QWidget) -> None:
    _active(qtbot, window)
    widget.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is widget)


@pytest.fixture
def shown(qtbot, make_window, runs_tab_showing):
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    return runs_tab_showing(run_id, window=runs_window(make_window), listed=1)


def test_ctrl_shift_n_writes_the_runs_note_and_the_focus_stays_in_the_list(qtbot, shown) -> None:
    window, tab = shown.window, shown.tab
    run = tab.timeline.run
    _focused(qtbot, window, tab.run_view)
    asked: list[str] = []
    _type_and_ok("server hung", asked)
    QTest.keyClick(tab.run_view, Qt.Key.Key_N, CTRL_SHIFT)
    assert asked == [f"Note on run {run.id}"]
    qtbot.waitUntil(lambda: "server hung" in tab.timeline_pane.run_note.text())
    with RunStore.open(resolve_db_path()) as store:
        assert store.get_run(run.id).note == "server hung"
    qtbot.waitUntil(lambda: window.focusWidget() is tab.run_view)  # not the Note… button
    QApplication.processEvents()
    assert window.focusWidget() is tab.run_view


def test_shift_f2_writes_the_steps_note_and_the_focus_stays_on_the_timeline(qtbot, shown) -> None:
    window, tab = shown.window, shown.tab
    keys = window.note_keys
    assert keys.run_action.isEnabled() and not keys.step_action.isEnabled()  # no step chosen yet
    tab.select_step(4)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.row.sequence == 5)
    assert keys.step_action.isEnabled()
    _focused(qtbot, window, tab.timeline_view)
    asked: list[str] = []
    _escape(asked)  # cancelled: nothing written, the focus back on the step's row
    QTest.keyClick(tab.timeline_view, Qt.Key.Key_F2, Qt.KeyboardModifier.ShiftModifier)
    assert asked == ["Note on step 5"] and tab.detail.step.note == ""
    assert window.focusWidget() is tab.timeline_view
    _active(qtbot, window)
    _type_and_ok("slow worker pool", asked)
    QTest.keyClick(tab.timeline_view, Qt.Key.Key_F2, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: tab.detail.step.note == "slow worker pool")
    assert tab.detail.note.isVisibleTo(tab)
    QApplication.processEvents()
    assert window.focusWidget() is tab.timeline_view


def test_the_keys_do_nothing_without_a_run_or_outside_the_runs_tab(qtbot, shown) -> None:
    window, tab = shown.window, shown.tab
    keys = window.note_keys
    opened: list[str] = []

    def refuse() -> None:  # a dialog that opens is recorded and closed (the test would hang in it otherwise)
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QInputDialog):
            opened.append(dialog.windowTitle())
            dialog.reject()

    watch = QTimer()
    watch.timeout.connect(refuse)
    watch.start(20)
    try:
        _focused(qtbot, window, tab.run_view)
        QTest.keyClick(tab.run_view, Qt.Key.Key_F2, Qt.KeyboardModifier.ShiftModifier)  # no step chosen
        window.tabs.setCurrentWidget(window.workbench)
        assert not keys.run_action.isEnabled()
        QTest.keyClick(window.focusWidget() or window, Qt.Key.Key_N,
                       CTRL_SHIFT)
        window.tabs.setCurrentWidget(tab)
        assert keys.run_action.isEnabled()
        tab.search.setText("no run is called this")  # the run unlisted: none chosen
        qtbot.waitUntil(lambda: tab.timeline.run is None)
        assert not keys.run_action.isEnabled() and not keys.step_action.isEnabled()
        _focused(qtbot, window, tab.search)
        QTest.keyClick(tab.search, Qt.Key.Key_N, CTRL_SHIFT)
        qtbot.wait(100)
    finally:
        watch.stop()
    assert opened == []


def _when_menu_opens(letter: str, offered: list[str]) -> None:
    """Press ``letter`` in the popup menu about to open; what it offered (enabled) is added to ``offered``."""
    def pick() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, pick)
            return
        offered.extend(action.text() for action in menu.actions() if action.isEnabled() and not action.isSeparator())
        QTest.keyClick(menu, letter)
        if menu.isVisible():  # the letter chose nothing: closed, as Esc closes it
            QTest.keyClick(menu, Qt.Key.Key_Escape)

    QTimer.singleShot(20, pick)


@pytest.mark.qt_log_ignore("This plugin does not support raise", "This plugin does not support grabbing")
def test_from_the_file_menu_by_its_letters_the_focus_goes_back_where_it_was(qtbot, shown) -> None:
    """Alt+F, T: the menu bar holds the focus while its menu is open; the dialog closed, the timeline has it."""
    window, tab = shown.window, shown.tab
    tab.select_step(1)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.row.sequence == 2)
    for widget, letter, title in ((tab.timeline_view, "t", "Note on step 2"),
                                  (tab.search, "n", f"Note on run {tab.timeline.run.id}")):
        _focused(qtbot, window, widget)
        asked: list[str] = []
        offered: list[str] = []
        _escape(asked)
        _when_menu_opens(letter, offered)
        QTest.keyClick(widget, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)  # the menu opens; T, N in it
        qtbot.waitUntil(lambda: bool(asked))  # noqa: B023 (waited for here)
        assert asked == [title] and "Note on this s&tep…" in offered
        _active(qtbot, window)
        assert QApplication.focusWidget() is widget


def _pick_from_context_menu(qtbot, view: QWidget, letter: str) -> list[str]:
    """Open ``view``'s context menu as the Menu key does; what it offers; ``letter`` pressed in it."""
    offered: list[str] = []
    _when_menu_opens(letter, offered)
    QApplication.sendEvent(view, QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, QPoint(20, 20),
                                                   view.mapToGlobal(QPoint(20, 20))))
    return offered


@pytest.mark.qt_log_ignore("This plugin does not support raise", "This plugin does not support grabbing")
def test_the_context_menus_offer_the_notes(qtbot, shown) -> None:
    window, tab = shown.window, shown.tab
    _focused(qtbot, window, tab.run_view)
    asked: list[str] = []
    _escape(asked)
    offered = _pick_from_context_menu(qtbot, tab.run_view, "n")
    assert offered == ["&Note on this run…"] and asked == [f"Note on run {tab.timeline.run.id}"]
    assert window.focusWidget() is tab.run_view
    _active(qtbot, window)
    tab.select_step(1)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.row.sequence == 2)
    _focused(qtbot, window, tab.timeline_view)
    _escape(asked)
    offered = _pick_from_context_menu(qtbot, tab.timeline_view, "t")
    assert offered == ["Note on this s&tep…", "&Note on this run…"] and asked[-1] == "Note on step 2"
    assert window.focusWidget() is tab.timeline_view


@pytest.mark.parametrize(("language", "run_row", "step_row"), [
    ("en", ("File › Note on this run…", "Ctrl+Shift+N"), ("File › Note on this step…", "Shift+F2")),
    ("de", ("Datei › Notiz zu diesem Lauf…", "Strg+Umschalt+N"), ("Datei › Notiz zu diesem Schritt…", "Umschalt+F2"))])
def test_keyboard_shortcuts_list_them(qtbot, shown, language, run_row, step_row) -> None:
    try:
        switch_language(language)
        dialog = ShortcutsDialog(shown.window)
        qtbot.addWidget(dialog)
        rows = dialog.rows()
        assert run_row in rows and step_row in rows
    finally:
        switch_language("en")


@pytest.mark.qt_log_ignore("This plugin does not support raise", "This plugin does not support grabbing")
@pytest.mark.parametrize("language", ["en", "de"])
def test_screenshots_of_the_menus(qtbot, shown, language) -> None:
    """The File menu and the two context menus, to be looked at in English and German."""
    window, tab = shown.window, shown.tab
    tab.select_step(1)
    qtbot.waitUntil(lambda: tab.detail.step is not None)
    try:
        switch_language(language)
        QApplication.processEvents()
        file_menu = window.menuBar().actions()[0].menu()
        for name, menu in (("file", file_menu), ("run-list", _actions_menu(tab.run_view)),
                           ("timeline", _actions_menu(tab.timeline_view))):
            menu.popup(window.mapToGlobal(QPoint(40, 40)))
            qtbot.waitExposed(menu)
            save(menu, f"runs-note-keys-{name}-{language}")
            menu.hide()
    finally:
        switch_language("en")


def _actions_menu(view: QWidget) -> QMenu:
    """The menu ``view`` shows as its context menu (its own actions, Qt.ActionsContextMenu)."""
    assert view.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu
    menu = QMenu(view)
    menu.addActions(view.actions())
    return menu



@pytest.mark.parametrize(("language", "run_tip", "step_tip"), [
    ("en", "Write a note on the selected run (Ctrl+Shift+N)", "Write a note on this step (Shift+F2)"),
    ("de", "Eine Notiz zum ausgewählten Lauf schreiben (Strg+Umschalt+N)",
     "Eine Notiz zu diesem Schritt schreiben (Umschalt+F2)"),
])
def test_the_two_note_buttons_say_whose_note_they_write(qtbot, shown, language, run_tip, step_tip) -> None:
    """The timeline's and the step detail's buttons both read "Note…", a few centimetres apart: a new user
    could not tell which wrote the run's note and which the step's. Their tips say it, and the key."""
    tab = shown.tab
    switch_language(language)
    try:
        assert tab.timeline_pane.note_button.toolTip() == run_tip
        assert tab.detail.note_button.toolTip() == step_tip
    finally:
        switch_language("en")
