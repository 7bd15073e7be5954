"""The run list's selection by rows, made and read a range at a time: an import selects 25,000 runs, and
a row at a time would tell every listener once a row, asking the model of every cell (1-2 s a time)."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QItemSelection, QItemSelectionModel
from PySide6.QtWidgets import QAbstractItemView, QTableView

from .runs_model import RunListModel


def select_rows(view: QTableView, model: RunListModel, rows: Iterable[int], current_row: int) -> None:
    """Select these rows (and nothing else) in one selection of their ranges; ``current_row`` current."""
    ranges = QItemSelection()
    start = previous = None
    for row in sorted(set(rows)):
        if start is not None and row == previous + 1:
            previous = row
            continue
        if start is not None:
            ranges.select(model.index(start, 0), model.index(previous, 0))
        start = previous = row
    if start is not None:
        ranges.select(model.index(start, 0), model.index(previous, 0))
    selection = view.selectionModel()
    selection.select(ranges, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    selection.setCurrentIndex(model.index(current_row, 0), QItemSelectionModel.SelectionFlag.NoUpdate)


def selected_ids(view: QTableView, model: RunListModel) -> list[int]:
    """The ids of the selected rows' runs, in row order: from the selection's ranges (whole rows: the view
    selects rows), not ``selectedRows``, which asks the model's flags of every selected cell, and nothing
    read but the ids."""
    spans = sorted((selected.top(), selected.bottom()) for selected in view.selectionModel().selection())
    ids: list[int] = []
    end = -1  # the last row taken: ranges may overlap
    for top, bottom in spans:
        ids += model.ids_of(max(top, end + 1), bottom)
        end = max(end, bottom)
    return ids


def bring_into_view(view: QTableView, row: int) -> None:
    """Scroll to ``row``: where it shows already, it stays; else it comes to the middle of the list."""
    index = view.model().index(row, 0)
    shown = view.visualRect(index).intersects(view.viewport().rect())
    view.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible if shown
                  else QAbstractItemView.ScrollHint.PositionAtCenter)


def shown_rows(view: QTableView) -> tuple[int, int]:
    """The first and last rows ``view`` shows (whole or in part)."""
    first, last = view.rowAt(0), view.rowAt(view.viewport().height() - 1)
    return max(first, 0), view.model().rowCount() - 1 if last < 0 else last


__all__ = ["bring_into_view", "select_rows", "selected_ids", "shown_rows"]
