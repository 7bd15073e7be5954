"""The line naming both sides of a joined call says what each side's span recorded: for the ``mcp``
SDK's tool error (the ``fail`` call of tests/fixtures/otel/mcp_sdk.jsonl) the server marked
``error.type`` tool_error, and the client's span recorded no error (it received the isError answer,
and its span records nothing of answers: docs/trace-format.md "Client beside server"). The line said
"failed" of both; the step itself still failed."""

from __future__ import annotations

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from tests.gui.test_runs_span_detail import imported_agent_run, open_run, save, step_row

SIDES = {"en": "Client (support-agent): no error recorded, 10.0\u00a0ms · "
               "Server (weather-mcp-server): failed (tool_error), 2.2\u00a0ms",
         "de": "Client (support-agent): kein Fehler aufgezeichnet, 10,0\u00a0ms · "
               "Server (weather-mcp-server): fehlgeschlagen (tool_error), 2,2\u00a0ms"}
FAILED = {"en": "failed", "de": "fehlgeschlagen"}


@pytest.mark.parametrize("language", ["en", "de"])
def test_each_side_of_the_tool_error_says_what_its_span_recorded(qtbot, make_window, language: str) -> None:
    run_id = imported_agent_run("mcp_sdk.jsonl")
    window, tab = open_run(qtbot, make_window, run_id)
    switch_language(language)
    try:
        row = step_row(tab, "fail")
        assert tab.timeline.index(row, COLUMNS.index("outcome")).data() == FAILED[language]
        tab.select_step(row)
        detail = tab.detail
        assert detail.span.sides.isVisibleTo(detail) and not detail.span.disagreement.isVisibleTo(detail)
        assert detail.span.sides.text() == SIDES[language]
        save(window, f"runs-span-sides-recorded-{language}")
    finally:
        switch_language("en")
