"""While a search is set, the Runs list is read anew on the search's reader thread, not the GUI thread's
connection, also at a click on a heading, a switch of language and the Runs tab shown again after a change
(each read every run's steps there: 0.2-0.6 s on 25,000 runs, the window frozen meanwhile). The answer to
the question asked last is shown, never an older one, and a window shut down with a search in flight
closes cleanly. Real parts: the mcp SDK's trace of tests/fixtures/otel/ imported into a real database."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.store.plumbing_traces import without_plumbing_traces
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window

TRACE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"
TEXT = "TimeoutError"  # the failing run's steps hold it (an exception's type), no title does


def _searched(qtbot, make_window):
    """The window listing the trace's runs (the agent's: its three notifications' traces are plumbing traces, not
    listed), then the one the search for :data:`TEXT` finds."""
    with RunStore.open(resolve_db_path()) as store:
        runs = without_plumbing_traces(store.db.conn, import_trace(store, TRACE).run_ids)[0]
        failing = store.list_runs(outcome="failed")[0].id
    window = runs_window(make_window)
    tab = window.runs_tab
    qtbot.waitUntil(lambda: tab.runs.rowCount() == len(runs), timeout=5000)
    tab.search.setText(TEXT)
    qtbot.waitUntil(lambda: tab.runs.filter.text == TEXT and tab.runs.rowCount() == 1, timeout=5000)
    return window, tab, failing


def _listed(tab) -> list[int]:
    return [tab.runs.run_id(row) for row in range(tab.runs.rowCount())]


def _searched_here(sql: list[str]) -> list[str]:
    """The statements that searched the steps' stored text (find_text.steps_holding)."""
    return [statement for statement in sql if "FROM steps" in statement and "json_valid(payload)" in statement]


def _store_run(title: str) -> int:
    """A run stored by another connection, as the workbench's worker or an import stores one."""
    with RunStore.open(resolve_db_path()) as store:
        run = store.start_run(title, "live", None)
        store.finish_run(run, "ok")
    return run


@pytest.mark.parametrize("action", ["sort", "language", "shown"])
def test_with_a_search_set_the_list_is_read_anew_on_the_reader_thread(qtbot, make_window, action) -> None:
    window, tab, failing = _searched(qtbot, make_window)
    read_here: list[str] = []
    reads = tab.runs.reads
    expected = [failing]
    tab.store.db.conn.set_trace_callback(read_here.append)
    try:
        if action == "sort":  # a click on the Title heading
            tab.run_view.sortByColumn(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
            assert tab.runs.reads == reads  # not read on the GUI thread meanwhile: asked of the reader
        elif action == "language":
            switch_language("de")
        else:  # a run the search finds stored while the Workbench was in front; the Runs tab shown again
            window.tabs.setCurrentWidget(window.workbench)
            expected = [_store_run(f"{TEXT} seen again"), failing]
            qtbot.waitUntil(lambda: tab.freshness.stale, timeout=5000)
            read_here.clear()
            reads = tab.runs.reads
            window.tabs.setCurrentWidget(tab)
        qtbot.waitUntil(lambda: tab.runs.reads > reads and sorted(_listed(tab)) == sorted(expected), timeout=5000)
    finally:
        tab.store.db.conn.set_trace_callback(None)
        switch_language("en")
    assert not _searched_here(read_here)
    assert tab.runs.filter.text == TEXT
    if action == "sort":
        assert (tab.runs.order, tab.runs.descending) == ("title", False)


def test_an_answer_read_before_the_database_changed_does_not_hide_the_answer_after(qtbot, make_window) -> None:
    """The same search asked twice, the database changed between the two reads: the first answer (without the
    new run) arriving first is not taken for the second question's, which is shown (the run listed)."""
    _window, tab, failing = _searched(qtbot, make_window)
    tab.freshness.stop()  # no live read lists the new run meanwhile: the search's answers alone
    pane = tab.run_list
    reads = pane._search_reads.reads  # noqa: SLF001 - the search's reader thread
    qtbot.waitUntil(lambda: not reads.busy)
    done = reads.reads
    pane.reload()
    deadline = time.monotonic() + 10
    while (reads.reads == done or reads.busy) and time.monotonic() < deadline:
        time.sleep(0.01)  # no events processed: the first answer waits for the event loop
    assert not reads.busy
    added = _store_run(f"{TEXT} stored between the two reads")
    pane.reload()
    qtbot.waitUntil(lambda: not reads.busy and pane._search_reads.pending is None, timeout=5000)  # noqa: SLF001
    qtbot.wait(100)  # both answers have arrived
    assert sorted(_listed(tab)) == sorted([failing, added])


def test_a_window_shut_down_with_a_search_in_flight_closes_cleanly(qtbot, make_window) -> None:
    """A click on a heading asks the search's reader; the window shuts down before the answer is laid out:
    the reader's read ends, its thread with it, and nothing is read or laid out after (the database closed)."""
    window, tab, failing = _searched(qtbot, make_window)
    reads = tab.runs.reads
    tab.run_view.sortByColumn(COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    window.shut_down()
    tab.store.close()  # as the window's owner closes it next
    qtbot.wait(300)
    assert tab.runs.reads == reads and _listed(tab) == [failing]
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("run-inspector-search")]


def test_a_trace_opened_with_a_search_set_that_finds_its_runs_keeps_the_search(qtbot, make_window) -> None:
    """File › Open trace… while a search is set whose text the new runs hold: they are listed and selected, the
    search kept, as before the list was read on the reader thread. The list read again after the import was
    asked of the reader, so the runs were not listed yet when they were selected: the search was cleared."""
    _window, tab, _failing = _searched(qtbot, make_window)
    tab.search.setText("support-agent")  # the agent's run of the mcp SDK's trace, and Strands' runs
    qtbot.waitUntil(lambda: tab.runs.filter.text == "support-agent", timeout=5000)
    before, last = _listed(tab), max(run.id for run in tab.store.list_runs(limit=None))
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.open_trace(TRACE.parent / "strands.jsonl")
    imported = [run.id for run in tab.store.list_runs(limit=None) if run.id > last]
    assert len(before) == 1 and len(imported) == 6
    assert tab.search.text() == "support-agent" and tab.runs.filter.text == "support-agent"
    assert sorted(tab.selected_run_ids()) == sorted(imported)
    assert sorted(_listed(tab)) == sorted([*before, *imported])


def test_runs_deleted_with_a_search_set_leave_the_list_at_once(qtbot, make_window) -> None:
    """Delete… with a search set: the runs deleted are gone from the list when the delete ends, and the timeline
    of the one shown is cleared. The list read after the delete was asked of the search's reader thread: the rows
    of the deleted runs stayed, and could be shown or deleted again, until its answer arrived."""
    _window, tab, failing = _searched(qtbot, make_window)
    assert tab.select_runs([failing]) and tab.timeline.run is not None
    with qtbot.waitSignal(tab.transfer_ended, timeout=20000):
        tab.delete_selected(confirm=False)
    assert _listed(tab) == [] and tab.timeline.run is None
    assert tab.search.text() == TEXT
