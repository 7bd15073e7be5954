"""The window's Find finds what the rows show in their Outcome column ("not recorded", "failed") and the
call whose two sides disagree by the band that says so, in the window's language: on the Traceloop trace
a support engineer opens, each word typed goes to the rows that show it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
OUTCOME = COLUMNS.index("outcome")


def _find_all(qtbot, tab, needle: str) -> tuple[str, list[str]]:
    """Ctrl+F, the needle written, Enter: (the Find status, the Outcome cell of each match, as shown or in
    its tooltip)."""
    pane = tab.timeline_pane
    tab.setFocus()
    qtbot.keyClick(tab, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert pane.find_edit.hasFocus()
    pane.find_edit.setText(needle)
    qtbot.keyClick(pane.find_edit, Qt.Key.Key_Return)
    QApplication.processEvents()
    cells = []
    for row in pane.finder.matches:
        index = pane.model.index(row, OUTCOME)
        cells.append(f"{index.data()} | {index.data(Qt.ItemDataRole.ToolTipRole)}")
    return pane.find_status.text(), cells


def test_find_goes_to_the_rows_whose_outcome_or_band_shows_the_words(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        import_trace(store, FIXTURES / "traceloop.jsonl")
        (run_id,) = [run.id for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    window = runs_window(make_window)
    window.show()
    qtbot.waitExposed(window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
    tab.select_runs([run_id])
    span = tab.detail.span
    for language, words in (("de", {"not recorded": "nicht erfasst", "failed": "fehlgeschlagen",
                                    "disagree": "widersprechen", "of": "von"}),
                            ("en", {"not recorded": "not recorded", "failed": "failed", "disagree": "disagree",
                                    "of": "of"})):
        switch_language(language)
        status, cells = _find_all(qtbot, tab, words["not recorded"])
        assert status == f"1 {words['of']} 1", (language, status)
        assert cells and words["not recorded"] in cells[0], cells
        status, cells = _find_all(qtbot, tab, words["failed"].upper())
        assert status == f"1 {words['of']} 2", (language, status)
        assert len(cells) == 2 and all(words["failed"] in cell for cell in cells), cells
        status, _cells = _find_all(qtbot, tab, words["disagree"])
        assert status == f"1 {words['of']} 1", (language, status)
        # Find went to the call whose band says so.
        qtbot.waitUntil(lambda: span.disagreement.isVisibleTo(tab.detail))
        assert words["disagree"] in span.disagreement.text()
    switch_language("en")
