"""A one-line label that ends in "…" where its text does not fit, and then shows the whole text as
its tip: a long run title is cut readably, never mid-letter, and never widens the window.

A part of the text may be named the one to shorten first (a run's title in a heading that goes on
with its counts), and others after it (why a run is failed): they give up their room, in turn,
before anything after them is cut."""

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
        #: Where the parts shortened first are, in their order: (start, end) in the text each, or None.
        self._squeezed: list[tuple[int, int]] | None = None

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._squeezed = None
        super().setText(text)
        self._tip()

    def set_text_shortening(self, text: str, start: int, end: int, *more: tuple[int, int]) -> None:
        """Show ``text``; where it does not fit, ``text[start:end]`` is shortened (to its start and "…")
        before the rest is cut at the end; ``more`` parts (start, end), apart from it and each other,
        are shortened after it, in their order, before that."""
        parts = [(start, end), *more]
        valid = all(0 <= first < last <= len(text) for first, last in parts)
        apart = all(a[1] <= b[0] or b[1] <= a[0] for i, a in enumerate(parts) for b in parts[i + 1:])
        self._squeezed = parts if valid and apart else None
        super().setText(text)
        self._tip()

    def shown_text(self) -> str:
        """The text as painted: the whole text, or (the parts named shortened first) their starts and "…"."""
        text, width, metrics = self.text(), self.contentsRect().width(), self.fontMetrics()
        if self._squeezed is not None and metrics.horizontalAdvance(text) > width:
            bounds = sorted({0, len(text), *(edge for part in self._squeezed for edge in part)})
            pieces = {(first, last): text[first:last] for first, last in zip(bounds, bounds[1:], strict=False)}
            for part in self._squeezed:
                shown = "".join(pieces.values())
                if metrics.horizontalAdvance(shown) <= width:
                    break
                others = "".join(piece for key, piece in pieces.items() if key != part)
                room = width - metrics.horizontalAdvance(others)
                pieces[part] = metrics.elidedText(text[part[0]:part[1]], Qt.TextElideMode.ElideRight,
                                                  max(room, 0)) or "…"
            text = "".join(pieces.values())
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, width)

    def least_width(self) -> int:
        """The width that shows the text with only the parts named shortened (each to "…"), the rest whole."""
        text, metrics = self.text(), self.fontMetrics()
        for start, end in sorted(self._squeezed or [], reverse=True):
            text = text[:start] + "…" + text[end:]
        margins = self.contentsMargins()
        return metrics.horizontalAdvance(text) + margins.left() + margins.right()

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
