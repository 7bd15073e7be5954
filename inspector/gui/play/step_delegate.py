"""Paints an operation's budget bar in its row of the played run (the workbench's mini bar)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRectF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from ..widgets.mini_bar import paint_mini_bar
from .steps_model import ROW_ROLE

#: The bar's height inside its row, at most.
BAR_PX = 10


class StepBarDelegate(QStyledItemDelegate):
    """The budget column: the mini bar of a tool step, live while it runs."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        super().paint(painter, option, index)
        row = index.data(ROW_ROLE)
        if row is None or row.bar is None:
            return
        rect = option.rect.adjusted(4, 0, -4, 0)
        height = min(BAR_PX, rect.height() - 4)
        area = QRectF(rect.left(), rect.top() + (rect.height() - height) / 2, rect.width(), height)
        if area.width() < 8:
            return
        painter.save()
        try:
            paint_mini_bar(painter, area, row.bar, row.elapsed_s())
        finally:
            painter.restore()
