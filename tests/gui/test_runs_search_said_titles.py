"""The Runs tab's search finds what the list shows: in German a played scenario's run is listed as
"Szenario happy-path" (stored as "scenario happy-path"), and typing "Szenario" lists it (it listed none)."""

from __future__ import annotations

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_screenshots import runs_window


def test_in_german_the_search_finds_a_scenario_run_by_its_shown_title(qtbot, make_window) -> None:
    with RunStore.open(resolve_db_path()) as store:
        played = store.start_run("scenario happy-path", "scenario", "http://127.0.0.1:9/mcp")
        store.finish_run(played, "ok")
        other = store.start_run("tools/call echo", "live", "http://127.0.0.1:9/mcp")
        store.finish_run(other, "ok")
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 2)
    switch_language("de")
    try:
        row = tab.runs.row_of(played)
        assert tab.runs.index(row, COLUMNS.index("title")).data() == "Szenario happy-path"
        tab.search.setText("Szenario")
        qtbot.waitUntil(lambda: tab.runs.rowCount() == 1)
        assert tab.runs.run(0).id == played
        tab.search.setText("Szenario happy")
        qtbot.waitUntil(lambda: tab.runs.filter.text == "Szenario happy")
        assert [tab.runs.run(row).id for row in range(tab.runs.rowCount())] == [played]
    finally:
        switch_language("en")


def test_a_search_typed_as_the_window_closes_is_not_applied_after_it_shut_down(qtbot, make_window) -> None:
    """A search is applied a moment after the last key; the window shut down meanwhile closes its database
    next, and the search read the closed database (an error in the next test)."""
    window = runs_window(make_window)
    tab = window.runs_tab
    tab.search.setText("Szenario")
    window.shut_down()
    qtbot.wait(500)  # the moment has passed
    assert tab.runs.filter.text == ""
