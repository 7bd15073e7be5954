"""A list that follows its newest row: rows added at the end while the view is scrolled to its end
keep it there; once the reader scrolls away, it stays where they put it (until they come back).
Only rows *added* move it: a list shown afresh (a reset) starts where the view puts it."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QObject, QTimer
from PySide6.QtWidgets import QAbstractItemView

#: How close to the end (pixels, or rows in item scrolling) still counts as "at the end".
SLACK = 4


class FollowNewest(QObject):
    """Keeps ``view`` at its last row as rows arrive, unless the reader scrolled away from it."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        self._follow_next = False
        self._model = None
        self._watch(view.model())

    def _watch(self, model) -> None:
        if model is None or model is self._model:
            return
        self._model = model
        model.rowsAboutToBeInserted.connect(self._before)
        model.rowsInserted.connect(self._after)

    @property
    def at_end(self) -> bool:
        bar = self.view.verticalScrollBar()
        return bar.value() >= bar.maximum() - SLACK

    def _before(self, parent: QModelIndex, first: int, _last: int) -> None:
        # Where the reader is now decides: at the end (or nothing to scroll yet), the new rows are followed.
        self._follow_next = not parent.isValid() and self.at_end

    def _after(self, parent: QModelIndex, _first: int, _last: int) -> None:
        if self._follow_next:
            self._follow_next = False
            # The view lays the new rows out at its next turn; the end is known after that.
            QTimer.singleShot(0, self._to_end)

    def _to_end(self) -> None:
        self.view.scrollToBottom()

    def follow(self) -> None:
        """Go to the end now (a new run shown)."""
        self.view.scrollToBottom()

    @property
    def following(self) -> bool:
        """Whether rows added now would be followed (the view is at its end)."""
        return self.at_end
