"""A call that timed out in an imported trace reads "failed: timed out" in the step detail's line, as a
time-out of our own calls does on its bar, and its timeline row carries the importer's finding (what the
Outcome column reads it by); a failure that was no time-out says only "failed". Real fixtures
(tests/fixtures/otel/), English and German."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from tests.gui.test_runs_span_detail import imported_agent_run, open_run, step_row
from tests.gui.test_screenshots import save

TIMED_OUT = {"en": "failed: timed out", "de": "fehlgeschlagen: Zeitüberschreitung"}
#: The Details of each trace's time-out: its exception, whose words say the time-out (said once).
EXCEPTION = {"traceloop.jsonl": "slow: mcp.shared.exceptions.McpError: Timed out",
             "mcp_sdk.jsonl": "slow: TimeoutError"}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("fixture", ["traceloop.jsonl", "mcp_sdk.jsonl"])
def test_an_imported_time_out_says_so_in_the_step_detail(qtbot, make_window, fixture: str, language: str) -> None:
    run_id = imported_agent_run(fixture)
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        tab.select_step(step_row(tab, "fail"))
        failed = tab.detail
        assert failed.step is not None and failed.step.row.outcome == "failed"
        assert TIMED_OUT[language] not in failed.summary.text()
        tab.select_step(step_row(tab, EXCEPTION[fixture]))
        detail = tab.detail
        assert detail.step is not None and detail.step.row.outcome == "failed"  # stored as before
        parts = detail.summary.text().split(" · ")
        assert TIMED_OUT[language] in parts, parts
        from inspector.i18n.words import stored_outcome_text

        row = detail.step.row
        # The row the Outcome column says carries the finding: the one rule reads it there too.
        assert stored_outcome_text(row.kind, row.outcome, (), row.detail_fields) == TIMED_OUT[language]
        save(window, f"runs-imported-timeout-{fixture.split('.')[0]}-{language}", grey=True)
    finally:
        switch_language("en")
