"""The step detail's Events tab shows each event's message and stack trace whole: its lines wrap at the
tab's width (an exception's message was cut at the right edge, "reason: deadl…", while the Result tab
showed it whole), a wrapped line going on further in than its own start, so that it never reads as the
next line. Plain text only. Real traces (tests/fixtures/otel/), at the window's default size, English
and German."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from inspector.gui.main_window import DEFAULT_SIZE
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.gui.widgets.indented_text import IndentedText
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_screenshots import save

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
#: The time-out's exception message each trace keeps (said whole in the Result tab).
MESSAGES = {"traceloop.jsonl": "Timed out while waiting for response to ClientRequest. Waited 0.5 seconds.",
            "pydantic_ai.jsonl": "Request 'tools/call' timed out"}


def _row_starts(view: IndentedText, block_text: str) -> tuple[int, list[int]]:
    """Where the text of the line holding ``block_text`` starts (after its indent), and where each of
    its rows starts, in the view's pixels."""
    document = view.document()
    block = document.begin()
    while block.isValid() and block_text not in block.text():
        block = block.next()
    assert block.isValid(), block_text
    cursor = QTextCursor(block)
    cursor.setPosition(block.position() + len(block.text()) - len(block.text().lstrip(" ")))
    text_start = view.cursorRect(cursor).left()
    rows = []
    layout = block.layout()
    for number in range(layout.lineCount()):
        cursor.setPosition(block.position() + layout.lineAt(number).textStart())
        rows.append(view.cursorRect(cursor).left())
    return text_start, rows


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("fixture", sorted(MESSAGES))
def test_the_events_tab_shows_the_exception_whole(qtbot, runs_tab_showing, fixture: str, language: str) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_ids = import_trace(store, FIXTURES / fixture).run_ids
        run_id = max(run_ids, key=store.count_steps)
    shown = runs_tab_showing(run_id, language=language, size=DEFAULT_SIZE)
    window, tab = shown.window, shown.tab
    model, details = tab.timeline, COLUMNS.index("details")
    tab.select_step(next(row for row in range(model.rowCount())  # the time-out's step says its exception's message
                         if model.index(row, details).data().startswith("slow: ")
                         and MESSAGES[fixture] in model.index(row, details).data()))
    events = tab.detail.span.events
    tab.detail.tabs.setCurrentWidget(events)
    QApplication.processEvents()
    text = events.toPlainText()
    message = MESSAGES[fixture]
    assert message in text and "Traceback (most recent call last):" in text
    # Nothing runs past the right edge: no line is cut, none needs scrolling sideways.
    assert events.horizontalScrollBar().maximum() == 0
    assert events.document().idealWidth() <= events.viewport().width()
    # The message wraps at this width; its further rows start further in than its text does.
    start, rows = _row_starts(events, message[:20])
    assert len(rows) >= 2 and rows[0] < start and all(row > start for row in rows[1:]), (start, rows)
    save(window, f"runs-events-wrapped-{fixture.split('.')[0]}-{language}")


def test_the_events_view_shows_text_as_given(qtbot) -> None:
    """A server's markup is characters, and the text copied is the text shown, indents and all."""
    view = IndentedText()
    qtbot.addWidget(view)
    given = "+1.0 ms  exception <b>Bold</b>\n    message: <img src=x> &amp; more\n\n      stack"
    view.set_text(given)
    assert view.toPlainText() == given
    assert not view.acceptRichText() and view.isReadOnly()
    view.set_text("")
    assert view.toPlainText() == ""
