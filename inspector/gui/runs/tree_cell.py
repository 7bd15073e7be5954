"""The details cell of a span tree's row: indented by the span's depth, with an arrow that expands
or collapses the spans under it (a click on the arrow; Left and Right on the keyboard)."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPointF, QRect, Qt
from PySide6.QtGui import QMouseEvent, QPainter, QPolygonF
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from inspector.store.span_tree import DEEPEST_INDENT

from .timeline_model import BranchRole, DepthRole

#: Pixels per level of nesting, and the arrow's room.
INDENT_PX = 14
ARROW_PX = 12


def indent_of(depth: int) -> int:
    """Where a row's text starts in its cell: its depth's indent, capped so deep trees keep some text."""
    return min(depth, DEEPEST_INDENT) * INDENT_PX + ARROW_PX


class TreeCellDelegate(QStyledItemDelegate):
    """Paints a row's details after its indent and arrow; a click on the arrow toggles the row."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        depth = index.data(DepthRole) or 0
        branch = index.data(BranchRole)
        if not depth and branch is None:
            super().paint(painter, option, index)
            return
        widget = option.widget
        style = widget.style() if widget is not None else None
        whole = QStyleOptionViewItem(option)
        self.initStyleOption(whole, index)
        text = whole.text
        whole.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, whole, painter, widget)
        indent = indent_of(depth)
        if branch is not None:
            self._arrow(painter, option, QRect(option.rect.left() + indent - ARROW_PX, option.rect.top(),
                                               ARROW_PX, option.rect.height()), expanded=branch)
        shifted = QStyleOptionViewItem(option)
        self.initStyleOption(shifted, index)
        shifted.text = text
        shifted.rect = option.rect.adjusted(indent, 0, 0, 0)
        # The background is painted once, across the whole cell (a Find highlight is translucent).
        shifted.backgroundBrush = Qt.BrushStyle.NoBrush
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, shifted, painter, widget)

    @staticmethod
    def _arrow(painter: QPainter, option: QStyleOptionViewItem, room: QRect, expanded: bool) -> None:
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        colour = option.palette.highlightedText().color() if selected else option.palette.text().color()
        x, y = room.center().x(), room.center().y()
        size = 3.5
        if expanded:  # pointing down
            points = [QPointF(x - size, y - size / 2), QPointF(x + size, y - size / 2), QPointF(x, y + size)]
        else:  # pointing right
            points = [QPointF(x - size / 2, y - size), QPointF(x - size / 2, y + size), QPointF(x + size, y)]
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawPolygon(QPolygonF(points))
        painter.restore()

    def editorEvent(self, event: QEvent, model, option: QStyleOptionViewItem, index: QModelIndex) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
            branch = index.data(BranchRole)
            if branch is not None and event.button() == Qt.MouseButton.LeftButton:
                arrow_right = option.rect.left() + indent_of(index.data(DepthRole) or 0)
                if arrow_right - ARROW_PX - 2 <= event.position().x() <= arrow_right + 2:
                    model.set_expanded(index.row(), not branch)
                    return True
        return super().editorEvent(event, model, option, index)


__all__ = ["INDENT_PX", "TreeCellDelegate", "indent_of"]
