"""Using the window without a mouse, or with a screen reader: where the focus is can be seen in a
list, a table or a text; an operation's end (ok, failed, cancelled) is said without being asked; Esc
cancels only what the tab in view shows; Tab leaves a text editor, which has a name."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAccessible, QPalette
from PySide6.QtWidgets import QApplication, QTableView, QWidget

from inspector.gui.language import switch_language
from inspector.gui.widgets.hints import contrast_ratio
from tests.gui.test_main_window import choose, finished
from tests.gui.test_screenshots import save


def _tab_to(qtbot, start: QWidget, target: QWidget, presses: int = 60) -> None:
    """Press Tab from ``start`` until ``target`` has the focus, as a keyboard's user gets there."""
    start.setFocus()
    qtbot.waitUntil(start.hasFocus)
    for _ in range(presses):
        if QApplication.focusWidget() is target:
            return
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    raise AssertionError(f"Tab did not reach {target.accessibleName()!r}")


def _ring_colour(window, widget: QWidget):
    """The colour of ``widget``'s left edge, half way down, as the window shows it."""
    QApplication.processEvents()
    corner = widget.mapTo(window, QPoint(0, 0))
    return window.grab().toImage().pixelColor(corner.x(), corner.y() + widget.height() // 2)


def test_a_focused_list_table_or_text_has_a_ring_a_field_its_own_mark(qtbot, make_window, demo_server) -> None:
    """The selected server, tool and run looked the same whether their list had the focus or not."""
    window = make_window((demo_server.url, "Demo server"))
    window.resize(1400, 860)
    bench = window.workbench
    highlight = window.palette().color(QPalette.ColorRole.Highlight)
    background = window.palette().color(QPalette.ColorRole.Window)
    assert contrast_ratio(highlight, background) >= 3  # WCAG 2.x: a focus mark's contrast
    assert _ring_colour(window, bench.tools.view) != highlight  # no ring before the focus comes
    _tab_to(qtbot, window.servers.view, bench.tools.view)
    assert _ring_colour(window, bench.tools.view) == highlight
    assert _ring_colour(window, window.servers.view) != highlight  # the selected server: no ring
    save(window, "focus-ring-tools-en")
    children = QAccessible.queryAccessibleInterface(bench.result.text).childCount()
    _tab_to(qtbot, bench.tools.view, bench.result.text)  # read-only: no caret to show the focus
    assert window.focus_ring.on is bench.result.text
    # The ring is not met by a screen reader walking the text's children.
    assert QAccessible.queryAccessibleInterface(bench.result.text).childCount() == children
    save(window, "focus-ring-result-en")
    assert _ring_colour(window, bench.result.text) == highlight
    assert _ring_colour(window, bench.tools.view) != highlight
    _tab_to(qtbot, window.servers.view, bench.tools.filter)  # a line edit marks its focus itself
    assert window.focus_ring.on is None
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    switch_language("de")
    try:
        _tab_to(qtbot, window.servers.view, tab.run_view)
        assert _ring_colour(window, tab.run_view) == highlight
        save(window, "focus-ring-runs-de")
    finally:
        switch_language("en")


def test_a_window_s_ring_stays_in_that_window(qtbot, make_window) -> None:
    """Each window's ring follows the focus in its own widgets only: a window closed and not yet deleted
    moved its ring into another window's focused table, and painting that table then crashed the
    process (a segmentation fault in the suite, after a window test)."""
    window = make_window()
    window.close()
    other = QTableView()
    qtbot.addWidget(other)
    other.show()
    qtbot.waitExposed(other)
    other.activateWindow()
    other.setFocus()
    qtbot.waitUntil(other.hasFocus)
    QApplication.processEvents()
    assert window.focus_ring.on is None
    assert not [child for child in other.findChildren(QWidget) if child.objectName() == "focus-ring"]


def test_an_operation_s_end_is_said_to_a_screen_reader_cancelled_apart_from_failed(
        qtbot, make_window, demo_server, announcements) -> None:
    """The status line and the operation's row changed, but a screen reader says a label's new text
    only when the label is visited: nobody heard that the call ended, nor how."""
    window = make_window((demo_server.url, "Demo server"))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)  # a shortcut is the active window's
    choose(window, "hang")
    task = window.workbench.run_current_tool()
    assert demo_server.state.hang_started.wait(10)
    qtbot.keyClick(window.workbench.tools.view, Qt.Key.Key_Escape)
    assert finished(qtbot, task).status == "cancelled"
    assert announcements[-1] == f"last run {task.outcome.run_id}: tools/call hang (cancelled)"
    switch_language("de")
    try:
        choose(window, "fail")
        task = window.workbench.run_current_tool()
        assert finished(qtbot, task).status == "failed"
        assert announcements[-1] == f"letzter Lauf {task.outcome.run_id}: tools/call fail (fehlgeschlagen)"
    finally:
        switch_language("en")


