"""The Runs tab in front kept live by a reader thread (issue 27: nothing on the GUI thread touches
the database for a live update): new runs, a growing run's new steps (past a page), a step's new
replay, and answers read for something no longer shown. Real SQLite, real widgets offscreen."""

from __future__ import annotations

import threading
from datetime import timedelta

from inspector.gui.runs import live_reads
from inspector.gui.runs.timeline_model import COLUMNS, PAGE_SIZE
from inspector.runs import RunStep, StepKind
from inspector.store import RunStore, resolve_db_path
from tests.support.sample_runs import T0, mixed_run

DETAILS = COLUMNS.index("details")


def _step(number: int) -> RunStep:
    return RunStep(kind=StepKind.LLM, round=number, duration_ms=5.0, content=f"thinking, step {number}")


def _front(qtbot, make_window):
    window = make_window(wait_tools=False)
    tab = window.runs_tab
    tab.show_me()
    qtbot.waitUntil(lambda: window.pacer.active, timeout=10000)  # the first paint's work is done
    return window, tab


def test_a_growing_run_and_new_runs_show_without_the_gui_thread_reading_the_database(qtbot, make_window) -> None:
    window, tab = _front(qtbot, make_window)
    with RunStore.open(resolve_db_path()) as other:
        run_id = other.start_run("growing", "scenario", "http://127.0.0.1:9/mcp", started_at=T0)
        other.append_step(run_id, _step(1), T0)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None, timeout=5000)
    assert tab.select_runs([run_id])  # the user's choice: read here, at once
    assert tab.timeline.rowCount() == 1 and tab.timeline.index(0, DETAILS).data()  # its first page read, here
    shown = tab.freshness.shown_answers
    statements: list[str] = []
    window.store.db.conn.set_trace_callback(statements.append)  # the GUI thread's connection
    try:
        grown = PAGE_SIZE + 50
        with RunStore.open(resolve_db_path()) as other:  # another program's writes
            other.append_steps(run_id, [(_step(number), T0 + timedelta(milliseconds=number))
                                        for number in range(2, grown + 1)])
            newer = other.start_run("another run", "live", "http://127.0.0.1:9/mcp",
                                    started_at=T0 + timedelta(seconds=5))
        qtbot.waitUntil(lambda: tab.timeline.rowCount() == grown and tab.runs.row_of(newer) is not None,
                        timeout=5000)
        # The new rows, past the first page, were read with the answer: painting them reads nothing.
        texts = [tab.timeline.index(row, DETAILS).data() for row in (0, PAGE_SIZE - 1, PAGE_SIZE, grown - 1)]
        heading = tab.run_heading.text()
        qtbot.wait(400)  # another poll: nothing changed, nothing read
    finally:
        window.store.db.conn.set_trace_callback(None)
    assert statements == []
    assert tab.freshness.shown_answers > shown
    assert [text.split(",")[-1].strip() for text in texts] == [
        "step 1", f"step {PAGE_SIZE}", f"step {PAGE_SIZE + 1}", f"step {grown}"]
    assert f"{grown} steps" in heading
    assert tab.current_run().id == run_id  # the selection stayed on the growing run


def test_a_replay_stored_meanwhile_shows_beside_the_shown_step_read_off_the_gui_thread(qtbot, make_window) -> None:
    from inspector.runs.replaying import ReplayLink
    from inspector.store.replays import note_replay

    window, tab = _front(qtbot, make_window)
    with RunStore.open(resolve_db_path()) as other:
        run_id = mixed_run(other)
        uid = other.get_run(run_id).uid
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None, timeout=5000)
    assert tab.select_runs([run_id])
    tab.select_step(1)  # write_note, ok
    assert tab.detail.step is not None and not tab.detail.replays.isVisibleTo(tab)
    statements: list[str] = []
    window.store.db.conn.set_trace_callback(statements.append)
    try:
        with RunStore.open(resolve_db_path()) as other:
            replay = mixed_run(other, "replay of write_note", started_at=T0 + timedelta(minutes=1))
            with other.transaction():
                note_replay(other, replay, ReplayLink(uid, tab.detail.step.row.sequence))
        qtbot.waitUntil(lambda: tab.detail.replays.isVisibleTo(tab), timeout=5000)
    finally:
        window.store.db.conn.set_trace_callback(None)
    assert statements == []
    assert str(replay) in tab.detail.replays.line.text()


