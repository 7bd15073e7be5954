"""A list that keeps its current row in view when it gets shorter: a dock growing under it (the
Server log's first lines), the window made smaller. A row the reader had in view stays there; a row
they had scrolled away from is left where it is."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QAbstractItemView


class KeepCurrentInView(QObject):
    """Scrolls ``view`` just enough to show its current row again after its viewport shrank."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and isinstance(event, QResizeEvent):
            shrunk = event.size().height() < event.oldSize().height()
            current = self.view.currentIndex()
            if shrunk and current.isValid():
                row = self.view.visualRect(current)
                was_shown = row.isValid() and row.top() >= 0 and row.bottom() <= event.oldSize().height()
                if was_shown and row.bottom() > event.size().height():
                    self.view.scrollTo(current, QAbstractItemView.ScrollHint.EnsureVisible)
        return False
