"""A small line of recent latencies beside a server's health.

A line has no axis: its tooltip says what it shows (the latest ok operations, the newest on the
right) and its range, as its description says it to a screen reader, in the language shown."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QWidget

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_duration

from ..language import on_language_changed, translated
from ..widgets.plain_text import plain_tooltip

#: Fewer points than this draw a flat-looking stroke that reads as a divider: the line stays hidden.
MIN_POINTS = 3


class Sparkline(QWidget):
    """Draws values (oldest first) scaled to its height; says them for a screen reader."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.values: list[float] = []
        translated(self, "setAccessibleName", lambda: _("Recent latencies"))
        self.setFixedHeight(22)
        self.setMinimumWidth(60)
        on_language_changed(self, self._say)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(120, 22)

    def set_values(self, values: list[float]) -> None:
        self.values = list(values)
        self.setVisible(len(self.values) >= MIN_POINTS)
        self._say()
        self.update()

    def _say(self) -> None:
        """The description and the tooltip, in the language shown (again after a switch)."""
        if not self.values:
            self.setAccessibleDescription(_("no latencies yet"))
            self.setToolTip("")
            return
        # The values are milliseconds (as stored); said in the window's one duration format.
        low, high = format_duration(min(self.values) / 1000), format_duration(max(self.values) / 1000)
        self.setAccessibleDescription(_("{count} recent latencies from {low} to {high}").format(
            count=len(self.values), low=low, high=high))
        self.setToolTip(plain_tooltip(ngettext(
            "How long the server took to answer its latest ok operation:\n{newest}.",
            "How long the server took to answer its latest {count} ok operations\n(the newest on the right):"
            " from {low} to {high}, the newest {newest}.", len(self.values)).format(
                count=len(self.values), low=low, high=high, newest=format_duration(self.values[-1] / 1000))))

    def paintEvent(self, event: object) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if len(self.values) < MIN_POINTS:
            painter.setPen(QColor("#888888"))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignVCenter, "—" if not self.values else "·")
            painter.end()
            return
        low, high = min(self.values), max(self.values)
        span = (high - low) or 1.0
        w, h = self.width() - 4, self.height() - 4
        step = w / (len(self.values) - 1)
        points = QPolygonF([QPointF(2 + i * step, 2 + h - (v - low) / span * h) for i, v in enumerate(self.values)])
        # A faint baseline under the line and a dot on each value: it reads as a chart, not a rule.
        painter.setPen(QPen(QColor("#C0C0C0"), 1))
        painter.drawLine(QPointF(2, 2 + h), QPointF(2 + w, 2 + h))
        painter.setPen(QPen(QColor("#0072B2"), 1.5))
        painter.drawPolyline(points)
        painter.setBrush(QColor("#0072B2"))
        for point in points:
            painter.drawEllipse(point, 1.8, 1.8)
        painter.end()
