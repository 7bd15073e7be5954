"""The window's language switches while it runs: menus, tab titles, headers, the timeline's outcome
column, the budget bar, panels and open dialogs; in German no English is left; and a German
screenshot of a run with ok, failed and cancelled steps."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QTabWidget,
    QWidget,
)

from inspector import i18n
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import OUTCOME_COLUMN, OutcomeRole
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from tests.gui.test_screenshots import save
from tests.support.runs_tab import RunsShown
from tests.support.sample_runs import mixed_run

#: Words that are the same in German: proper nouns, protocol words, units.
ALLOWED = {"MCP", "JSON", "ping", "tools/call", "tools/list", "Run", "Inspector", "Esc", "ok", "Server", "Status",
           "Details", "Schema", "Sampling", "Budget", "Tools", "Tool", "Trace", "System", "English", "Deutsch",
           "OTLP", "URL", "mcp", "SQLite", "Header", "Demo", "s", "ms", "min", "h", "live", "Token"}
ENGLISH = re.compile(r"\b(the|and|of|to|run|runs|step|steps|outcome|cancelled|failed|select|add|edit|remove|"
                     r"cancel|file|open|export|delete|quit|settings|filter|every|find|next|previous|time|source|"
                     r"kind|round|duration|title|started|reload|copy|result|arguments|"
                     r"no|not|left|deadline|budget of|waterfall|language|test|connection)\b", re.IGNORECASE)


@pytest.fixture
def german() -> Iterator[None]:
    yield
    switch_language("en")


def window_with_mixed_run(qtbot, make_window):
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store, "user-cancels")
    window = make_window(wait_tools=False)
    window.resize(1400, 860)
    window.main.setSizes([230, 1170])
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    RunsShown(qtbot, window).select(run_id)
    cancelled = next(row for row in range(tab.timeline.rowCount())
                     if tab.timeline.index(row, OUTCOME_COLUMN).data(OutcomeRole) == "cancelled")
    tab.select_step(cancelled)
    return window, cancelled


def texts(widget: QWidget) -> list[tuple[str, str]]:
    """Every text a person can see or hear in ``widget`` and its visible children."""
    found = []
    for child in [widget, *widget.findChildren(QWidget)]:
        if not child.isVisibleTo(widget) and child is not widget:
            continue
        where = f"{type(child).__name__} {child.objectName()}"
        for text in (child.toolTip(), child.accessibleName(), child.windowTitle()):
            found.append((where, text))
        if isinstance(child, (QLabel, QAbstractButton)):
            found.append((where, child.text()))
        if isinstance(child, QLineEdit):
            found.append((where, child.placeholderText()))
        if isinstance(child, QComboBox):
            found += [(where, child.itemText(i)) for i in range(child.count())]
        if isinstance(child, QTabWidget):
            found += [(where, child.tabText(i)) for i in range(child.count())]
    return found


def english_left(pairs: list[tuple[str, str]], skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    left = []
    for where, text in pairs:
        words = text.replace("&", "").replace("Run Inspector", "")
        for data in sorted(skip, key=len, reverse=True):  # a whole sentence before a word in it
            words = words.replace(data, "")
        if ENGLISH.search(words):
            left.append((where, text))
    return left


def test_switching_language_retranslates_the_window_and_the_open_timeline(qtbot, make_window, german) -> None:
    window, cancelled = window_with_mixed_run(qtbot, make_window)
    tab = window.runs_tab
    file_menu = window.menuBar().actions()[0]
    outcome = tab.timeline.index(cancelled, OUTCOME_COLUMN)
    bar = tab.detail.bar
    assert (file_menu.text(), window.tabs.tabText(1)) == ("&File", "R&uns")
    assert tab.timeline.headerData(OUTCOME_COLUMN, Qt.Orientation.Horizontal) == "Outcome"
    assert outcome.data() == "cancelled" and "cancelled" in bar.accessibleDescription()
    assert switch_language("de") == "de"
    assert (file_menu.text(), window.tabs.tabText(1)) == ("&Datei", "&Läufe")
    assert tab.timeline.headerData(OUTCOME_COLUMN, Qt.Orientation.Horizontal) == "Ergebnis"
    assert outcome.data() == "abgebrochen"
    assert "abgebrochen" in bar.accessibleDescription() and "Budget" in bar.accessibleDescription()
    assert "Schritt" in tab.run_heading.text() and "Schritt" in tab.detail.heading.text()
    assert tab.outcome_filter.itemText(0) == "Jedes Ergebnis"
    switch_language("en")
    assert (file_menu.text(), tab.timeline.index(cancelled, OUTCOME_COLUMN).data()) == ("&File", "cancelled")
    assert "cancelled" in bar.accessibleDescription()


def test_in_german_no_english_is_left_in_the_window_its_menus_and_an_open_dialog(qtbot, make_window,
                                                                                 german) -> None:
    window, _cancelled = window_with_mixed_run(qtbot, make_window)
    switch_language("de")
    QApplication.processEvents()
    run = window.runs_tab.timeline.run
    data = (run.title, run.server or "", str(window.db_path), "user-cancels", "hang", "echo")
    pairs = texts(window)
    for menu_action in window.menuBar().actions():
        pairs.append(("menu", menu_action.text()))
        pairs += [("menu item", action.text()) for action in menu_action.menu().actions()]
    for view in (window.runs_tab.run_view, window.runs_tab.timeline_view):
        model = view.model()
        pairs += [("header", str(model.headerData(c, Qt.Orientation.Horizontal))) for c in range(model.columnCount())]
    left = [(where, text) for where, text in english_left(pairs, data)
            if not set(re.findall(r"[A-Za-z]+", text)) <= ALLOWED]
    assert left == []
    dialog = SettingsDialog(window.settings, str(window.db_path), window)
    qtbot.addWidget(dialog)
    dialog.show()
    buttons = dialog.findChild(QDialogButtonBox)
    assert buttons.button(QDialogButtonBox.StandardButton.Cancel).text() == "Abbrechen"
    assert english_left(texts(dialog), (str(window.db_path),)) == []
    assert dialog.language.itemText(1) == "English" and dialog.language.itemText(2) == "Deutsch"
    switch_language("en")
    assert dialog.windowTitle() == "Settings"


def test_the_setting_switches_the_window(qtbot, make_window, german) -> None:
    window = make_window(wait_tools=False)
    window.settings.language = "de"
    assert window.apply_language() == "de" and i18n.current_language() == "de"
    assert window.menuBar().actions()[0].text() == "&Datei"
    window.settings.language = "en"
    assert window.apply_language() == "en"


def test_settings_saved_keep_the_language_of_lang_for_the_session(qtbot, make_window, german, monkeypatch) -> None:
    # `run-inspector --lang de` with no language set: File › Settings…, a new budget, OK. The language
    # was not touched, so `--lang` still wins; the window stayed German (it switched to the system's).
    window = make_window(wait_tools=False)
    assert window.settings.language == ""
    switch_language("de")  # as run_window does for --lang de

    def new_budget(dialog: SettingsDialog) -> int:
        # The language in force, not "System (English)" beside a German window; kept for the session only.
        assert dialog.language.currentText() == "Deutsch"
        dialog.budget.setText("30")
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(SettingsDialog, "exec", new_budget)
    window.open_settings()
    assert window.settings.default_budget_s == 30
    assert i18n.current_language() == "de" and window.menuBar().actions()[0].text() == "&Datei"
    assert window.settings.language == ""  # `--lang` is not saved by an OK that did not choose it


@pytest.mark.qt_log_ignore("This plugin does not support raise", "This plugin does not support grabbing")  # the list
def test_the_language_of_lang_chosen_in_the_settings_is_saved(qtbot, make_window, german, monkeypatch) -> None:
    """`run-inspector --lang de`, File › Settings…, German chosen in the box (it showed German already), OK: German
    was not saved (no change was seen), and the next start without --lang was English."""
    window = make_window(wait_tools=False)
    switch_language("de")  # as run_window does for --lang de

    def choose_german(dialog: SettingsDialog) -> int:
        box = dialog.language
        box.showPopup()
        box.view().setCurrentIndex(box.model().index(box.findData("de"), 0))
        qtbot.keyClick(box.view(), Qt.Key.Key_Return)  # chosen as the user chooses it, from the open list
        dialog.accept()
        return dialog.result()

    monkeypatch.setattr(SettingsDialog, "exec", choose_german)
    window.open_settings()
    assert window.settings.language == "de"


@pytest.mark.parametrize("language", ["de", "en"])
def test_screenshot_of_a_run_with_ok_failed_and_cancelled_steps(qtbot, make_window, german, language) -> None:
    window, _cancelled = window_with_mixed_run(qtbot, make_window)
    switch_language(language)
    tab = window.runs_tab
    words = {tab.timeline.index(row, OUTCOME_COLUMN).data() for row in range(tab.timeline.rowCount())}
    expected = {"de": {"ok", "fehlgeschlagen", "abgebrochen"}, "en": {"ok", "failed", "cancelled"}}[language]
    assert expected <= words
    # No clipped heading: every column is at least as wide as its heading needs.
    for view in (tab.run_view, tab.timeline_view):
        header = view.horizontalHeader()
        for column in range(view.model().columnCount()):
            if view.isColumnHidden(column):  # the timeline's source, in a narrow pane: the kind says it
                continue
            heading = str(view.model().headerData(column, Qt.Orientation.Horizontal))
            assert header.sectionSize(column) >= header.fontMetrics().horizontalAdvance(heading) + 8, heading
    save(window, f"runs-language-{language}")
    # The step search's placeholder shows whole beside the filters (it was cut: "In diesem Lau…").
    find = tab.timeline_pane.find_edit
    # (The room beside the text: the frame, the margins and the clear button's place, about 30 px.)
    assert find.fontMetrics().horizontalAdvance(find.placeholderText()) + 30 <= find.width(), find.width()


def test_in_german_the_workbench_after_a_cancel_and_its_dialogs_have_no_english(qtbot, make_window, german,
                                                                                 demo_server) -> None:
    """The workbench with a cancelled operation (its bar, result, health), the server log, the server
    dialog, a server's question and a sampling request: all German, the server's own words aside."""
    import asyncio

    from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog, SamplingDialog
    from inspector.gui.dialogs.server_dialog import ServerDialog
    from inspector.gui.workbench.server_requests import PendingQuestion
    from tests.gui.test_main_window import choose, finished

    window = make_window((demo_server.url, "Demo server"))
    switch_language("de")
    choose(window, "hang")
    task = window.workbench.run_current_tool()
    assert demo_server.state.hang_started.wait(10)
    task.cancel()
    assert finished(qtbot, task).status == "cancelled"
    qtbot.waitUntil(lambda: "1\u00a0abgebrochen" in window.servers.health.text())
    QApplication.processEvents()
    window.workbench.operations.select(task)
    assert "abgebrochen" in window.workbench.operations.detail.current_geometry().end_text
    assert "abgebrochen" in window.workbench.operations.row_for(task).state_text
    # What came from the server (tool names and descriptions, the demo's texts) is not ours to translate.
    tools = window.workbench.tools.model
    server_words = tuple(tools.index(r, 0).data() for r in range(tools.rowCount()))
    server_words += (window.workbench.tool_title.text(), window.workbench.tool_title.toolTip().replace("&", ""),
                     window.workbench.result.text.toPlainText(), demo_server.url, "Demo server",
                     str(window.db_path), "hang", task.title)
    save(window, "workbench-cancelled-de")
    pairs = texts(window) + texts(window.log_dock.view)
    left = [(where, text) for where, text in english_left(pairs, server_words)
            if not set(re.findall(r"[A-Za-z]+", text)) <= ALLOWED]
    assert left == []

    server = ServerDialog(window, url=demo_server.url, name="Demo server")
    qtbot.addWidget(server)
    server.show()
    assert english_left(texts(server), (demo_server.url, "Demo server", "http://127.0.0.1:8000/mcp", "file://")) == []
    loop = asyncio.new_event_loop()
    try:
        schema = {"type": "object", "properties": {"name": {"type": "string", "title": "Your name"}},
                  "required": ["name"]}
        question = ElicitationDialog(PendingQuestion(loop, loop.create_future(), 30, "Who are you?", schema),
                                     "Demo server", window)
        sampling = SamplingDialog(PendingQuestion(loop, loop.create_future(), 30, params={
            "messages": [{"role": "user", "content": {"type": "text", "text": "Say hello"}}], "maxTokens": 50}),
            "Demo server", window)
        for dialog in (question, sampling):
            qtbot.addWidget(dialog)
            dialog.show()
            found = english_left(texts(dialog), ("Who are you?", "Your name", "Say hello", "Demo server"))
            assert [(w, t) for w, t in found if not set(re.findall(r"[A-Za-z]+", t)) <= ALLOWED] == []
            dialog.reject()
    finally:
        loop.close()


def test_a_problem_shown_in_the_server_dialog_is_said_again_in_the_new_language(qtbot, german) -> None:
    from inspector.gui.dialogs.server_dialog import ServerDialog

    switch_language("de")
    dialog = ServerDialog(url="notaurl")
    qtbot.addWidget(dialog)
    dialog.budget.setText("abc")
    assert dialog.settings() is None
    assert "keine Serveradresse" in dialog.url_error.text() and "Budget" in dialog.budget_error.text()
    switch_language("en")
    assert "is not a server address" in dialog.url_error.text()
    assert dialog.budget_error.text().startswith("The budget must be")



def test_a_language_change_after_the_window_shut_down_touches_nothing_it_closed(qtbot, make_window) -> None:
    """The window's widgets live on until Qt deletes them; a language change meanwhile (another window's,
    a test's) must not read the closed run database. It once did: the sign-in strip read a server whose
    name had changed in the database since the strip last read it."""
    window = make_window(("http://127.0.0.1:9/mcp", "Nine"), wait_tools=False)
    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db).save_server("http://127.0.0.1:9/mcp", name="Renamed")
    window.tabs.setCurrentWidget(window.runs_tab)
    qtbot.waitUntil(lambda: window.admin.current() is not None and window.admin.current().name == "Renamed")
    window.shut_down()
    window.store.close()
    switch_language("de")  # an exception in a slot fails the test (pytest-qt)
    switch_language("en")
