"""Notes in the Runs tab: write a note on the run and on a step, see it under the headings (plain
text), find the run by it; screenshots in English and German."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QPlainTextEdit

from inspector.store import RunStore, resolve_db_path
from inspector.store.notes import write_run_note
from tests.gui.test_runs_screenshots import runs_window
from tests.gui.test_screenshots import save
from tests.support.sample_runs import mixed_run

RUN_NOTE = "The <b>server</b> hung on hang; the client was right to give up. Ticket 4711."
STEP_NOTE = "Never answered: the worker pool was full (server log, 09:14)."


def when_note_dialog_opens(do: Callable[[QInputDialog], None]) -> None:
    """Call ``do`` with the note dialog about to open (modal: it opens after this returns)."""
    def look() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog) or not dialog.isVisible():
            QTimer.singleShot(20, look)
            return
        do(dialog)

    QTimer.singleShot(20, look)


def _answer(answer: str | None) -> list[tuple[str, str, str]]:
    """Answer the note dialog about to open as a user would: type ``answer`` and press OK, or Cancel
    (``None``); what it asked (title, question, the text it began with) is in the list returned."""
    asked: list[tuple[str, str, str]] = []

    def reply(dialog: QInputDialog) -> None:
        asked.append((dialog.windowTitle(), dialog.labelText(), dialog.textValue()))
        if answer is None:
            dialog.reject()
            return
        dialog.setTextValue(answer)
        dialog.accept()

    when_note_dialog_opens(reply)
    return asked


@pytest.mark.parametrize("language", ["en", "de"])
def test_notes_on_a_run_and_a_step(qtbot, make_window, runs_tab_showing, language) -> None:
    with RunStore.open(resolve_db_path()) as store:
        other = mixed_run(store, "another run")
        run_id = mixed_run(store)
    shown = runs_tab_showing(run_id, language=language, window=runs_window(make_window), listed=2)
    window, tab = shown.window, shown.tab
    pane = tab.timeline_pane
    assert pane.note_button.isEnabled() and not pane.run_note.isVisibleTo(tab)
    _answer(None)  # cancelled: nothing written
    pane.note_button.click()
    assert not pane.run_note.isVisibleTo(tab)
    asked = _answer(RUN_NOTE)
    pane.note_button.click()
    assert asked[0][0] == ("Note on run {id}" if language == "en" else "Notiz zu Lauf {id}").format(id=run_id)
    qtbot.waitUntil(lambda: pane.run_note.isVisibleTo(tab))
    assert RUN_NOTE in pane.run_note.text() and pane.run_note.textFormat() == Qt.TextFormat.PlainText
    tab.select_step(4)
    qtbot.waitUntil(lambda: tab.detail.step is not None and tab.detail.step.row.sequence == 5)
    asked = _answer(STEP_NOTE)
    tab.detail.note_button.click()
    qtbot.waitUntil(lambda: tab.detail.note.isVisibleTo(tab))
    assert STEP_NOTE in tab.detail.note.text() and tab.detail.step.note == STEP_NOTE
    save(window, f"runs-notes-{language}", grey=True)
    # Editing again starts from the note there is; the search finds the run by its note.
    again = _answer("")
    tab.detail.note_button.click()
    assert again[0][2] == STEP_NOTE
    qtbot.waitUntil(lambda: not tab.detail.note.isVisibleTo(tab))
    tab.search.setText("ticket 4711")
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1)
    assert tab.runs.run(0).id == run_id != other


@pytest.mark.parametrize(("language", "limit"), [("en", "at most 20,000 characters"),
                                                 ("de", "höchstens 20.000 Zeichen")])
def test_the_note_dialog_says_its_limit_as_the_language_writes_numbers(qtbot, make_window, runs_tab_showing,
                                                                       language, limit) -> None:
    """The real dialog (no stand-in): its question names the limit with the language's grouping, as the
    command line's refusal does ("20.000" in German, not "20000")."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    tab = runs_tab_showing(run_id, language=language, window=runs_window(make_window), listed=1).tab
    asked: list[str] = []

    def answer() -> None:
        dialogs = [widget for widget in QApplication.topLevelWidgets()
                   if isinstance(widget, QInputDialog) and widget.isVisible()]
        if not dialogs:
            QTimer.singleShot(50, answer)
            return
        asked.append(dialogs[0].labelText())
        dialogs[0].reject()

    QTimer.singleShot(50, answer)
    tab.timeline_pane.note_button.click()
    assert len(asked) == 1 and limit in asked[0], asked


