"""Find reads the words a run's steps show (:mod:`inspector.gui.runs.shown_words`: "Step 7: tool …", words the
store does not keep) when it is first asked. A lock of the run database that refused that first read (another
program writing at that moment) left the words unread and Find skipping them, for good: the next Find, the lock
gone, said "no match" for a step's heading until another run or language was chosen. Now the next Find reads them.

Real parts: a run database, and a second connection that takes an exclusive lock just as Find reads the steps'
words (after it counted them). SQLite's write-ahead log lets a reader past a writer; a writer's lock refuses a
reader where the database keeps a rollback journal (as SQLite does where the log cannot be shared), so the test's
database keeps one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inspector.gui.runs.timeline_pane import TimelinePane
from inspector.store import RunStore
from inspector.store.faults import set_lock_wait
from tests.support.sample_runs import big_run

#: Words only the step's detail heading says (the store keeps "tool_6", never "Step 7:").
HEADING = "Step 7: tool"


def test_find_reads_the_words_shown_again_after_a_lock_refused_them(qtbot, tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    store = RunStore.open(path)
    run_id = big_run(store, 40)
    assert store.db.conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0] == "delete"
    set_lock_wait(store.db.conn, 0.1)
    pane = TimelinePane(store)
    qtbot.addWidget(pane)
    pane.show_run(store.get_run(run_id))
    finder = pane.finder
    other = sqlite3.connect(path, isolation_level=None, timeout=1)
    trap = {"armed": False, "counted": False}

    def lock_after_the_count(statement: str) -> None:
        """The other program takes its lock once Find counted the steps, as it reads their words."""
        if not trap["armed"]:
            return
        if "COUNT(*), MAX(id) FROM steps" in statement:
            trap["counted"] = True
        elif trap["counted"]:
            trap["armed"] = False
            other.execute("BEGIN EXCLUSIVE")

    store.db.conn.set_trace_callback(lock_after_the_count)
    try:
        finder.edit.setText(HEADING)
        trap["armed"] = True
        finder.find()
        assert trap["counted"] and not trap["armed"]  # the lock came between the count and the words
        assert finder.matches == [] and finder.status.text() == "not searched"
        other.execute("ROLLBACK")  # the other program is done
        finder.find()  # Find again (Enter): the words are read now
        assert finder.status.text() == "1 of 1"
        assert pane.model.row(finder.matches[0]).sequence == 7
    finally:
        store.db.conn.set_trace_callback(None)
        other.close()
        store.close()
