"""A one-line label that ends in "…" where its text does not fit, and then shows the whole text as
its tip: a long run title is cut readably, never mid-letter, and never widens the window.

A part of the text may be named the one to shorten first (a run's title in a heading that goes on
with its counts): it gives up its room before anything after it is cut."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class ElidedLabel(QLabel):
    """Plain text on one line; ``text()`` is always the whole text (for readers and screen readers)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setMinimumWidth(1)
        #: Where the part shortened first is: (start, end) in the text, or None.
        self._squeezed: tuple[int, int] | None = None

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._squeezed = None
        super().setText(text)
        self._tip()

    def set_text_shortening(self, text: str, start: int, end: int) -> None:
        """Show ``text``; where it does not fit, ``text[start:end]`` is shortened (to its start and "…")
        before the rest is cut at the end."""
        self._squeezed = (start, end) if 0 <= start < end <= len(text) else None
        super().setText(text)
        self._tip()

    def shown_text(self) -> str:
        """The text as painted: the whole text, or (the part named shortened first) its start and "…"."""
        text, width, metrics = self.text(), self.contentsRect().width(), self.fontMetrics()
        if self._squeezed is not None and metrics.horizontalAdvance(text) > width:
            start, end = self._squeezed
            before, part, after = text[:start], text[start:end], text[end:]
            room = width - metrics.horizontalAdvance(before + after)
            part = metrics.elidedText(part, Qt.TextElideMode.ElideRight, max(room, 0)) or "…"
            text = before + part + after
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)

    def is_cut(self) -> bool:
        return self.shown_text() != self.text()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._tip()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        self.style().drawItemText(painter, self.contentsRect(), int(self.alignment()), self.palette(),
                                  self.isEnabled(), self.shown_text(), self.foregroundRole())

    def _tip(self) -> None:
        self.setToolTip(self.text() if self.is_cut() else "")


__all__ = ["ElidedLabel"]