def test_esc_in_the_runs_tab_cancels_no_operation_out_of_sight(qtbot, make_window, demo_server) -> None:
    """Pressed to leave the Runs tab's search field, Esc cancelled the Workbench's running call."""
    window = make_window((demo_server.url, "Demo server"))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    choose(window, "hang")
    task = window.workbench.run_current_tool()
    assert demo_server.state.hang_started.wait(10)
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    tab.search.setFocus()
    qtbot.waitUntil(tab.search.hasFocus)
    qtbot.keyClick(tab.search, Qt.Key.Key_Escape)
    qtbot.wait(100)  # a cancel reaches the operation at once; its end is reported within a frame or two
    assert task.running and window.cancel_action.isEnabled()  # Run › Cancel still does it, without the key
    assert window.cancel_action.shortcuts() == []
    window.tabs.setCurrentWidget(window.workbench)
    qtbot.keyClick(window.workbench.tools.view, Qt.Key.Key_Escape)
    assert finished(qtbot, task).status == "cancelled"


def test_tab_leaves_the_note_s_editor_for_its_buttons_and_the_editor_is_named(qtbot, make_window) -> None:
    """Tab typed a tab character into the note (Qt's editor keeps it), and a screen reader heard an
    editor with no name."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QInputDialog, QPlainTextEdit, QPushButton

    from inspector.store import RunStore, resolve_db_path
    from tests.gui.test_runs_notes import when_note_dialog_opens
    from tests.support.sample_runs import mixed_run

    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1)
    assert tab.select_runs([run_id])
    seen: dict[str, object] = {}

    def look(dialog: QInputDialog) -> None:
        try:  # the dialog closes whatever the checks meet
            (editor,) = dialog.findChildren(QPlainTextEdit)
            seen["name"] = QAccessible.queryAccessibleInterface(editor).text(QAccessible.Text.Name)
            seen["description"] = editor.accessibleDescription()
            QTest.keyClicks(editor, "ok")
            QTest.keyClick(editor, Qt.Key.Key_Tab)
            seen["typed"] = editor.toPlainText()
            focused = dialog.focusWidget()
            seen["then"] = focused.text() if isinstance(focused, QPushButton) else type(focused).__name__
        finally:
            dialog.reject()

    when_note_dialog_opens(look)
    switch_language("de")
    try:
        tab.timeline_pane.note_button.click()
    finally:
        switch_language("en")
    assert seen["typed"] == "ok" and seen["then"] == "OK", seen
    assert seen["name"] == f"Notiz zu Lauf {run_id}", seen
    assert str(seen["description"]).startswith("Was Sie gefunden haben"), seen


def test_tab_leaves_the_json_arguments_for_run(qtbot, make_window, demo_server) -> None:
    """In the JSON tab, Tab stayed in the editor (Ctrl+Tab went on to the Schema tab, not to Run)."""
    window = make_window((demo_server.url, "Demo server"))
    bench = window.workbench
    choose(window, "echo")
    bench.arguments.tabs.setCurrentIndex(1)
    editor = bench.arguments.editor
    text = editor.toPlainText()
    editor.setFocus()
    qtbot.waitUntil(editor.hasFocus)
    qtbot.keyClick(editor, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is bench.run_button and editor.toPlainText() == text
    qtbot.keyClick(bench.run_button, Qt.Key.Key_Backtab)
    assert QApplication.focusWidget() is editor


def test_tab_leaves_a_question_s_json_answer_for_its_buttons(qtbot) -> None:
    import asyncio

    from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog
    from inspector.gui.workbench.server_requests import PendingQuestion

    loop = asyncio.new_event_loop()
    try:
        schema = {"type": "object", "properties": {"address": {"type": "object", "default": {"city": "Graz"}}}}
        dialog = ElicitationDialog(PendingQuestion(loop, loop.create_future(), 30, "Where?", schema))
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        editor = dialog.json_editor
        text = editor.toPlainText()
        editor.setFocus()
        qtbot.waitUntil(editor.hasFocus)
        qtbot.keyClick(editor, Qt.Key.Key_Tab)
        assert dialog.focusWidget() is not editor and editor.toPlainText() == text
        dialog.reject()
    finally:
        loop.close()


def test_play_by_keyboard_leaves_the_focus_on_cancel_and_play_is_said_in_words(qtbot, make_window) -> None:
    """Space on Play disabled it with the focus on it, and the focus went on to the steps table, so the
    cancel was no longer one key away; a screen reader read the button's triangle as a word."""
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.workbench.tools.filter.setFocus()
    qtbot.waitUntil(window.workbench.tools.filter.hasFocus)
    qtbot.keyClick(window.workbench.tools.filter, Qt.Key.Key_P, Qt.KeyboardModifier.AltModifier)
    room = window.play.room
    assert QApplication.focusWidget() is room.choices.what
    assert room.choices.choose("user-cancels")
    qtbot.keyClick(room.choices.what, Qt.Key.Key_Tab)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is room.play_button
    assert QAccessible.queryAccessibleInterface(room.play_button).text(QAccessible.Text.Name) == "Play the chosen run"
    qtbot.keyClick(room.play_button, Qt.Key.Key_Space)
    run = room.run
    assert QApplication.focusWidget() is room.cancel_button
    # Still marked as the keyboard's, so Cancel shows it has the focus (Qt had dropped the mark).
    assert window.testAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange)
    qtbot.waitUntil(lambda: any(row.text == "hang" and row.running for row in run.rows), timeout=20000)
    qtbot.keyClick(room.cancel_button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not run.running, timeout=10000)
    assert run.status == "cancelled"
    assert room.isAncestorOf(QApplication.focusWidget())  # Show in Runs, next to it
    switch_language("de")
    try:
        assert room.play_button.accessibleName() == "Den gewählten Lauf vorführen"
    finally:
        switch_language("en")


