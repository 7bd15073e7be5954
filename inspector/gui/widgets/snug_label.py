"""A word-wrapped label exactly as high as its text at its width: a layout gives a wrapped QLabel the
height its size hint guesses for a narrower width (a one-line description got three lines' height,
its text floating in the middle of empty space)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget


class HeightFollowingLabel(QLabel):
    """A label that fits its height (:meth:`_fit`) whenever its text or its width changes."""

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._fit()
        QTimer.singleShot(0, self, self._fit)  # again once the layout has given the label its width

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._fit()

    def _fit(self) -> None:
        raise NotImplementedError


class SnugLabel(HeightFollowingLabel):
    """A wrapped plain-text label whose height follows its text and width (no empty lines)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def _fit(self) -> None:
        fixed = self.minimumHeight()
        # QLabel's heightForWidth is never below its minimum height: measured without it.
        self.setMinimumHeight(0)
        height = max(self.heightForWidth(max(self.width(), 1)), 0) if self.text() else 0
        self.setMinimumHeight(fixed)
        if height != fixed or self.maximumHeight() != height:
            self.setFixedHeight(height)
