"""The Runs tab shows a trace's runs at the calendar's edges: a step at 9999-12-31 23:59:59.999999
lasting a millisecond, a step lasting 1e308 ms (imported into the test's SQLite file)."""

from __future__ import annotations

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window
from tests.integration.test_calendar_edge_traces import edge_trace


def test_runs_at_the_calendar_edges_show_their_steps(qtbot, make_window, tmp_path) -> None:
    with RunStore.open(resolve_db_path()) as store:
        at_the_end, endless = import_trace(store, edge_trace(tmp_path / "edges.json")).run_ids
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.row_of(endless) is not None)
    duration = COLUMNS.index("duration")
    try:
        for language, longest in (("en", "more than 10,000,000 d"), ("de", "mehr als 10.000.000 d")):
            switch_language(language)
            assert tab.select_runs([at_the_end])
            assert tab.timeline.rowCount() == 1 and tab.timeline.end.year == 9999
            assert tab.select_runs([endless])
            assert tab.timeline.index(0, duration).data() == longest
            tab.select_step(0)
            assert longest in tab.detail.summary.text()
    finally:
        switch_language("en")
