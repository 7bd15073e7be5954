"""The Runs tab's search finds what the list shows: in German a played scenario's run is listed as
"Szenario happy-path" (stored as "scenario happy-path"), and typing "Szenario" lists it (it listed none)."""

from __future__ import annotations

import time
from pathlib import Path

from inspector.gui.language import switch_language
from inspector.gui.runs.list_freshness import POLL_MS
from inspector.gui.runs.runs_model import COLUMNS
from inspector.store import RunStore, ServerRegistry, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window
from tests.support.sample_runs import mixed_run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


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


def listed(tab) -> set[int]:
    return {tab.runs.run(row).id for row in range(tab.runs.rowCount())}


def test_a_switch_of_language_lists_anew_the_runs_the_search_finds(qtbot, make_window) -> None:
    """Which scenario runs a search finds depends on the language their titles are shown in: "Szenario"
    finds a played scenario's run in German ("Szenario user-cancels") and only a title an older version
    stored in German in English; the list was read again only when something else changed. Real runs:
    two played scenarios' (one stored in German), and the Traceloop trace of tests/fixtures/otel/ imported."""
    with RunStore.open(resolve_db_path()) as store:
        played = mixed_run(store, "scenario user-cancels")
        older = store.start_run("Szenario old-one", "scenario", "http://127.0.0.1:9/mcp")  # as older versions stored it
        store.finish_run(older, "ok")
        traced = import_trace(store, FIXTURES / "traceloop.jsonl").run_ids
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 2 + len(traced))
    tab.search.setText("Szenario")
    qtbot.waitUntil(lambda: tab.runs.filter.text == "Szenario")
    assert listed(tab) == {older}
    try:
        for language, runs in (("de", {played, older}), ("en", {older})):
            window.settings.language = language
            window.apply_language()  # as Settings does; the list read anew on the search's reader thread
            qtbot.waitUntil(lambda runs=runs: listed(tab) == runs)
        tab.search.setText("scenario")
        qtbot.waitUntil(lambda: tab.runs.filter.text == "scenario")
        assert listed(tab) == {played, older}
        tab.select_runs([older])
        switch_language("de")  # "Szenario old-one" holds no "scenario" in German: it goes, and its timeline
        qtbot.waitUntil(lambda: listed(tab) == {played} and tab.timeline.run is None)
        switch_language("en")
        qtbot.waitUntil(lambda: listed(tab) == {played, older})
    finally:
        switch_language("en")


def test_a_window_shut_down_reads_no_list_on_a_switch_of_language(qtbot, make_window) -> None:
    """A window shut down has closed its database: a switch of language (another window's) does not read
    its list again (it raised "Cannot operate on a closed database")."""
    with RunStore.open(resolve_db_path()) as store:
        played = store.start_run("scenario happy-path", "scenario", "http://127.0.0.1:9/mcp")
        store.finish_run(played, "ok")
    window = runs_window(make_window)
    tab = window.runs_tab
    tab.search.setText("Szenario")
    qtbot.waitUntil(lambda: tab.runs.filter.text == "Szenario")
    window.shut_down()
    tab.store.close()  # as the window's owner closes it next
    try:
        switch_language("de")
    finally:
        switch_language("en")
    assert tab.runs.rowCount() == 0  # as listed when it shut down


def test_a_live_read_of_the_list_in_the_language_before_is_not_shown_after_a_switch(qtbot, make_window) -> None:
    """The list is kept live by a reader thread: its answer to a question asked in German, arriving after
    the switch to English, showed the runs "Szenario" finds in German again (the list read anew for
    English undone)."""
    with RunStore.open(resolve_db_path()) as store:
        played = mixed_run(store, "scenario user-cancels")
        older = store.start_run("Szenario old-one", "scenario", "http://127.0.0.1:9/mcp")
        store.finish_run(older, "ok")
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 2)
    switch_language("de")
    try:
        tab.search.setText("Szenario")
        qtbot.waitUntil(lambda: tab.runs.filter.text == "Szenario")
        assert listed(tab) == {played, older}
        reads = tab.freshness.reads
        qtbot.waitUntil(lambda: not reads.busy)
        done = reads.reads
        tab.freshness.check(force=True)  # a live read, read in German; its answer waits for the event loop
        deadline = time.monotonic() + 10
        while (reads.reads == done or reads.busy) and time.monotonic() < deadline:
            time.sleep(0.01)  # no events processed: the answer is not laid out yet
        assert not reads.busy
        switch_language("en")  # the list read anew for English on the search's reader thread
        qtbot.waitUntil(lambda: listed(tab) == {older})
        qtbot.wait(2 * POLL_MS)  # the answer read in German has arrived, and the next poll
        assert listed(tab) == {older}
    finally:
        switch_language("en")


def test_the_search_finds_a_run_by_the_server_name_its_row_shows(qtbot, make_window) -> None:
    """The Server column names a configured server by the name the user gave it; typing that name listed no
    run (the search read the runs' addresses alone) while the empty list said the search looks in the servers."""
    with RunStore.open(resolve_db_path()) as store:
        ServerRegistry(store.db).save_server("http://10.0.0.7:8000/mcp", name="Weather")
        named, other = (store.start_run("tools/call lookup", "live", server)
                        for server in ("http://10.0.0.7:8000/mcp", "http://other.example/mcp"))
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: {named, other} <= listed(tab))
    assert tab.runs.index(tab.runs.row_of(named), COLUMNS.index("server")).data() == "Weather"
    tab.search.setText("Weather")
    # (and any run the window made itself on that server: it lists the tools of the server selected)
    qtbot.waitUntil(lambda: named in listed(tab) and other not in listed(tab))