def test_folding_a_step_by_keyboard_is_said_and_the_timeline_says_its_keys(qtbot, tmp_path, announcements) -> None:
    """Right and Left fold a step of a span tree, but a screen reader heard nothing when they did, and
    nothing told it that they would."""
    from inspector.gui.runs.timeline_pane import TimelinePane
    from inspector.store import RunStore
    from tests.gui.test_runs_span_tree import agent_run

    with RunStore.open(tmp_path / "runs.db") as store:
        pane = TimelinePane(store)
        qtbot.addWidget(pane)
        pane.show()
        try:
            _fold_by_keyboard(qtbot, pane, agent_run(store, "traceloop.jsonl"), announcements)
        finally:
            pane.hide()  # not painted again from a closed store


def _fold_by_keyboard(qtbot, pane, run, announcements: list[str]) -> None:
    pane.show_run(run)
    pane.select_step(1)  # a step with none under it: Left goes to the step above it, and says nothing
    pane.view.setFocus()
    qtbot.keyClick(pane.view, Qt.Key.Key_Left)
    assert pane.view.currentIndex().row() == 0 and announcements == []
    qtbot.keyClick(pane.view, Qt.Key.Key_Left)
    assert pane.model.rowCount() == 1 and announcements[-1] == "collapsed: 6 steps under it hidden"
    qtbot.keyClick(pane.view, Qt.Key.Key_Right)
    assert announcements[-1] == "expanded: 6 steps under it shown"
    assert "Right unfolds a step" in pane.view.accessibleDescription()
    switch_language("de")
    try:
        qtbot.keyClick(pane.view, Qt.Key.Key_Left)
        assert announcements[-1] == "zugeklappt: 6 Schritte darunter ausgeblendet"
        assert "Pfeil rechts klappt einen Schritt" in pane.view.accessibleDescription()
    finally:
        switch_language("en")


