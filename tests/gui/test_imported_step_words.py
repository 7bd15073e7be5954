"""What the step detail says of steps read from real agents' traces (tests/fixtures/otel/): a cancel
the trace recorded is not the user's, and a model call shows what the model was asked and answered."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_span_detail import FIXTURES, open_run
from tests.gui.test_screenshots import save


def imported_session(fixture: str, title: str) -> int:
    with RunStore.open(resolve_db_path()) as store:
        report = import_trace(store, FIXTURES / fixture)
        (run_id,) = [run_id for run_id in report.run_ids if store.get_run(run_id).title == title]
    return run_id


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_cancel_the_trace_recorded_is_not_said_to_be_the_users(qtbot, make_window, language) -> None:
    run_id = imported_session("pydantic_ai.jsonl", "support session")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(next(row for row in range(tab.timeline.rowCount())
                             if tab.timeline.row(row).outcome == "cancelled"))
        detail = tab.detail
        assert detail.step is not None and detail.step.row.outcome == "cancelled"
        lines = detail.result.toPlainText().splitlines()
        if language == "en":
            assert lines[0] == "Cancelled, as the trace recorded it."
            assert lines[1].startswith("The trace's words: cancelled: asyncio.exceptions.CancelledError: ")
        else:
            assert lines[0] == "Abgebrochen, wie der Trace es aufgezeichnet hat."
            assert lines[1].startswith("Die Worte des Traces: ")
            assert "Sie haben" not in detail.result.toPlainText()
        assert "You cancelled" not in detail.result.toPlainText()
        save(window, f"runs-imported-cancel-{language}", grey=True)
    finally:
        switch_language("en")

