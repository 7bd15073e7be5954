"""A search's runs read before a change the list saw meanwhile: the list shows the change.

The search reads every run's steps on a reader thread of its own (0.2-0.6 s for a trace of 25,000 runs).
A run written while it reads (an operation of the Workbench ending, an import) was seen by the list's
live read, which read the list as it was filtered then; the search's answer, read before the run was
written, then replaced that list, and no live read came after it (the database had not changed since
the live read): the new run the search finds was missing until the next change of the database."""

from __future__ import annotations

import threading

import pytest

from inspector.store import RunStore, find_text, resolve_db_path
from tests.support.sample_runs import T0, mixed_run

WAIT_MS = 10_000


@pytest.fixture
def held_search(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """The search's first comparison of a folded text waits (on the reader thread, inside its read of the
    list) until ``go`` is set; ``inside`` is set as it starts waiting. The real fold is made."""
    inside, go = threading.Event(), threading.Event()
    real = find_text._fold  # noqa: SLF001

    def fold(value: object) -> object:
        if not inside.is_set() and threading.current_thread().name.startswith("run-inspector-search"):
            inside.set()
            go.wait(WAIT_MS / 1000)
        return real(value)

    monkeypatch.setattr(find_text, "_fold", fold)
    return inside, go


def test_a_run_written_while_the_search_reads_is_listed(qtbot, make_window, held_search) -> None:
    inside, go = held_search
    with RunStore.open(resolve_db_path()) as store:
        mixed_run(store, "plain run")  # steps the search looks in
        mixed_run(store, "Grüße aus Köln", started_at=T0.replace(hour=8))  # a run it finds
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 2, timeout=WAIT_MS)
    tab.search.setText("grüße")
    qtbot.waitUntil(inside.is_set, timeout=WAIT_MS)  # the search reads the list, as it was before
    with RunStore.open(resolve_db_path()) as other:  # a run written meanwhile (another connection)
        later = mixed_run(other, "Grüße aus Bonn", started_at=T0.replace(hour=10))
    shown = tab.freshness.shown_answers
    tab.freshness.check()  # the live read sees the new run (in the list as filtered before the search)
    qtbot.waitUntil(lambda: tab.freshness.shown_answers > shown, timeout=WAIT_MS)
    assert tab.runs.row_of(later) is not None and tab.runs.filter.text == ""
    go.set()
    qtbot.waitUntil(lambda: tab.runs.filter.text == "grüße", timeout=WAIT_MS)
    qtbot.waitUntil(lambda: tab.runs.row_of(later) is not None, timeout=WAIT_MS)
    assert tab.runs.rowCount() == 2 and tab.runs.run_id(0) == later


def test_a_window_closed_while_the_search_reads_leaves_no_reader(qtbot, make_window, held_search) -> None:
    inside, go = held_search
    with RunStore.open(resolve_db_path()) as store:
        mixed_run(store, "plain run")
    window = make_window()
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.rowCount() == 1, timeout=WAIT_MS)
    tab.search.setText("grüße")
    qtbot.waitUntil(inside.is_set, timeout=WAIT_MS)
    threading.Timer(0.3, go.set).start()  # the read ends while the window closes
    window.close()
    assert not [thread.name for thread in threading.enumerate() if thread.name.startswith("run-inspector-search")]
    qtbot.wait(200)  # the answer, had it been sent, arrives: nothing is read nor shown
    assert tab.runs.filter.text == ""