def test_a_long_note_wraps_in_its_editor(qtbot, make_window, runs_tab_showing) -> None:
    """A note of a sentence or two is read whole in the dialog: its lines wrap at the editor's width (Qt's
    multi-line dialog kept a paragraph on one line and scrolled sideways: "… not our server. Tic")."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    tab = runs_tab_showing(run_id, window=runs_window(make_window), listed=1).tab
    long_note = ("The customer's upstream weather API answered 503 for Oslo; not our server. " * 3).strip()
    seen: dict[str, object] = {}

    def look(dialog: QInputDialog) -> None:
        (editor,) = dialog.findChildren(QPlainTextEdit)
        editor.setPlainText(long_note)
        QApplication.processEvents()
        seen["wrap"] = editor.lineWrapMode()
        seen["sideways"] = editor.horizontalScrollBar().maximum()
        seen["lines"] = editor.document().documentLayout().documentSize().height()
        dialog.accept()

    when_note_dialog_opens(look)
    tab.timeline_pane.note_button.click()
    assert seen["wrap"] == QPlainTextEdit.LineWrapMode.WidgetWidth
    assert seen["sideways"] == 0 and seen["lines"] > 1, seen
    qtbot.waitUntil(lambda: tab.timeline_pane.run_note.isVisibleTo(tab))
    with RunStore.open(resolve_db_path()) as store:
        assert store.get_run(run_id).note == long_note


def test_what_is_typed_goes_under_the_note_there_is(qtbot, make_window, runs_tab_showing) -> None:
    """Support answers a customer's note: the dialog opens with the cursor after it, nothing selected, so
    the words typed go under it (and the customer's import of the next export takes them). Qt's dialog
    opened with the whole note selected: the first key typed wiped out the customer's words."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
        write_run_note(store, run_id, "Kunde: hängt seit Montag")
    tab = runs_tab_showing(run_id, window=runs_window(make_window), listed=1).tab
    qtbot.waitUntil(lambda: tab.timeline_pane.run_note.isVisibleTo(tab))

    def type_under(dialog: QInputDialog) -> None:
        (editor,) = dialog.findChildren(QPlainTextEdit)
        QTest.keyClick(editor, Qt.Key.Key_Return)
        QTest.keyClicks(editor, "Support: fixed in 1.5")
        dialog.accept()

    when_note_dialog_opens(type_under)
    tab.timeline_pane.note_button.click()
    qtbot.waitUntil(lambda: "Support" in tab.timeline_pane.run_note.text())
    with RunStore.open(resolve_db_path()) as store:
        assert store.get_run(run_id).note == "Kunde: hängt seit Montag\nSupport: fixed in 1.5"


def test_a_note_and_the_answer_under_it_show_as_their_lines(qtbot, make_window, runs_tab_showing) -> None:
    """The band under the heading keeps a note's lines (the customer's words, then support's answer): it
    ran them together on one line ("… bitte prüfen  Support: …"). At most five lines: the steps keep
    their room; the dialog has the note whole."""
    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
        write_run_note(store, run_id, "Kunde: hängt seit Montag\n\nSupport: fixed in 1.5\n")
        long_id = mixed_run(store, "long")
        write_run_note(store, long_id, "\n".join(f"line {number}" for number in range(1, 9)))
    shown = runs_tab_showing(run_id, window=runs_window(make_window), listed=2)
    pane = shown.tab.timeline_pane
    qtbot.waitUntil(lambda: pane.run_note.isVisibleTo(shown.tab))

    assert pane.run_note.text() == "Note: Kunde: hängt seit Montag\nSupport: fixed in 1.5"
    one_line = pane.run_note.fontMetrics().lineSpacing()
    assert pane.run_note.height() >= 2 * one_line
    shown.tab.select_runs([long_id])
    qtbot.waitUntil(lambda: "line 1" in pane.run_note.text())
    assert pane.run_note.text() == "Note: line 1\nline 2\nline 3\nline 4\nline 5…"
