"""The window's Find (Ctrl+F in the Runs tab) finds our sentences as the reader sees them: in German,
"Zeitüberschreitung" finds the step of the Traceloop trace that timed out (its Outcome column says it) and
"kein Ergebnis erfasst" the one that stores "no outcome recorded: …"; the stored English words find
them too, and in English the German words find nothing."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window
from tests.support.runs_tab import RunsShown

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
DETAILS = COLUMNS.index("details")
#: The Details of the time-out's step: its exception, whose message says the time-out (said once, in any language).
TIMED_OUT = "slow: mcp.shared.exceptions.McpError: Timed out while waiting for response"


def typed_in_find(qtbot, tab, needle: str):
    """Ctrl+F, the needle written, Enter: the timeline pane, Find done."""
    pane = tab.timeline_pane
    tab.setFocus()
    qtbot.keyClick(tab, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert pane.find_edit.hasFocus()
    pane.find_edit.setText(needle)  # as typed (QTest types no letter beyond ASCII)
    qtbot.keyClick(pane.find_edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    return pane


def traceloop_run_shown(qtbot, make_window):
    """The window, shown, on the Traceloop trace's agent run: its Runs tab."""
    with RunStore.open(resolve_db_path()) as store:
        import_trace(store, FIXTURES / "traceloop.jsonl")
        (run_id,) = [run.id for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    window = runs_window(make_window)
    window.show()
    qtbot.waitExposed(window)
    RunsShown(qtbot, window).select(run_id)
    return window.runs_tab


def _find(qtbot, tab, needle: str) -> tuple[str, str]:
    """(the Find status, the Details of the row Find went to)."""
    pane = typed_in_find(qtbot, tab, needle)
    row = pane.view.currentIndex().row()
    return pane.find_status.text(), pane.model.index(row, DETAILS).data() if row >= 0 else ""


def test_find_in_the_window_finds_the_words_the_reader_sees(qtbot, make_window) -> None:
    tab = traceloop_run_shown(qtbot, make_window)
    switch_language("de")
    try:
        status, details = _find(qtbot, tab, "Zeitüberschreitung")
        assert status == "1 von 1" and details.startswith(TIMED_OUT), (status, details)
        status, details = _find(qtbot, tab, "kein Ergebnis erfasst")
        assert status == "1 von 1" and details.startswith("slow: kein Ergebnis erfasst: "), (status, details)
        status, details = _find(qtbot, tab, "timed out")  # the stored English
        assert status == "1 von 1" and details.startswith(TIMED_OUT), (status, details)
        status, details = _find(qtbot, tab, "no outcome recorded")
        assert status == "1 von 1" and details.startswith("slow: kein Ergebnis erfasst: "), (status, details)
    finally:
        switch_language("en")
    status, details = _find(qtbot, tab, "timed out")
    assert status == "1 of 1" and details.startswith(TIMED_OUT), (status, details)
    assert _find(qtbot, tab, "Zeitüberschreitung")[0] == "no match"
