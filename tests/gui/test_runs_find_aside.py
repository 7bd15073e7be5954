"""Find in a long run searches its stored steps on a reader thread: a run of 10,001 joined client and server
steps held the window 0.2-1.1 s at each Find (29 MB of payloads read). The rows are highlighted and the
count said when the answer arrives; an answer for a text typed over, or a run no longer shown, is dropped;
a window shut down with a Find in flight closes cleanly. A short run is searched at once, as before. Real
parts: a stored run of 1,500 steps (tool calls of three outcomes and model steps) in a real database."""

from __future__ import annotations

import threading
import time

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.find_in_run import ASIDE_STEPS
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_screenshots import runs_window
from tests.support.sample_runs import big_run
from tests.support.slowed_reads import slowed

STEPS = ASIDE_STEPS + 500
#: How long a test's slowed search reads.
SLOWED_S = 8.0


def _searched_here(sql: list[str]) -> list[str]:
    """The statements that searched the steps for Find (store.browse._found)."""
    return [statement for statement in sql if "row_number() OVER" in statement and "json_valid(payload)" in statement]


def _long_run_shown(make_window, runs_tab_showing, steps: int = STEPS):
    with RunStore.open(resolve_db_path()) as store:
        run_id = big_run(store, steps)
    shown = runs_tab_showing(run_id, window=runs_window(make_window), steps=steps)
    return shown.window, shown.tab, run_id


@pytest.mark.parametrize("language", ["en", "de"])
def test_find_in_a_long_run_is_read_on_the_reader_thread(qtbot, make_window, runs_tab_showing, language) -> None:
    window, tab, _run = _long_run_shown(make_window, runs_tab_showing)
    finder = tab.timeline_pane.finder
    read_here: list[str] = []
    tab.store.db.conn.set_trace_callback(read_here.append)
    try:
        switch_language(language)
        finder.edit.setText("result 1234")
        finder.find()  # as at a pause in typing
        assert not _searched_here(read_here)
        assert finder.searching and finder.status.text() == ""  # asked of the reader; the window goes on
        qtbot.waitUntil(lambda: not finder.searching and finder.status.text() != "", timeout=10000)
        assert finder.status.text() == ("1 of 1" if language == "en" else "1 von 1")
        assert tab.timeline_view.currentIndex().row() == 1234
        finder.edit.setText("tool_3")  # every 7th step a call of tool_3 (3 of 4 steps are tool calls)
        finder.find()
        qtbot.waitUntil(lambda: not finder.searching, timeout=10000)
        count = len([number for number in range(STEPS) if number % 4 != 3 and number % 7 == 3])
        assert len(finder.matches) == count
        switch_language("de" if language == "en" else "en")  # Find again in the new words, on the reader too
        assert finder.searching
        qtbot.waitUntil(lambda: not finder.searching, timeout=10000)
        assert len(finder.matches) == count
    finally:
        tab.store.db.conn.set_trace_callback(None)
        switch_language("en")
    assert not _searched_here(read_here)


def test_an_answer_for_a_text_typed_over_or_another_run_is_dropped(qtbot, make_window, runs_tab_showing) -> None:
    window, tab, run_id = _long_run_shown(make_window, runs_tab_showing)
    finder = tab.timeline_pane.finder
    finder.edit.setText("result 1234")
    finder.find()
    finder.edit.setText("result 77")  # typed over before the answer: "result 77", "result 770" to "result 779"
    finder.find()
    qtbot.waitUntil(lambda: not finder.searching, timeout=10000)
    qtbot.wait(100)  # both answers have arrived
    count = len([number for number in (77, *range(770, 780)) if number % 4 != 3])  # tool calls say a result
    assert len(finder.matches) == count and finder.status.text() == f"1 of {count}"
    with RunStore.open(resolve_db_path()) as store:
        short = big_run(store, 12, "a short run")
    finder.edit.setText("result 1234")
    finder.find()
    assert finder.searching
    tab.select_runs([short])  # another run shown before the answer: searched at once (12 steps), not the long one
    qtbot.waitUntil(lambda: tab.timeline.run is not None and tab.timeline.run.id == short, timeout=5000)
    qtbot.wait(300)  # the long run's answer has arrived
    assert finder.matches == [] and finder.status.text() == "no match"


def test_a_window_shut_down_with_a_find_in_flight_closes_cleanly(qtbot, make_window, runs_tab_showing) -> None:
    window, tab, _run = _long_run_shown(make_window, runs_tab_showing)
    finder = tab.timeline_pane.finder
    finder.edit.setText("tool_3")
    finder.find()
    assert finder.searching
    window.shut_down()
    tab.store.close()  # as the window's owner closes it next
    qtbot.wait(300)
    assert finder.matches == [] and finder.status.text() == ""
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("run-inspector-find")]


def test_a_window_closed_during_a_long_find_does_not_wait_for_it(qtbot, make_window, runs_tab_showing) -> None:
    """The window's close waited for the search under way to its end (a long run's Find reads every payload: 0.3-0.5 s
    for 29 MB, more on a bigger run or a slower disk); it is broken off. The reader's read is slowed by SQLite's
    progress handler to some seconds, as a far bigger run's would be."""
    window, tab, _run = _long_run_shown(make_window, runs_tab_showing)
    finder = tab.timeline_pane.finder
    finder.edit.setText("result 77")
    finder.find()
    qtbot.waitUntil(lambda: not finder.searching and finder.status.text() == "1 of 8", timeout=10000)
    calls = slowed(finder._reads.reads._store.db.conn, SLOWED_S, 0.005, 100)  # the reader's own connection
    finder.edit.setText("result 1234")
    finder.find()
    qtbot.waitUntil(lambda: len(calls) > 5, timeout=10000)  # the search is under way
    started = time.monotonic()
    window.shut_down()
    waited = time.monotonic() - started
    assert waited < SLOWED_S / 2, waited
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("run-inspector-find")]
    assert finder.status.text() == "1 of 8"  # nothing said of the search broken off


def test_previous_match_waits_for_a_find_in_flight(qtbot, make_window, runs_tab_showing) -> None:
    """Shift+Enter (Previous) while the reader thread searches for a new text went to the last match of the text
    before, said "8 of 8" and told a screen reader "match 8 of 8: …" of a step that may not hold the text searched
    now; it waits for the answer, as Enter (Next) does."""
    window, tab, _run = _long_run_shown(make_window, runs_tab_showing)
    finder = tab.timeline_pane.finder
    finder.edit.setText("result 77")  # "result 77", "result 770" to "result 779": 8 tool calls
    finder.find()
    qtbot.waitUntil(lambda: not finder.searching and finder.status.text() != "", timeout=10000)
    assert finder.status.text() == "1 of 8" and tab.timeline_view.currentIndex().row() == 77
    finder.edit.setText("result 1234")
    finder.find()
    assert finder.searching
    finder.find_previous()  # before the answer (no event handled since it was asked)
    assert tab.timeline_view.currentIndex().row() == 77 and finder.status.text() == "1 of 8"
    qtbot.waitUntil(lambda: not finder.searching, timeout=10000)
    assert finder.status.text() == "1 of 1" and tab.timeline_view.currentIndex().row() == 1234
