"""Find searches again after a language switch. It also finds our sentences as the reader sees them
(the note on a call cancelled in flight reads "unterwegs abgebrochen (…)" in German), so another
language changes which steps hold the text; Find went on saying "1 of 2" or "no match" of the words
before. Now it searches in the new words: the count is new, the match it points at stays if it still
holds the text, else it goes on to the next one. A real run in the test's SQLite file, the real window."""

from __future__ import annotations

from datetime import timedelta

from inspector.gui.language import switch_language
from inspector.runs import RunStep, RunTrace, StepKind, ToolResult
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_find_follows_run import find_in
from tests.gui.test_runs_screenshots import runs_window
from tests.support.sample_runs import HANG_LEGS, T0, mixed_run


def on_the_road_run(store: RunStore) -> int:
    """Row 0: a model's words that hold "unterwegs" (stored); row 1: a call cancelled in flight, whose
    note holds "unterwegs" in German only."""
    trace = RunTrace()
    steps = [(RunStep(kind=StepKind.LLM, round=1, duration_ms=400.0, content="ich bin unterwegs"), 0.0),
             (trace.record_tool_result(1, "hang", {"seconds": 60},
                                       ToolResult.cancelled("cancelled by the user", in_flight=True), 4143.0,
                                       legs=HANG_LEGS), 0.5)]
    run_id = store.start_run("on the road", "scenario", "http://127.0.0.1:8765/mcp", started_at=T0)
    store.append_steps(run_id, [(step, T0 + timedelta(seconds=offset)) for step, offset in steps])
    store.finish_run(run_id, "cancelled", T0 + timedelta(seconds=5))
    return run_id


def shown(tab) -> tuple[str, int]:
    return tab.timeline_pane.find_status.text(), tab.timeline_view.currentIndex().row()


def test_find_searches_again_in_the_new_words(qtbot, make_window, runs_tab_showing) -> None:
    with RunStore.open(resolve_db_path()) as store:
        run_id = on_the_road_run(store)
    tab = runs_tab_showing(run_id, window=runs_window(make_window)).tab
    pane = tab.timeline_pane
    try:
        switch_language("de")
        find_in(qtbot, tab, "unterwegs")
        assert shown(tab) == ("1 von 2", 0)
        switch_language("en")  # the model's words still hold it: the match stays, one of one now
        assert shown(tab) == ("1 of 1", 0)
        assert pane.model._matches == {0}
        switch_language("de")
        assert shown(tab) == ("1 von 2", 0)
        pane.finder.find_next()
        assert shown(tab) == ("2 von 2", 1)
        switch_language("en")  # the note no longer holds it: on to the next match (the first again)
        assert shown(tab) == ("1 of 1", 0)
        find_in(qtbot, tab, "Gegenseite")  # in the German note only
        assert pane.find_status.text() == "no match"
        switch_language("de")
        assert shown(tab) == ("1 von 1", 1)
        switch_language("en")
        assert pane.find_status.text() == "no match" and pane.model._matches == set()
        assert tab.status.text() == ""
    finally:
        switch_language("en")


def test_the_match_shown_stays_when_it_holds_the_text_in_both_languages(qtbot, make_window, runs_tab_showing) -> None:
    with RunStore.open(resolve_db_path()) as store:
        played = mixed_run(store, "scenario user-cancels")
    tab = runs_tab_showing(played, window=runs_window(make_window)).tab
    try:
        find_in(qtbot, tab, "an")  # rows 0, 3, 4 and 5 in either language
        tab.timeline_pane.finder.find_next()
        tab.timeline_pane.finder.find_next()
        assert shown(tab) == ("3 of 4", 4)
        switch_language("de")
        assert shown(tab) == ("3 von 4", 4)
    finally:
        switch_language("en")
