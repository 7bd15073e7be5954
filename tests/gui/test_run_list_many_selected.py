"""A list whose every run is selected (File › Open trace selects the runs it imported: a customer's
trace of 25,000 runs) still answers at once: its headings repaint, a key moves, the selection is read."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.runs.run_list import RunListPane
from inspector.store import RunStore
from tests.gui.test_runs_models import many_runs

RUNS = 20_000
#: Generous: each took 0.5-2 s with 20,000 runs selected (Qt asked the model of every selected cell),
#: now a few milliseconds.
BOUND_S = 0.3


def seconds(action) -> float:
    """How long ``action`` and the paints it asked for take."""
    began = time.perf_counter()
    action()
    QApplication.processEvents()
    return time.perf_counter() - began


def test_a_list_with_every_run_selected_answers_at_once(qtbot, tmp_path: Path) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    ids = many_runs(store, RUNS)
    pane = RunListPane(store)
    qtbot.addWidget(pane)
    pane.resize(900, 400)
    pane.reload()
    pane.show()
    qtbot.waitExposed(pane)
    assert pane.select_runs(ids)  # as an import selects the runs it brought (every one read: not timed here)
    QApplication.processEvents()
    repaint_s = seconds(pane.view.horizontalHeader().viewport().update)  # a heading hovered, a column widened
    read: list[int] = []
    read_s = seconds(lambda: read.extend(pane.selected_run_ids()))
    assert sorted(read) == sorted(ids)
    pane.view.setFocus()
    key_s = seconds(lambda: qtbot.keyClick(pane.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier))
    assert pane.view.currentIndex().row() == RUNS - 1 and len(pane.selected_run_ids()) == RUNS  # moved, kept
    assert max(repaint_s, read_s, key_s) < BOUND_S, (repaint_s, read_s, key_s)
    store.close()
