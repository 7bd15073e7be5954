"""A table view that tells a screen reader of a change of selection without reading every cell changed.

While Qt's accessibility is active (a screen reader, or any other AT-SPI client, reads the window) a
:class:`QTableView` tells the reader of the first cell selected and the first cell deselected at each
change of selection. It finds them by listing every cell of the change, asking the model's flags of
each: in the Runs tab, after an opened trace had selected its 25,000 runs, a click on one run asked
225,000 times (1.4-2 s of a frozen window), and so did Ctrl+A.

:class:`ReaderTable` tells the reader the same two cells, found from the change's first range (its top
left cell), and leaves the repaint of the rows changed to Qt as before.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, Qt
from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import QAbstractItemView, QTableView

#: What a cell needs to be counted as selected (as Qt counts it).
_SELECTABLE = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled


def accessible_child(view: QTableView, row: int, column: int) -> int:
    """The number by which a screen reader knows the cell at ``row``, ``column`` among the table's
    children: Qt counts the corner and the column headings first, and the row heading before each row."""
    return (row + 1) * (view.model().columnCount(view.rootIndex()) + 1) + column + 1


class ReaderTable(QTableView):
    """A :class:`QTableView` whose changes of selection cost the same with one row or 25,000 selected."""

    def selectionChanged(self, selected: QItemSelection, deselected: QItemSelection) -> None:  # noqa: N802
        if QAccessible.isActive():
            self._tell(selected, QAccessible.Event.SelectionAdd)
            self._tell(deselected, QAccessible.Event.SelectionRemove)
        # QAbstractItemView's own (the rows changed repainted), not QTableView's: that lists every cell.
        QAbstractItemView.selectionChanged(self, selected, deselected)

    def _tell(self, change: QItemSelection, kind: QAccessible.Event) -> None:
        """Tell the reader of the first cell of ``change`` (a model's usual cells are all selectable)."""
        for part in change:
            first = part.topLeft()
            if first.isValid() and self.model().flags(first) & _SELECTABLE == _SELECTABLE:
                event = QAccessibleEvent(self, kind)
                event.setChild(accessible_child(self, first.row(), first.column()))
                QAccessible.updateAccessibility(event)
                return


__all__ = ["ReaderTable", "accessible_child"]
