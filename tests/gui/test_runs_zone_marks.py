"""A run across the hour a clock is set back, read in Berlin: its times say their zone in the Runs
list and the timeline, and the columns are wide enough to show it whole."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from inspector.gui.runs import runs_model, timeline_model
from inspector.store import RunStore, resolve_db_path
from inspector.transfer import import_trace


@pytest.fixture
def in_berlin(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def set_back_run(tmp_path: Path) -> int:
    """Steps at 00:59:59 and 01:00:00.5 UTC on 2026-10-25: both "2:…" in Berlin, an hour apart on its walls."""
    steps = [{"sequence": number, "started_at": started,
              "payload": {"kind": "llm", "round": 0, "durationMs": 999.6, "content": "step"}}
             for number, started in ((1, "2026-10-25T00:59:59Z"), (2, "2026-10-25T01:00:00.5Z"))]
    run = {"uid": "set-back", "title": "across the set-back", "source": "live", "server": None, "status": "ok",
           "started_at": "2026-10-25T00:59:59Z", "finished_at": "2026-10-25T01:00:01.5Z", "steps": steps}
    path = tmp_path / "set-back.json"
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [run]}))
    with RunStore.open(resolve_db_path()) as store:
        return import_trace(store, path).run_ids[0]


@pytest.mark.parametrize(("language", "started", "times"), [
    ("en", "Oct 25, 2026, 2:59:59\u202fAM (UTC+2)", ["2:59:59.000\u202fAM (UTC+2)", "2:00:00.500\u202fAM (UTC+1)"]),
    ("de", "25.10.2026, 02:59:59 (UTC+2)", ["02:59:59,000 (UTC+2)", "02:00:00,500 (UTC+1)"]),
])
def test_times_in_the_hour_set_back_say_their_zone_and_show_whole(qtbot, make_window, tmp_path, in_berlin,
                                                                  language, started, times) -> None:
    from inspector.gui.language import switch_language

    run_id = set_back_run(tmp_path)
    window = make_window(wait_tools=False)
    window.tabs.setCurrentWidget(window.runs_tab)
    tab = window.runs_tab
    switch_language(language)
    try:
        qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
        tab.select_runs([run_id])
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == 2)
        started_column, time_column = runs_model.COLUMNS.index("started"), timeline_model.COLUMNS.index("time")
        row = tab.runs.row_of(run_id)
        assert tab.runs.data(tab.runs.index(row, started_column)) == started
        assert [tab.timeline.data(tab.timeline.index(r, time_column)) for r in range(2)] == times
        # Once painted, each column widens to what it shows: the zone is never cut off by "…".
        run_view, steps_view = tab.run_view, tab.timeline_view
        qtbot.waitUntil(lambda: run_view.columnWidth(started_column)
                        >= run_view.fontMetrics().horizontalAdvance(started) + 12)
        qtbot.waitUntil(lambda: steps_view.columnWidth(time_column)
                        >= max(steps_view.fontMetrics().horizontalAdvance(text) for text in times) + 12)
        from tests.gui.test_screenshots import save

        assert save(tab, f"runs-set-back-{language}").exists()
    finally:
        switch_language("en")
