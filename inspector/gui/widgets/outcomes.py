"""The outcome vocabulary of every view: icon, word and colour together (never colour alone).

ok: a check mark in bluish green; failed: a cross in vermillion; cancelled: a circle with a
bar (⊘) in blue, drawn hatched; no outcome: nothing. Run statuses add running and interrupted.
The colours themselves are :mod:`inspector.gui.widgets.outcome_colours`'s (the one place they are
defined); an icon is drawn in its outcome's word colour, readable on the window's base colour.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QGuiApplication, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap

from inspector.i18n.words import outcome_word

from .outcome_colours import CANCELLED_FILL, FAILED_FILL, FILLS, NEUTRAL, OK_FILL, fill_colour, text_colour

#: The fills of an outcome's bars (words take :func:`text_colour`).
OK_COLOUR, FAILED_COLOUR, CANCELLED_COLOUR = OK_FILL, FAILED_FILL, CANCELLED_FILL
NEUTRAL_COLOUR = NEUTRAL
COLOURS = FILLS


def outcome_colour(outcome: str) -> QColor | None:
    """The fill of an outcome's bars and marks, or ``None`` for no outcome; a word takes :func:`text_colour`."""
    return fill_colour(outcome)


def hatch_brush(colour: QColor) -> QBrush:
    """Diagonal hatching in ``colour``: what marks cancelled even on a greyscale print."""
    return QBrush(colour, Qt.BrushStyle.BDiagPattern)


def outcome_icon(outcome: str) -> QIcon:
    """The outcome's icon (an empty icon for no outcome), in its word's colour on the window's base; on a
    selected row (Qt's Selected mode) in the selection's text colour, as the word beside it is."""
    colour = text_colour(outcome)
    if colour is None:
        return QIcon()
    selected = QGuiApplication.palette().color(QPalette.ColorRole.HighlightedText)
    return _icon(outcome, colour.rgba(), selected.rgba())


@cache
def _icon(outcome: str, rgba: int, selected_rgba: int) -> QIcon:
    icon = QIcon()
    for size in (16, 32):
        icon.addPixmap(_draw(outcome, QColor.fromRgba(rgba), size))
        icon.addPixmap(_draw(outcome, QColor.fromRgba(selected_rgba), size), QIcon.Mode.Selected)
    return icon


def _draw(outcome: str, colour: QColor, size: int) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    unit = size / 16
    pen = QPen(colour, 2.2 * unit, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    if outcome == "ok":
        path = QPainterPath(QPointF(2.5 * unit, 8.5 * unit))
        path.lineTo(6.5 * unit, 12.5 * unit)
        path.lineTo(13.5 * unit, 3.5 * unit)
        painter.drawPath(path)
    elif outcome == "failed":
        painter.drawLine(QPointF(3.5 * unit, 3.5 * unit), QPointF(12.5 * unit, 12.5 * unit))
        painter.drawLine(QPointF(12.5 * unit, 3.5 * unit), QPointF(3.5 * unit, 12.5 * unit))
    elif outcome == "cancelled":
        circle = QRectF(2 * unit, 2 * unit, 12 * unit, 12 * unit)
        painter.setBrush(hatch_brush(colour))
        painter.drawEllipse(circle)
        painter.drawLine(QPointF(4.2 * unit, 11.8 * unit), QPointF(11.8 * unit, 4.2 * unit))
    elif outcome == "running":
        painter.setBrush(colour)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawEllipse(QRectF(4 * unit, 4 * unit, 8 * unit, 8 * unit))
    else:  # interrupted: a broken ring
        painter.drawArc(QRectF(3 * unit, 3 * unit, 10 * unit, 10 * unit), 30 * 16, 300 * 16)
    painter.end()
    return pixmap


__all__ = ["CANCELLED_COLOUR", "COLOURS", "FAILED_COLOUR", "OK_COLOUR", "hatch_brush",
           "outcome_colour", "outcome_icon", "outcome_word", "text_colour"]
