"""Compare says a step's outcome in the words of the timeline's Outcome column and ``runs show`` (by
:func:`inspector.i18n.words.stored_outcome_text`): a call the real traces say timed out reads "failed:
timed out" in its run's cell and in the chosen row's sides, never a bare "failed"."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from tests.gui.test_runs_compare import cells, open_compare, two_imported_traces
from tests.gui.test_screenshots import save


def _timeline_outcomes(qtbot, tab, run_id: int) -> list[str]:
    """The Outcome column of ``run_id``'s timeline, as the window shows it (its tooltip: the whole words)."""
    tab.select_runs([run_id])
    model = tab.timeline_pane.model
    qtbot.waitUntil(lambda: model.rowCount() > 0)
    column = COLUMNS.index("outcome")
    return [model.index(row, column).data(Qt.ItemDataRole.DisplayRole) for row in range(model.rowCount())]


@pytest.mark.parametrize(("language", "timed_out"),
                         [("en", "failed: timed out"), ("de", "fehlgeschlagen: Zeitüberschreitung")])
def test_a_timed_out_call_reads_as_the_timeline_says_it(qtbot, make_window, language, timed_out) -> None:
    window, tab, sdk, traceloop = two_imported_traces(qtbot, make_window)
    switch_language(language)
    try:
        for run_id in (sdk, traceloop):  # what the timeline says of each run's steps
            assert timed_out in _timeline_outcomes(qtbot, tab, run_id), run_id
        dialog = open_compare(qtbot, tab, [sdk, traceloop])
        qtbot.addWidget(dialog)
        firsts, seconds = cells(dialog.model, "first"), cells(dialog.model, "second")
        said = [(row, text) for row, text in enumerate(firsts + seconds) if text and text.startswith(f"{timed_out} · ")]
        assert len([1 for row, _text in said if row < len(firsts)]) == 1, firsts
        assert len([1 for row, _text in said if row >= len(firsts)]) == 1, seconds
        row = next(row for row, text in enumerate(firsts) if text and text.startswith(f"{timed_out} · "))
        dialog.view.selectRow(row)
        assert dialog.sides.first.text.toPlainText().startswith(f"{timed_out} · ")
        dialog.show()
        qtbot.waitExposed(dialog)
        assert save(dialog, f"compare-timed-out-{language}").exists()
    finally:
        switch_language("en")
