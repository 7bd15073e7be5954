"""A step with a note is marked in the timeline: "✎" before its details, the note's first words in the cell's
tooltip and "with a note" said to a screen reader; the other steps unmarked. Before, a step's note was found only by
clicking each step (a colleague's trace imported with notes on two of its steps looked like any other). A note written
in the window marks its row at once. At 1,024 px, English and German, the timeline still does not scroll sideways.

Real parts: the mcp SDK's trace of tests/fixtures/otel/ imported into the test's SQLite file, the window on it."""

from __future__ import annotations

import html
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.note_mark import NOTE_MARK
from inspector.gui.runs.timeline_columns import DETAILS_FLOOR_CHARS
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.store.notes import step_id_of, write_step_note
from tests.gui.test_runs_span_detail import imported_agent_run, open_run
from tests.gui.test_screenshots import save

DETAILS = COLUMNS.index("details")
NOTE = ("Customer says the call hung for minutes; support: the client gave up after 200 ms, so check the proxy's "
        "time-out before anything else")


def _cell(tab, details: str):
    """The Details cell of the step whose details (unmarked) are ``details``."""
    model = tab.timeline
    for row in range(model.rowCount()):
        index = model.index(row, DETAILS)
        if index.data().removeprefix(f"{NOTE_MARK} ") == details:
            return index
    raise AssertionError(details)


def _tip(index) -> str:
    return html.unescape(re.sub(r"<[^>]*>", "", index.data(Qt.ItemDataRole.ToolTipRole))).replace("\xa0", " ")


@pytest.mark.parametrize(("language", "said", "spoken"), [
    ("en", "✎ Note: Customer says the call hung for minutes; support: the client gave up after 200 ms, so check the…",
     "lookup (with a note) (level 2)"),
    ("de", "✎ Notiz: Customer says the call hung for minutes; support: the client gave up after 200 ms, so check the…",
     "lookup (mit Notiz) (Ebene 2)")])
def test_a_noted_step_is_marked_in_the_timeline(qtbot, make_window, language, said, spoken) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    with RunStore.open(resolve_db_path()) as store:
        write_step_note(store, step_id_of(store, run_id, 3), NOTE)  # the call of the tool "lookup"
        unnoted = step_id_of(store, run_id, 4)
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        noted = _cell(tab, "lookup")
        assert noted.data() == f"{NOTE_MARK} lookup"
        assert _tip(noted).endswith("\n" + said)
        assert noted.data(Qt.ItemDataRole.AccessibleTextRole) == spoken
        others = [tab.timeline.index(row, DETAILS) for row in range(tab.timeline.rowCount())
                  if tab.timeline.index(row, DETAILS) != noted]
        assert others and not any(NOTE_MARK in (index.data() + _tip(index)) for index in others)
        # A note written in the window (the note dialog's writer says so) marks its row at once.
        failed = _cell(tab, "fail: the tool reported an error (error.type tool_error)" if language == "en" else
                       "fail: das Tool meldete einen Fehler (error.type tool_error)")
        assert not failed.data().startswith(NOTE_MARK)
        with RunStore.open(resolve_db_path()) as store:
            write_step_note(store, unnoted, "upstream 503")
        tab.notes.step_note_written.emit(unnoted)
        assert failed.data().startswith(f"{NOTE_MARK} fail: ") and _tip(failed).endswith(": upstream 503")
        # The mark crowds nothing: at 1,024 px the Details keep their floor, and nothing scrolls sideways.
        for width in (1024, 1280):
            window.resize(width, 768)
            qtbot.waitUntil(lambda width=width: window.width() == width)
            view = tab.timeline_view
            view.viewport().repaint()
            QApplication.processEvents()
            header = view.horizontalHeader()
            assert header.length() <= view.viewport().width() and view.horizontalScrollBar().maximum() == 0
            assert header.sectionSize(DETAILS) >= view.fontMetrics().averageCharWidth() * DETAILS_FLOOR_CHARS
            save(window, f"timeline-note-mark-{language}-{width}", grey=True)
    finally:
        switch_language("en")
