"""A list whose every run is selected (File › Open trace selects the runs it imported: a customer's
trace of 25,000 runs) still answers at once: its headings repaint, a key moves, the selection is read; a
click on one run is told to a screen reader without asking the model of every cell deselected."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication

from inspector.gui.runs import run_list
from inspector.gui.runs.run_list import RunListPane
from inspector.gui.runs.runs_model import RunListModel
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


def shown_pane(qtbot, store: RunStore) -> RunListPane:
    """The run list of ``store``, read and shown (900 x 400)."""
    pane = RunListPane(store)
    qtbot.addWidget(pane)
    pane.resize(900, 400)
    pane.reload()
    pane.show()
    qtbot.waitExposed(pane)
    return pane


def every_run_selected(qtbot, store: RunStore, ids: list[int]) -> RunListPane:
    """The run list shown with these runs selected, as an import selects the runs it brought (every one
    read)."""
    pane = shown_pane(qtbot, store)
    assert pane.select_runs(ids)
    QApplication.processEvents()
    return pane


def test_a_list_with_every_run_selected_answers_at_once(qtbot, tmp_path: Path) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    ids = many_runs(store, RUNS)
    pane = every_run_selected(qtbot, store, ids)
    repaint_s = seconds(pane.view.horizontalHeader().viewport().update)  # a heading hovered, a column widened
    read: list[int] = []
    read_s = seconds(lambda: read.extend(pane.selected_run_ids()))
    assert sorted(read) == sorted(ids)
    pane.view.setFocus()
    key_s = seconds(lambda: qtbot.keyClick(pane.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier))
    assert pane.view.currentIndex().row() == RUNS - 1 and len(pane.selected_run_ids()) == RUNS  # moved, kept
    assert max(repaint_s, read_s, key_s) < BOUND_S, (repaint_s, read_s, key_s)
    store.close()


@pytest.fixture
def reader(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[QAccessible.Event, int]]]:
    """Qt's accessibility active, as in a window a screen reader reads; what the window tells it of the
    selection (kind of change, child number)."""
    told: list[tuple[QAccessible.Event, int]] = []
    passed_on = QAccessible.updateAccessibility

    def update(event) -> None:
        if event.type() in (QAccessible.Event.SelectionAdd, QAccessible.Event.SelectionRemove):
            told.append((event.type(), event.child()))
        passed_on(event)

    monkeypatch.setattr(QAccessible, "updateAccessibility", update)
    QAccessible.setActive(True)
    yield told
    QAccessible.setActive(False)


def test_a_click_on_one_run_among_many_selected_is_told_to_a_screen_reader_without_reading_every_cell(
        qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reader) -> None:
    asked: list[int] = []

    class CountedModel(RunListModel):
        """The run list's model, counting the cells whose flags are asked."""

        def flags(self, index):
            asked.append(index.row())
            return super().flags(index)

    monkeypatch.setattr(run_list, "RunListModel", CountedModel)
    store = RunStore.open(tmp_path / "runs.db")
    ids = many_runs(store, 3_000)
    pane = every_run_selected(qtbot, store, ids)
    asked.clear()
    view, cells = pane.view, QAccessible.queryAccessibleInterface(pane.view)
    reader.clear()

    def told() -> list[tuple[QAccessible.Event, int, int]]:
        """What the reader was told since last asked: the change, and the row and column of its cell."""
        cell = [(kind, cells.child(child).tableCellInterface()) for kind, child in reader]
        reader.clear()
        return [(kind, said.rowIndex(), said.columnIndex()) for kind, said in cell]

    # Qt's table asked the flags of every cell deselected (27,000 here; 225,000 with a trace's 25,000 runs).
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=view.visualRect(pane.model.index(3, 2)).center())
    assert pane.selected_run_ids() == [pane.model.run(3).id]
    assert len(asked) < 50, len(asked)
    # The reader is told of the first run no longer selected by its first cell (the run clicked was selected).
    assert told() == [(QAccessible.Event.SelectionRemove, 0, 0)]
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert told() == [(QAccessible.Event.SelectionAdd, 4, 0), (QAccessible.Event.SelectionRemove, 3, 0)]
    asked.clear()
    reader.clear()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # every run selected again
    assert len(pane.selected_run_ids()) == 3_000 and len(asked) < 50, len(asked)
    assert told() == [(QAccessible.Event.SelectionAdd, 0, 0)]
    store.close()