def test_an_answer_read_for_a_filter_no_longer_chosen_is_dropped_and_asked_again(
        qtbot, make_window, monkeypatch) -> None:
    window, tab = _front(qtbot, make_window)
    with RunStore.open(resolve_db_path()) as other:
        cancelled = mixed_run(other)  # ends cancelled
    qtbot.waitUntil(lambda: tab.runs.row_of(cancelled) is not None, timeout=5000)
    release, reading = threading.Event(), threading.Event()
    real = live_reads.read_listing

    def held(*args, **kwargs):
        reading.set()
        release.wait(5)
        return real(*args, **kwargs)

    monkeypatch.setattr(live_reads, "read_listing", held)
    with RunStore.open(resolve_db_path()) as other:
        ok_run = other.start_run("an ok run", "live", "http://127.0.0.1:9/mcp", started_at=T0 + timedelta(hours=1))
        other.finish_run(ok_run, "ok", T0 + timedelta(hours=1, seconds=1))
    qtbot.waitUntil(reading.is_set, timeout=5000)  # a live read of the whole list is under way
    dropped = tab.freshness.dropped_answers
    tab.outcome_filter.setCurrentIndex(tab.outcome_filter.findData("cancelled"))  # the user filters meanwhile
    assert [tab.runs.run(row).id for row in range(tab.runs.rowCount())] == [cancelled]
    release.set()
    qtbot.waitUntil(lambda: tab.freshness.dropped_answers > dropped and not tab.freshness.reads.busy, timeout=5000)
    qtbot.wait(100)
    assert [tab.runs.run(row).id for row in range(tab.runs.rowCount())] == [cancelled]  # not the older answer's


def test_a_live_read_reaches_down_to_the_selected_run_and_agrees_with_a_read_on_this_thread(tmp_path) -> None:
    from inspector.gui.runs.live_reads import LiveQuestion, LiveReads
    from inspector.gui.runs.run_listing import read_listing
    from inspector.store.browse import RunFilter

    with RunStore.open(tmp_path / "runs.db") as store:
        ids = [store.start_run(f"run {number}", "live", "http://127.0.0.1:9/mcp",
                               started_at=T0 + timedelta(seconds=number)) for number in range(30)]
        oldest = ids[0]  # newest first: the last row
        short = read_listing(store, RunFilter(), "started", True, 10)
        assert len(short.ids) == 10 and short.has_more and oldest not in short.ids and oldest not in short.runs
        reaching = read_listing(store, RunFilter(), "started", True, 10, current=oldest)
        assert reaching.ids == list(reversed(ids)) and not reaching.has_more and oldest in reaching.runs
        reads = LiveReads()
        question = LiveQuestion(RunFilter(), "started", True, 10, oldest)
        answer = reads(store, question)
        assert answer is not None and answer.listing == reaching
        assert answer.servers == [("http://127.0.0.1:9/mcp", False)]
        assert reads(store, question) is None  # nobody wrote since: nothing read
        assert reads(store, LiveQuestion(RunFilter(), "started", True, 10, oldest, force=True)) is not None
        with RunStore.open(tmp_path / "runs.db") as other:
            newer = other.start_run("newer", "live", None, started_at=T0 + timedelta(hours=1))
        again = reads(store, question)
        assert again is not None and again.listing.ids[0] == newer


def test_a_reader_stopped_twice_or_asked_after_it_stopped_says_nothing(qtbot, tmp_path) -> None:
    from inspector.gui.widgets.background_reads import BackgroundReads

    with RunStore.open(tmp_path / "runs.db") as store:
        store.start_run("one", "live", None, started_at=T0)
    answers: list = []
    reads = BackgroundReads(tmp_path / "runs.db", lambda store, question: len(store.list_runs()), "test")
    reads.answered.connect(lambda question, answer, problem: answers.append((question, answer, problem)))
    reads.request("how many")
    qtbot.waitUntil(lambda: bool(answers), timeout=5000)
    assert answers == [("how many", 1, "")]
    reads.stop()
    reads.stop()
    reads.request("again")  # after the window closed: nothing is read, nothing raises
    qtbot.wait(100)
    assert len(answers) == 1 and reads.reads == 1
