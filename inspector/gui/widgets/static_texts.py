"""Texts laid out once and drawn many times.

``QPainter.drawText`` lays its text out (shapes it) at every call. A row of the operations list is
drawn again whenever its mini bar grows a pixel, and its title and countdown with it: the same few
strings shaped again and again, most of the cost of drawing the row. A :class:`StaticTexts` keeps a
``QStaticText`` per string (the countdown's tenths repeat from row to row and second to second) and
draws it where ``drawText`` would have put it: left-aligned, centred in the height of its rectangle.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QFontMetrics, QPainter, QStaticText

#: The most strings kept; past it all are forgotten (titles come and go with their operations).
LIMIT = 400


class StaticTexts:
    """One ``QStaticText`` per string, for one font (a new font: :meth:`forget`)."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._limit = limit
        self._texts: dict[str, QStaticText] = {}
        self._point = QPointF()
        #: Strings laid out so far: a test sees that a string drawn again is not laid out again.
        self.made = 0

    def draw(self, painter: QPainter, rect: QRect, text: str, metrics: QFontMetrics) -> None:
        """``text`` (fitted to ``rect`` already) as ``drawText(rect, AlignLeft | AlignVCenter, text)`` draws it."""
        static = self._texts.get(text)
        if static is None:
            if len(self._texts) >= self._limit:
                self._texts.clear()
            static = self._texts[text] = QStaticText(text)
            static.setTextFormat(Qt.TextFormat.PlainText)  # server text is never markup
            self.made += 1
        point = self._point
        point.setX(rect.left())
        point.setY(rect.top() + (rect.height() - metrics.height()) / 2)
        painter.drawStaticText(point, static)

    def forget(self) -> None:
        self._texts.clear()


__all__ = ["StaticTexts"]