def test_folding_a_step_of_a_big_trace_counts_the_steps_in_the_locales_numbers(qtbot, tmp_path,
                                                                              announcements) -> None:
    """A span with 1,200 under it: folded, a screen reader heard "collapsed: 1200 steps under it hidden",
    its digits said one by one or as "one thousand two hundred" depending on the reader, in German too."""
    import json

    from inspector.gui.runs.timeline_pane import TimelinePane
    from inspector.store import RunStore
    from inspector.transfer import import_trace

    spans = [{"traceId": "ab" * 16, "spanId": "f" * 16, "name": "invoke_agent big",
              "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000010000000000"}]
    spans += [{"traceId": "ab" * 16, "spanId": f"{n + 1:016x}", "parentSpanId": "f" * 16, "name": f"step {n}",
               "startTimeUnixNano": str(1_700_000_000_000_000_000 + n * 1000),
               "endTimeUnixNano": str(1_700_000_000_000_000_500 + n * 1000)} for n in range(1200)]
    trace = tmp_path / "big.json"
    trace.write_text(json.dumps({"resourceSpans": [{"resource": {}, "scopeSpans": [{"scope": {}, "spans": spans}]}]}))
    with RunStore.open(tmp_path / "runs.db") as store:
        (run_id,) = import_trace(store, trace).run_ids
        pane = TimelinePane(store)
        qtbot.addWidget(pane)
        pane.show()
        try:
            pane.show_run(store.get_run(run_id))
            pane.select_step(0)
            pane.view.setFocus()
            qtbot.keyClick(pane.view, Qt.Key.Key_Left)
            assert pane.model.rowCount() == 1 and announcements[-1] == "collapsed: 1,200 steps under it hidden"
            switch_language("de")
            try:
                qtbot.keyClick(pane.view, Qt.Key.Key_Right)
                assert announcements[-1] == "aufgeklappt: 1.200 Schritte darunter gezeigt"
            finally:
                switch_language("en")
        finally:
            pane.hide()  # not painted again from a closed store


