"""Closing the window breaks off the Runs list's reads under way, as it breaks off a long run's layout and Find:
the close waited for a search of the runs (every run's steps read: 0.7-0.8 s for 25,000 runs) or a live read of
the list to its end. Real parts: a real database and window; the reader's read is slowed by SQLite's progress
handler on the reader's own connection to some seconds, as a far bigger database's would be."""

from __future__ import annotations

import threading
import time

from inspector.store import RunStore, resolve_db_path
from tests.support.sample_runs import T0, mixed_run
from tests.support.slowed_reads import slowed

WAIT_MS = 10_000
#: How long a test's slowed read reads.
SLOWED_S = 8.0


def _window_of_runs(qtbot, make_window):
    with RunStore.open(resolve_db_path()) as store:
        for hour in range(8, 14):
            mixed_run(store, f"run at {hour}", started_at=T0.replace(hour=hour))
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 6, timeout=WAIT_MS)
    return window, tab


def _slowed(reads) -> list[int]:
    """Slow each step of SQLite's machine on the reader's own connection, for :data:`SLOWED_S`; the calls made."""
    return slowed(reads._store.db.conn, SLOWED_S, 0.02, 1)  # noqa: SLF001 - the reader thread's connection


def _closed_at_once(qtbot, window, calls: list[int], thread: str) -> None:
    qtbot.waitUntil(lambda: len(calls) > 5, timeout=WAIT_MS)  # the read is under way
    started = time.monotonic()
    window.shut_down()
    waited = time.monotonic() - started
    assert waited < SLOWED_S / 2, waited
    assert not [one for one in threading.enumerate() if one.name.startswith(thread)]


def test_a_window_closed_during_a_search_of_the_runs_does_not_wait_for_it(qtbot, make_window) -> None:
    window, tab = _window_of_runs(qtbot, make_window)
    tab.search.setText("run at")
    qtbot.waitUntil(lambda: tab.runs.filter.text == "run at", timeout=WAIT_MS)  # the reader's connection open
    reads = tab.run_list._search_reads.reads  # noqa: SLF001
    calls = _slowed(reads)
    tab.search.setText("run at 1")
    _closed_at_once(qtbot, window, calls, "run-inspector-search")
    qtbot.wait(200)  # the broken-off read's answer, had it been sent, arrives: nothing is shown nor said
    assert tab.runs.filter.text == "run at" and tab.status.text() == ""


def test_a_window_closed_during_a_live_read_of_the_list_does_not_wait_for_it(qtbot, make_window) -> None:
    window, tab = _window_of_runs(qtbot, make_window)
    freshness = tab.freshness
    freshness.check(force=True)
    qtbot.waitUntil(lambda: freshness.reads.reads > 0 and not freshness.reads.busy, timeout=WAIT_MS)
    calls = _slowed(freshness.reads)
    freshness.check(force=True)
    _closed_at_once(qtbot, window, calls, "run-inspector-runs")
