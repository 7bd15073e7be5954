"""A pane that scrolls up and down when the window is too low for it, and never sideways.

A pane whose least height is several lines of controls (the Runs tab's step detail) would otherwise
hold the whole window that high: at 200 % scaling on a 1,920 by 1,080 screen (960 by 540 logical
pixels) the window grew past the screen's bottom once a step was shown. Wrapped in this, the pane
keeps its least width, asks for only a few lines of height, and shows a scroll bar where it is cut."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

#: The least height asked for, in lines of the pane's font: its heading and a line under it, the rest a
#: scroll away (eight held the Runs tab's run list and timeline at one row each at 16 points on a
#: 1,024 by 600 screen).
LEAST_LINES = 2


class UpDownScroll(QScrollArea):
    """Holds ``pane`` at its own width; scrolls it up and down when it gets less than its least height."""

    #: The height that shows the pane whole changed (other content): its owner may give it more room.
    whole_changed = Signal()
    #: The pane's least width changed (more tabs, longer names): its owner may arrange the panes anew.
    least_width_changed = Signal()

    def __init__(self, pane: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Sized here, not by QScrollArea's "resizable" (that makes a pane with wrapped labels as high as
        # its preferred height for its width, so it always scrolled): as high as the view, or its least height.
        self.setWidget(pane)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop without a name: the pane's controls are the stops
        self._whole = self.whole_height()
        self._least_width = pane.minimumSizeHint().width()
        self._scrolls = False
        pane.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            whole = self.whole_height()
            self._fit_pane()
            if whole != self._whole:
                self._whole = whole
                self.whole_changed.emit()
            least = watched.minimumSizeHint().width()
            if least != self._least_width:
                self._least_width = least
                self.updateGeometry()
                self.least_width_changed.emit()
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit_pane()

    def _fit_pane(self) -> None:
        pane = self.widget()
        if pane is None:
            return
        whole = self.whole_height()
        scrolls = whole > self.height()
        if scrolls != self._scrolls:
            self._scrolls = scrolls
            self.updateGeometry()  # the bar's width is asked for while it is shown
        pane.resize(max(self.width() - self._bar_width(), pane.minimumSizeHint().width()), max(self.height(), whole))

    def whole_height(self) -> int:
        """The height that shows the pane without scrolling (its least height)."""
        pane = self.widget()
        return pane.minimumSizeHint().height() if pane is not None else 0

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        pane = self.widget()
        if pane is None:
            return super().minimumSizeHint()
        least = pane.minimumSizeHint()
        lines = LEAST_LINES * pane.fontMetrics().lineSpacing()
        return QSize(least.width() + self._bar_width(), min(least.height(), lines))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        pane = self.widget()
        if pane is None:
            return super().sizeHint()
        wanted = pane.sizeHint()
        return QSize(wanted.width() + self._bar_width(), wanted.height())

    def _bar_width(self) -> int:
        """The scroll bar's width while the pane scrolls (none while it is shown whole: the room is the pane's)."""
        return self.verticalScrollBar().sizeHint().width() if self._scrolls else 0


__all__ = ["LEAST_LINES", "UpDownScroll"]
