"""Column widths of the Runs tab's tables: wide enough for their heading and their longest usual
word in the current language (German words are longer), never narrower than a least width."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHeaderView, QTableView

#: Room beside a word for an outcome's icon and the cell's padding.
ICON_ROOM_PX = 30
#: Room beside a heading for the sort arrow (sortable tables) or the padding alone.
SORT_ARROW_PX = 26
PADDING_PX = 12
#: Height of a row: a line of text and a little air, so many rows fit (the run list's ten at least).
ROW_PX = 20


def compact_rows(view: QTableView) -> None:
    """One line per row at :data:`ROW_PX`, the same for every row (the view never measures them)."""
    rows = view.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setMinimumSectionSize(ROW_PX)
    rows.setDefaultSectionSize(max(ROW_PX, view.fontMetrics().height() + 4))
    view.setWordWrap(False)


def fit_columns(view: QTableView, least: Sequence[int], samples: Mapping[int, Sequence[str]], *,
                sortable: bool = False, icons: Sequence[int] = ()) -> None:
    """Widen each column that does not stretch to its heading and its ``samples``; ``icons`` are the
    columns whose cells show an icon before the word."""
    header = view.horizontalHeader()
    model = view.model()
    head_metrics, cell_metrics = header.fontMetrics(), view.fontMetrics()
    for column, width in enumerate(least):
        if header.sectionResizeMode(column) == QHeaderView.ResizeMode.Stretch:
            continue
        heading = str(model.headerData(column, Qt.Orientation.Horizontal) or "")
        room = ICON_ROOM_PX if column in icons else PADDING_PX
        needed = max([width, head_metrics.horizontalAdvance(heading) + (SORT_ARROW_PX if sortable else PADDING_PX)]
                     + [cell_metrics.horizontalAdvance(word) + room for word in samples.get(column, [])])
        view.setColumnWidth(column, needed)


__all__ = ["ROW_PX", "compact_rows", "fit_columns"]
