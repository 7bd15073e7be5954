"""A list that follows its newest row: while the view is scrolled to the end, rows added at the end
keep it there; once the reader scrolls away, it stays where they put it (until they come back)."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QAbstractItemView

#: How close to the end (pixels, or rows in item scrolling) still counts as "at the end".
SLACK = 4


class FollowNewest(QObject):
    """Keeps ``view`` at its last row as rows arrive, unless the reader scrolled away from it."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view)
        self.view = view
        self.following = True
        bar = view.verticalScrollBar()
        bar.valueChanged.connect(self._moved)
        bar.rangeChanged.connect(self._grew)

    def _moved(self, value: int) -> None:
        # Only a change of the value says where the reader is; a longer range (new rows) does not.
        self.following = value >= self.view.verticalScrollBar().maximum() - SLACK

    def _grew(self, _minimum: int, maximum: int) -> None:
        if self.following:
            self.view.verticalScrollBar().setValue(maximum)  # at the end: still following

    def follow(self) -> None:
        """Go to the end and follow again (a new run shown)."""
        self.following = True
        self.view.scrollToBottom()
