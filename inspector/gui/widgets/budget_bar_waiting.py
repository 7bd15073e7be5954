"""How a leg that waits on input between rounds is painted: pale, dotted, outlined.

Every other leg is a solid block of colour (cancelled ones hatched); a wait is time the server
did not spend, so it is drawn light, with a dot pattern and a dark outline: it reads as its own
kind in greyscale too, and a dark label stays legible on it.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen

#: Okabe–Ito's reddish purple, pale: no other kind of leg uses it.
WAITING_FILL = QColor("#F4E3EE")
WAITING_FILL_SHADE = QColor("#EBD2E2")
WAITING_DOTS = QColor("#8F4F78")
WAITING_EDGE = QColor("#6B3A5A")
#: The label's colour on a waiting leg (dark on the pale fill).
WAITING_TEXT = QColor("#1A1A1A")


#: Made once: a brush or pen made while painting costs far more than using one (see ``mini_bar``).
_DOTS = QBrush(WAITING_DOTS, Qt.BrushStyle.Dense5Pattern)
_EDGE = QPen(WAITING_EDGE, 1, Qt.PenStyle.SolidLine)


def paint_waiting(painter: QPainter, rect: QRectF, shade: int = 0, *, outline: bool = True) -> None:
    """Fill ``rect`` as a waiting leg: pale colour, dots, and (when there is room) a dark outline."""
    painter.save()
    painter.fillRect(rect, WAITING_FILL_SHADE if shade else WAITING_FILL)
    painter.fillRect(rect, _DOTS)
    if outline and rect.width() >= 3:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(_EDGE)
        painter.drawRect(rect.adjusted(0.5, 0.5, -0.5, -0.5))
    painter.restore()
