"""The waterfall column: each step's span on the run's time axis, painted from model data.

The model gives (offset, duration or None, outcome, axis length) in seconds for a row; the
delegate scales it to the cell. Outcomes keep their vocabulary and stay apart in greyscale too: ok
solid in its light bluish green, failed solid in a deep vermillion (much darker than ok) with a dark
edge, cancelled hatched in blue, no outcome a pale grey bar with a grey edge (the colours are
:mod:`~inspector.gui.widgets.outcome_colours`'s). An unfinished step (no end) is a start
mark with an open, dashed tail: it is not stretched to now.

In a span tree each level of nesting draws its bar a little lower and thinner, with a thin line up
from its start toward the span it hangs under; a bar is at least :data:`MIN_BAR_PX` wide, so a
span of 0.1 ms in a run of minutes is still seen.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from ..widgets.outcome_colours import NEUTRAL, fill_colour
from ..widgets.outcomes import hatch_brush
from .timeline_model import DepthRole, WaterfallRole

MIN_BAR_PX = 3.0
#: Pixels a bar moves down (and thins) per level of nesting, up to MAX_DEPTH_SHOWN levels.
DEPTH_INSET_PX = 3.0
MAX_DEPTH_SHOWN = 3
UNFINISHED_TAIL_PX = 18.0


def bar_extent(offset_s: float, duration_s: float | None, span_s: float, width: float) -> tuple[float, float]:
    """Where a step's bar starts in a cell of ``width`` pixels, and how wide it is."""
    span = max(span_s, 1e-9)
    x = min(max(offset_s / span, 0.0), 1.0) * width
    if duration_s is None:
        return x, 0.0
    return x, max(min(duration_s / span * width, width - x), MIN_BAR_PX)


class WaterfallDelegate(QStyledItemDelegate):
    """Paints the waterfall cell of a :class:`~inspector.gui.runs.timeline_model.TimelineModel` row."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        # The item's background first (selection, Find highlight), without any text.
        style_option = QStyleOptionViewItem(option)
        self.initStyleOption(style_option, index)
        style_option.text = ""
        widget = option.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, style_option, painter, widget)
        value = index.data(WaterfallRole)
        if not value:
            return
        offset, duration, outcome, span = value
        cell = QRectF(option.rect).adjusted(4, 4, -4, -4)
        if cell.width() <= 2 or cell.height() <= 2:
            return
        x, width = bar_extent(offset, duration, span, cell.width())
        depth = min(index.data(DepthRole) or 0, MAX_DEPTH_SHOWN)
        if depth and cell.height() > 6:
            inset = min(depth * DEPTH_INSET_PX, cell.height() - 5)
            guide = QColor(option.palette.text().color())
            guide.setAlpha(110)
            # The bar's top moves down and a thin line rises from its start: it hangs under the row above.
            painter.save()
            painter.setPen(QPen(guide, 1))
            painter.drawLine(QPointF(cell.left() + x, option.rect.top()), QPointF(cell.left() + x, cell.top() + inset))
            painter.restore()
            cell = cell.adjusted(0, inset, 0, 0)
        colour = fill_colour(outcome) or NEUTRAL
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        if duration is None:
            self._unfinished(painter, cell, cell.left() + x, colour)
        else:
            bar = QRectF(cell.left() + x, cell.top(), width, cell.height())
            if outcome == "cancelled":
                painter.fillRect(bar, QColor(colour.red(), colour.green(), colour.blue(), 60))
                painter.fillRect(bar, hatch_brush(colour))
                painter.setPen(QPen(colour, 1))
                painter.drawRect(bar.adjusted(0, 0, -1, -1))
            elif outcome == "failed":
                painter.fillRect(bar, colour)
                painter.setPen(QPen(colour.darker(220), 1))
                painter.drawRect(bar.adjusted(0, 0, -1, -1))
            elif not outcome:
                painter.fillRect(bar, QColor(colour.red(), colour.green(), colour.blue(), 90))
                painter.setPen(QPen(colour, 1))
                painter.drawRect(bar.adjusted(0, 0, -1, -1))
            else:
                painter.fillRect(bar, colour)
        painter.restore()

    @staticmethod
    def _unfinished(painter: QPainter, cell: QRectF, x: float, colour: QColor) -> None:
        middle = cell.center().y()
        painter.setPen(QPen(colour, 2))
        painter.drawLine(QPointF(x, cell.top()), QPointF(x, cell.bottom()))
        pen = QPen(colour, 1, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        end = min(x + UNFINISHED_TAIL_PX, cell.right())
        painter.drawLine(QPointF(x, middle), QPointF(end, middle))
        painter.drawLine(QPointF(end - 4, middle - 3), QPointF(end, middle))
        painter.drawLine(QPointF(end - 4, middle + 3), QPointF(end, middle))

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802
        return QSize(220, 18)


__all__ = ["WaterfallDelegate", "bar_extent"]
