"""The window's Find finds what the rows show in their Outcome column ("not recorded", "failed") and the
call whose two sides disagree by the band that says so, in the window's language: on the Traceloop trace
a support engineer opens, each word typed goes to the rows that show it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from tests.gui.test_runs_find_said import traceloop_run_shown, typed_in_find

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
OUTCOME = COLUMNS.index("outcome")


def _find_all(qtbot, tab, needle: str) -> tuple[str, list[str]]:
    """Ctrl+F, the needle written, Enter: (the Find status, the Outcome cell of each match, as shown or in
    its tooltip)."""
    pane = typed_in_find(qtbot, tab, needle)
    cells = []
    for row in pane.finder.matches:
        index = pane.model.index(row, OUTCOME)
        cells.append(f"{index.data()} | {index.data(Qt.ItemDataRole.ToolTipRole)}")
    return pane.find_status.text(), cells


def test_find_goes_to_the_rows_whose_outcome_or_band_shows_the_words(qtbot, make_window) -> None:
    tab = traceloop_run_shown(qtbot, make_window)
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
