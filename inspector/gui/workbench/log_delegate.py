"""The Server log's cells, painted with one call into Python each.

Qt's own delegate asks the model for seven roles of every cell it paints (text, font,
alignment, colours, check state, decoration). While a server floods a stream, the worker
thread holds the interpreter lock most of the time, and the GUI thread waits for it on each of
those calls: a repaint of a few rows took hundreds of milliseconds. This delegate asks the
model once per cell (:meth:`~.server_log.ServerLogModel.cell`) and fills the style option
itself; the tooltips and the accessible text still come from the model's ``data``.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem


class LogCellDelegate(QStyledItemDelegate):
    """Fills a cell's style option from the model's :meth:`cell` (a model without it: Qt's way)."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # noqa: N802 - Qt's name
                        index: QModelIndex | QPersistentModelIndex) -> None:
        cell_of = getattr(index.model(), "cell", None)
        cell = cell_of(index.row(), index.column()) if cell_of is not None else None
        if cell is None:
            super().initStyleOption(option, index)
            return
        text, colour, bold = cell
        option.index = QModelIndex(index)
        option.text = text
        option.features |= QStyleOptionViewItem.ViewItemFeature.HasDisplay
        option.displayAlignment = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        if bold:
            font = QFont(option.font)
            font.setBold(True)
            option.font = font
            option.fontMetrics = QFontMetrics(font)
        if colour is not None:
            palette = QPalette(option.palette)
            palette.setColor(QPalette.ColorRole.Text, colour)
            option.palette = palette
