"""Tabs whose names all show in the room their tab widget has, without scroll arrows.

Qt's tab bar, wider than its room, hides tabs behind two arrow buttons (a name is cut at the edge and
the rest cannot be seen without clicking through); told not to, it shrinks every tab by the same
amount, so "Result" is cut to "R…" as soon as "Arguments" is too long. :class:`FittedTabBar` first
takes the room from the space around the names (down to :data:`LEAST_PADDING_PX` a tab), then from
the longest names only, which end in "…" and show whole in their tab's tooltip.

:class:`FittedTabs` asks for the width that shows every shown tab's name whole (in the least space),
in the language of the moment: a pane that cannot give it that much puts it elsewhere (the Runs tab
puts its step detail under the timeline). Squeezed below it all the same, the names are cut as above.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QProxyStyle, QStyle, QTabBar, QToolTip, QWidget

from .steady_tabs import SteadyTabs

#: The least space around a tab's name, both sides together (Qt's styles give it about 24 px).
LEAST_PADDING_PX = 8
_PADDING = QStyle.PixelMetric.PM_TabBarTabHSpace


def fitting(names: list[int], room: int, natural: int) -> tuple[int, int]:
    """``(padding, widest)`` for tabs whose names are ``names`` px wide in ``room`` px: the space
    around each name (at most ``natural``) and the widest a tab may be (0: as wide as it likes)."""
    count = len(names)
    if not count or room <= 0 or sum(names) + count * natural <= room:
        return natural, 0
    padding = min(natural, max(LEAST_PADDING_PX, (room - sum(names)) // count))
    padding -= padding % 2  # the same on both sides
    if sum(names) + count * padding <= room:
        return padding, 0
    # The shorter names keep their width; the longer ones share what is left alike.
    left = room
    for done, width in enumerate(sorted(name + padding for name in names)):
        share = left // (count - done)
        if width > share:
            return padding, max(share, LEAST_PADDING_PX + 1)
        left -= width
    return padding, 0


class _Padding(QProxyStyle):
    """The application's style, with the space around a tab's name that the bar chose."""

    def __init__(self) -> None:
        super().__init__()
        self.padding: int | None = None  # None: the style's own

    def pixelMetric(self, metric, option=None, widget=None) -> int:  # noqa: N802 - Qt's name
        if metric == _PADDING and self.padding is not None:
            return self.padding
        return super().pixelMetric(metric, option, widget)


class FittedTabBar(QTabBar):
    """A tab bar that fits its visible tabs into :attr:`room` (set by :class:`FittedTabs`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._style = _Padding()
        self.setStyle(self._style)
        self.natural = self._style.pixelMetric(_PADDING, None, self)
        self.setUsesScrollButtons(False)
        self.setElideMode(Qt.TextElideMode.ElideRight)
        #: The width the tabs may take (0: not known yet); the widest a tab may be (0: any).
        self.room = 0
        self.widest = 0

    def padding(self) -> int:
        """The space around each tab's name now (both sides together)."""
        return self.natural if self._style.padding is None else self._style.padding

    def fit(self, room: int) -> None:
        """Choose the padding and the widest tab for ``room`` px; lay the tabs out again if they change."""
        self.room = room
        shown = [index for index in range(self.count()) if self.isTabVisible(index)]
        names = [super(FittedTabBar, self).tabSizeHint(index).width() - self.padding() for index in shown]
        padding, widest = fitting(names, room, self.natural)
        if (padding, widest) != (self.padding(), self.widest):
            self._style.padding, self.widest = padding, widest
            self.setIconSize(self.iconSize())  # marks the tabs' layout as stale (Qt has no other call for it)

    def whole_names_width(self) -> int:
        """The width that shows every shown tab's name whole, in the least space around each."""
        return sum(super(FittedTabBar, self).tabSizeHint(index).width() - self.padding() + LEAST_PADDING_PX
                   for index in range(self.count()) if self.isTabVisible(index))

    def is_cut(self, index: int) -> bool:
        """Whether tab ``index`` shows its name cut (ending in "…")."""
        return bool(self.widest) and super().tabSizeHint(index).width() > self.widest

    def tabSizeHint(self, index: int) -> QSize:  # noqa: N802 - Qt's name
        size = super().tabSizeHint(index)
        if self.widest and size.width() > self.widest:
            size.setWidth(self.widest)
        return size

    def minimumTabSizeHint(self, index: int) -> QSize:  # noqa: N802 - Qt's name
        # Two letters and "…" in the least padding, whatever the room is now: the tab widget's least
        # width does not follow its width.
        text = self.tabText(index)
        shown = text if len(text) <= 3 else text[:2] + "…"
        size = super().tabSizeHint(index)
        size.setWidth(min(size.width() - self.padding(), self.fontMetrics().horizontalAdvance(shown))
                      + LEAST_PADDING_PX)
        return size

    def tabLayoutChange(self) -> None:  # noqa: N802 - Qt's name
        # A name or a tab shown or hidden: fit again (a change lays the tabs out once more).
        super().tabLayoutChange()
        if self.room:
            self.fit(self.room)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip:
            index = self.tabAt(event.pos())
            if index >= 0 and not self.tabToolTip(index) and self.is_cut(index):
                QToolTip.showText(event.globalPos(), self.tabText(index), self, self.tabRect(index))
                return True
        return super().event(event)


class FittedTabs(SteadyTabs):
    """A :class:`SteadyTabs` whose tab bar is a :class:`FittedTabBar` fitted to its width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bar = FittedTabBar()
        self.setTabBar(self.bar)

    def _corners(self) -> list[QWidget]:
        return [widget for widget in (self.cornerWidget(Qt.Corner.TopLeftCorner),
                                      self.cornerWidget(Qt.Corner.TopRightCorner))
                if widget is not None and widget.isVisibleTo(self)]

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # Every name whole (Qt's own least width is two letters and "…" a tab).
        size = super().minimumSizeHint()
        corners = sum(widget.minimumSizeHint().width() for widget in self._corners())
        size.setWidth(max(size.width(), self.bar.whole_names_width() + corners))
        return size

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        self.bar.fit(event.size().width() - sum(widget.width() for widget in self._corners()))
        super().resizeEvent(event)


__all__ = ["LEAST_PADDING_PX", "FittedTabBar", "FittedTabs", "fitting"]
