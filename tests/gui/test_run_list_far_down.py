"""A list of 20,000 runs, every one selected as an import selects them, its current run the last row:
a filter or a sort order chosen reads the list's ids down to the current run and the records of the rows
shown, not the record (and why it failed) of every run above it (60-70 us a run: a trace of 25,000 runs
held the window 0.5-2.8 s at each). The current run stays current, selected and in view, every run
selected that is listed stays selected, and the list is the list."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector.gui.runs import run_reasons
from inspector.gui.runs.run_list import RunListPane
from inspector.store import RunStore
from inspector.store.browse import RunFilter, list_runs
from tests.gui.test_run_list_many_selected import every_run_selected
from tests.support.sample_runs import T0

RUNS = 20_000
#: Records a filter or sort may read (and ask why they failed): the rows shown and a page or two about
#: them. Every row down to the current run was read: 5,000 to 20,000.
RECORDS_READ = 500


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many runs each question of why runs failed was asked for (the real question is asked)."""
    counts: list[int] = []
    real = run_reasons.page_reasons

    def counted(store, runs: Sequence) -> dict:
        counts.append(len(runs))
        return real(store, runs)

    monkeypatch.setattr(run_reasons, "page_reasons", counted)
    return counts


def some_failed_runs(store: RunStore, count: int = RUNS) -> list[int]:
    """``count`` runs a minute apart, every fourth failed (the oldest too), written in one transaction."""
    with store.transaction():
        return [store.insert_run(f"run {n:05}", "imported", None, T0 + timedelta(minutes=n), None,
                                 "failed" if n % 4 == 0 else "ok", None,
                                 finished_at=T0 + timedelta(minutes=n, seconds=1)) for n in range(count)]


def shown_current(pane: RunListPane) -> int:
    """The current run's row, checked to be the view's current index, selected and in view."""
    view, current = pane.view, pane.current_run()
    row = pane.model.row_of(current.id)
    index = pane.model.index(row, 0)
    assert view.currentIndex().row() == row and view.selectionModel().isRowSelected(row)
    assert view.visualRect(index).intersects(view.viewport().rect()), (row, view.verticalScrollBar().value())
    return row


def test_a_filter_or_sort_with_the_current_run_far_down_reads_the_rows_shown(
        qtbot, tmp_path: Path, asked: list[int]) -> None:
    store = RunStore.open(tmp_path / "runs.db")
    ids = some_failed_runs(store)
    oldest, failed = ids[0], ids[::4]
    pane = every_run_selected(qtbot, store, ids)  # as an import selects its runs: the first (the oldest) current
    assert shown_current(pane) == RUNS - 1 and sum(asked) <= RECORDS_READ, sum(asked)

    def chosen(action, current_row: int, selected: Sequence[int], where: RunFilter, order: str = "started",
               descending: bool = True) -> None:
        asked.clear()
        action()
        QApplication.processEvents()
        assert pane.current_run().id == oldest and shown_current(pane) == current_row
        assert sorted(pane.selected_run_ids()) == sorted(selected)  # the runs listed of those selected
        rows = pane.model.rowCount()
        assert [pane.model.index(row, 0).data(Qt.ItemDataRole.UserRole + 1) for row in range(rows)] == \
            [run.id for run in list_runs(store, where, order, descending, limit=rows)]  # the rows are the list's
        assert sum(asked) <= RECORDS_READ, sum(asked)

    failed_only = RunFilter(statuses=("failed",))
    chosen(lambda: pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData("failed")),
           len(failed) - 1, failed, failed_only)
    chosen(lambda: pane.outcome_filter.setCurrentIndex(0), RUNS - 1, failed, RunFilter())
    pane.select_runs(ids)
    title = pane.model.COLUMNS.index("title")
    # First in the title's order (the view was at the end), then last.
    chosen(lambda: pane.view.sortByColumn(title, Qt.SortOrder.AscendingOrder), 0, ids, RunFilter(), "title", False)
    chosen(lambda: pane.view.sortByColumn(title, Qt.SortOrder.DescendingOrder), RUNS - 1, ids, RunFilter(), "title")
    # Cells of far-down rows say their words, as read for them.
    row = RUNS - 1
    assert pane.model.index(row, title).data() == "run 00000"
    assert pane.model.index(row, pane.model.COLUMNS.index("status")).data() == "failed"
    store.close()


def test_a_sort_keeps_every_selected_run_selected(qtbot, tmp_path: Path) -> None:
    """Selected again by id after the new order's read: those not among the rows read (all but the first
    1,000 of 3,000) were no longer selected, and an export of the selected runs left them out."""
    store = RunStore.open(tmp_path / "runs.db")
    ids = some_failed_runs(store, 3_000)
    pane = every_run_selected(qtbot, store, ids)
    pane.view.sortByColumn(pane.model.COLUMNS.index("title"), Qt.SortOrder.AscendingOrder)
    QApplication.processEvents()
    assert shown_current(pane) == 0 and sorted(pane.selected_run_ids()) == ids
    store.close()
