"""A list that keeps its current row in view when it gets shorter: a dock growing under it (the
Server log's first lines), the window made smaller. A row the reader had in view stays there; a row
they had scrolled away from is left where it is. A row scrolled to (centred, or brought up from
below) leaves the top row whole: scrolling by pixels otherwise stops part-way through it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QTableView


class KeepCurrentInView(QObject):
    """Scrolls ``view`` just enough to show its current row again after its viewport shrank."""

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self.view = view
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and isinstance(event, QResizeEvent):
            shrunk = event.size().height() < event.oldSize().height()
            current = self.view.currentIndex()
            if shrunk and current.isValid():
                row = self.view.visualRect(current)
                was_shown = row.isValid() and row.top() >= 0 and row.bottom() <= event.oldSize().height()
                if was_shown and row.bottom() > event.size().height():
                    # Its scroll range for the new height first: a list scrolled by rows that fitted
                    # whole had none, and the row was scrolled to nowhere.
                    self.view.updateGeometries()
                    self.view.scrollTo(current, QAbstractItemView.ScrollHint.EnsureVisible)
                    top_row_whole(self.view, current.row())
        return False


def top_row_whole(view: QTableView, row: int) -> None:
    """Scroll ``view`` (rows of one height, scrolled by pixels) by less than a row so that its top row
    shows whole, and ``row`` with it where it showed whole: a step centred by :meth:`scrollTo` left
    the row above it cut in half at the top of the timeline. A view scrolled by rows (the run list)
    shows its top row whole already: its scroll bar counts rows, not pixels."""
    if view.verticalScrollMode() != QAbstractItemView.ScrollMode.ScrollPerPixel:
        return
    height, bar = view.rowHeight(0), view.verticalScrollBar()
    cut = bar.value() % height if height > 0 else 0
    if not cut:
        return
    up = bar.value() - cut
    bottom = view.rowViewportPosition(row) + bar.value() - up + height  # the row's bottom, scrolled up
    # Up shows the cut row whole; where that pushes ``row`` past the bottom, down shows the next one
    # whole; at the very end (the last rows), ``row`` stays whole and the top row cut.
    if bottom <= view.viewport().height():
        bar.setValue(up)
    elif up + height <= bar.maximum():
        bar.setValue(up + height)
