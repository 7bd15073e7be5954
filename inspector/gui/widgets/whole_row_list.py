"""A list of word-wrapped rows that is never lower than its tallest row, so a row is always seen whole.

At 16 pt the Servers panel's list shrank to three lines where the window was low (the panel's lines
below it took the rest) while an entry wraps onto four ("A server with a long / name · stateless /
1 ok · 0 failed · / 0 cancelled"): its last line was under the list's bottom edge, and scrolling a
row that does not fit showed no more of it. Its least height is now its tallest row's."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QListView, QWidget


class WholeRowList(QListView):
    """A :class:`QListView` whose least height holds its tallest row (at the width it has now)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tallest = 0

    def tallest_row(self) -> int:
        """The tallest row's height as the list lays its rows out now (0 without rows)."""
        model = self.model()
        if model is None:
            return 0
        return max((self.rectForIndex(model.index(row, 0, self.rootIndex())).height()
                    for row in range(model.rowCount(self.rootIndex()))), default=0)

    def updateGeometries(self) -> None:  # noqa: N802 - Qt's name: called when the rows were laid out
        super().updateGeometries()
        tallest = self.tallest_row()
        if tallest != self._tallest:  # rows or words changed, or they wrap anew: another least height
            self._tallest = tallest
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        least = super().minimumSizeHint()
        return QSize(least.width(), max(least.height(), self._tallest + 2 * self.frameWidth()))


__all__ = ["WholeRowList"]
