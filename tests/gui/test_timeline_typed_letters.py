"""Letters typed in a long run's timeline do not walk its rows (Qt's type-ahead search read every
page of the run from the database: 0.5-1 s a key for 10,000 steps, 7-10 s for 100,000)."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtWidgets import QApplication

from inspector.gui.runs.timeline_pane import TimelinePane
from inspector.store import RunStore
from tests.support.sample_runs import big_run

STEPS = 10_000


def test_letters_typed_in_a_long_timeline_read_no_more_rows_and_answer_at_once(qtbot, tmp_path: Path) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    run_id = big_run(store, STEPS)
    pane = TimelinePane(store)
    qtbot.addWidget(pane)
    pane.resize(1000, 500)
    pane.show()
    qtbot.waitExposed(pane)
    pane.show_run(store.get_run(run_id))
    pane.select_step(0)
    pane.view.setFocus()
    QApplication.processEvents()
    read = pane.model.cached_rows  # the rows shown, read
    began = time.perf_counter()
    for letter in "sx1":
        qtbot.keyClick(pane.view, letter)
    QApplication.processEvents()
    took = time.perf_counter() - began
    assert pane.model.cached_rows == read  # no page read for the letters (was 4,000 rows, the cache's most)
    assert pane.view.currentIndex().row() == 0
    assert took < 0.3, took  # generous: 1.5-3 s before
    store.close()
