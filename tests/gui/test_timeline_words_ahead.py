"""A run longer than a page of the timeline (100 rows) keeps its Kind and Duration columns, and the detail's room,
as its rows scroll into view (issue 23, after review69c): they were fitted to the pages read so far, so that in a
300-step run whose step 251 took 65 s ("1 min 5 s") and whose only model step is the 281st, scrolling to the end at
1,280 x 800 widened the Duration column 64 -> 68 px and moved the split between the timeline and the detail
718 -> 722 px; a call that timed out further down widened the Outcome column 107 -> 129 px. The kinds of a run's
steps, its longest step of each magnitude and its calls' kinds of failure are read with its shape now.

Real parts: a run written to the test's run database, the real window offscreen, the real font."""

from __future__ import annotations

from datetime import timedelta

import pytest
from PySide6.QtWidgets import QApplication

from inspector.gui.language import switch_language
from inspector.runs import Leg, RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_screenshots import save
from tests.gui.test_timeline_columns_steady import _layout
from tests.support.sample_runs import T0

STEPS = 300


def _long_run() -> int:
    """A finished run of 300 quick tool calls but for the 251st (65 s) and the 271st (timed out after 2 s), with one
    model step, the 281st."""
    trace = RunTrace()
    steps = []
    for number in range(STEPS):
        if number == 280:
            step = RunStep(kind=StepKind.LLM, round=number, duration_ms=700.0, content="a thought late in the run")
        elif number == 270:  # ran into its 2 s grant: "failed: timed out"
            step = trace.record_tool_result(number, "fetch", {"n": number}, ToolResult.error("no answer in 2 s"),
                                            2000.0, legs=(Leg("tools/call", 2, 2000.0, None, "failed"),))
        else:
            ms = 65_000.0 if number == 250 else 400.0
            step = trace.record_tool_result(number, "fetch", {"n": number}, ToolResult.text(f"page {number}"), ms,
                                            legs=(Leg("tools/call", 20, ms, 200, "ok"),))
        steps.append((step, T0 + timedelta(seconds=number)))
    with RunStore.open(resolve_db_path()) as store:
        run_id = store.start_run("a long run", "live", "http://127.0.0.1:8765/mcp", started_at=T0)
        store.append_steps(run_id, steps)
        store.finish_run(run_id, "ok", T0 + timedelta(seconds=STEPS + 70))
    return run_id


@pytest.mark.parametrize("language", ["en", "de"])
def test_scrolling_a_long_runs_rows_into_view_keeps_the_columns_and_the_details_room(qtbot, runs_tab_showing,
                                                                                     language) -> None:
    shown = runs_tab_showing(_long_run(), language=language, size=(1280, 800))
    tab = shown.tab
    view = tab.timeline_view
    qtbot.wait(50)
    QApplication.processEvents()
    first = _layout(tab)
    assert tab.timeline.pages_read == 1  # the rows of the long step and of the model step are not read yet
    switch_language("de" if language == "en" else "en")  # and back: the words read ahead are said again
    switch_language(language)
    for _round in range(5):
        qtbot.wait(20)
        QApplication.processEvents()
    assert _layout(tab) == first
    view.scrollToBottom()
    view.viewport().repaint()
    qtbot.wait(50)
    QApplication.processEvents()
    assert tab.timeline.pages_read >= 2  # they are now, and painted
    assert _layout(tab) == first
    save(shown.window, f"timeline-long-run-end-{language}")