def test_find_in_a_run_says_where_it_went(qtbot, make_window, announcements) -> None:
    """Typed into Find, a word highlighted rows and moved the timeline's selection, and Enter moved it on,
    but the focus stays in the field: a screen reader heard neither which step matched nor "no match"."""
    from inspector.store import RunStore, resolve_db_path
    from tests.support.sample_runs import mixed_run

    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    window = make_window()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
    assert tab.select_runs([run_id])
    qtbot.waitUntil(lambda: tab.timeline.rowCount() > 1)
    tab.run_view.setFocus()
    qtbot.keyClick(tab.run_view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    field = QApplication.focusWidget()
    assert field is tab.timeline_pane.finder.edit
    qtbot.keyClicks(field, "note")
    qtbot.waitUntil(lambda: bool(announcements))
    assert announcements == ["match 1 of 2: plan: write a note, then call hang"]
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert announcements[-1] == "match 2 of 2: write_note: saved note 1 · ok"
    switch_language("de")
    try:
        qtbot.keyClick(field, Qt.Key.Key_F3)
        assert announcements[-1].startswith("Treffer 1 von 2: ")
        qtbot.keyClicks(field, "zzz")
        qtbot.waitUntil(lambda: announcements[-1] == "kein Treffer")
    finally:
        switch_language("en")
    assert QApplication.focusWidget() is field


def test_what_the_status_lines_say_is_said_to_a_screen_reader(qtbot, make_window, announcements) -> None:
    """Ctrl+Enter with no tool chosen, or Ctrl+Shift+E with no run selected, put a sentence in a status
    line, which a screen reader says only when it is visited: the key seemed to do nothing."""
    window = make_window(wait_tools=False)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    bench = window.workbench
    bench.tools.filter.setFocus()
    qtbot.waitUntil(bench.tools.filter.hasFocus)
    qtbot.keyClick(bench.tools.filter, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert announcements[-1] == "Select a server and a tool first."
    switch_language("de")
    try:
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_E,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        assert window.tabs.currentWidget() is window.runs_tab
        assert announcements[-1] == window.runs_tab.status.text()
        assert announcements[-1].startswith("Es gibt keinen Lauf zum Exportieren")
        count = len(announcements)
    finally:
        switch_language("en")
    assert len(announcements) == count  # shown again in English, not said again


def test_why_a_connection_test_failed_is_said_to_a_screen_reader(qtbot, make_window, announcements) -> None:
    """Test connection said its answer ("No answer: …", "Answered in …") on the panel's line alone: a
    screen reader heard "ping (failed)" from the status line, never why. Shown again in another
    language, the sentence is not said again."""
    from tests.support.asgi_server import closed_port

    window = make_window((f"http://127.0.0.1:{closed_port()}/mcp", "Nobody there"), wait_tools=False)
    window.servers.view.setCurrentIndex(window.servers.view.model().index(0, 0))
    window.admin.test_current()
    qtbot.waitUntil(lambda: window.servers.test_result.text().startswith("No answer: "), timeout=10000)
    assert window.servers.test_result.text() in announcements
    switch_language("de")
    try:
        assert window.servers.test_result.text().startswith("Keine Antwort")
        assert window.servers.test_result.text() not in announcements
    finally:
        switch_language("en")


def test_what_an_ok_refused_is_said_to_a_screen_reader(qtbot, make_window, announcements) -> None:
    """OK in the Server, Settings or Open trace by id dialog with something wrong kept the dialog open and
    showed the problem beside its field: a screen reader said nothing, OK seemed to do nothing."""
    from inspector.gui.dialogs.server_dialog import ServerDialog
    from inspector.gui.dialogs.settings_dialog import SettingsDialog
    from inspector.gui.runs.trace_by_id import TraceByIdDialog

    window = make_window(wait_tools=False)
    server = ServerDialog(window)
    server.url.setText("ftp://example.org/mcp")
    settings = SettingsDialog(window.settings, str(window.db_path), window)
    settings.budget.setText("soon")
    trace = TraceByIdDialog(window.team.team, window)
    trace.trace_id.setText("zz")
    for dialog, problem in ((server, server.url_error), (settings, settings.budget_error), (trace, trace.error)):
        qtbot.addWidget(dialog)
        dialog.show()
        announcements.clear()
        dialog.accept()
        assert dialog.isVisible() and problem.isVisibleTo(dialog) and problem.text()
        assert announcements == [problem.text()], type(dialog).__name__
    announcements.clear()
    server.add_header("", "orphan value")
    server.accept()  # two problems: both said, in the order shown
    assert server.url_error.isVisibleTo(server) and server.header_error.isVisibleTo(server)
    assert announcements == [f"{server.url_error.text()} {server.header_error.text()}"]


def test_remove_server_asks_with_no_as_the_default_and_its_name_as_plain_text(qtbot, make_window) -> None:
    """Space on Remove, then Enter, removed the server, its secrets and its sign-in (Yes was the default);
    a name from an imported file was read as markup ("<b>staging</b>" showed bold)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QLabel, QMessageBox

    window = make_window(("http://127.0.0.1:9/mcp", "<b>staging</b>"), wait_tools=False)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.servers.view.setCurrentIndex(window.servers.view.model().index(0, 0))
    seen: dict[str, object] = {}

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox) or not box.isVisible():
            QTimer.singleShot(20, answer)
            return
        seen["default"] = box.defaultButton() is box.button(QMessageBox.StandardButton.No)
        seen["shown"] = [label.text() for label in box.findChildren(QLabel) if "staging" in label.text()]
        seen["plain"] = box.textFormat() == Qt.TextFormat.PlainText
        qtbot.keyClick(box, Qt.Key.Key_Return)

    QTimer.singleShot(20, answer)
    button = window.servers.remove_button
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(button, Qt.Key.Key_Space)
    assert seen == {"default": True, "plain": True,
                    "shown": ["Remove <b>staging</b> from the servers? Its stored runs stay."]}, seen
    assert [record.name for record in window.admin.registry.all()] == ["<b>staging</b>"]


def test_the_keyboard_s_focus_mark_lasts_until_the_mouse_moves_the_focus(qtbot, make_window, demo_server) -> None:
    """Ctrl+Tab to the Runs tab put the focus on its outcome filter without the keyboard's mark, so the
    combo box showed no focus; after a click, no control is marked (a mouse's user sees no rings)."""
    window = make_window((demo_server.url, "Demo server"))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    mark = Qt.WidgetAttribute.WA_KeyboardFocusChange
    bench = window.workbench
    _tab_to(qtbot, window.servers.view, bench.tools.filter)
    assert window.testAttribute(mark)
    qtbot.keyClick(bench.tools.filter, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is not bench.tools.filter and window.testAttribute(mark)
    window.tabs.setCurrentWidget(bench)
    qtbot.mouseClick(bench.tools.filter, Qt.MouseButton.LeftButton)
    assert QApplication.focusWidget() is bench.tools.filter and not window.testAttribute(mark)
    window.tabs.setCurrentWidget(window.runs_tab)  # the focus moves into the page: still no mark
    assert window.runs_tab.isAncestorOf(QApplication.focusWidget()) and not window.testAttribute(mark)
