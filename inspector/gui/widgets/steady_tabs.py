"""A tab widget that repaints itself when its layout changes, not whenever a page's layout does.

Qt's :class:`QTabWidget` lays itself out again on every layout request, and that repaints the
whole tab widget with every page widget in it. Layout requests climb: any layout that activates
tells its widget's parent to look again (Qt does not check whether the size hint changed), so a
label deep inside a page that gets another text ends in a repaint of every tab widget above it.
In the window that was the main tabs and the operation's detail: a Run press that changed the
result's sentence repainted the whole Workbench (about 1,000 × 600 pixels, 10 to 25 ms of the GUI
thread, measured with ``benchmarks/gui_window.py``) while the live bars waited.

:class:`SteadyTabs` lets a layout request through when what the tab widget's layout depends on
has changed (its size, its tab bar's size hints and visibility, its tabs, where they sit);
otherwise it only passes the request on to its parent, as Qt would, and repaints nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QTabWidget


class SteadyTabs(QTabWidget):
    """A :class:`QTabWidget` whose unchanged layout is not laid out (and repainted) again."""

    _laid_out: tuple[object, ...] | None = None

    def _layout_key(self) -> tuple[object, ...]:
        bar = self.tabBar()
        corners = tuple(None if widget is None else (widget.isVisibleTo(self), widget.sizeHint().toTuple())
                        for widget in (self.cornerWidget(Qt.Corner.TopLeftCorner),
                                       self.cornerWidget(Qt.Corner.TopRightCorner)))
        return (self.size().toTuple(), bar.sizeHint().toTuple(), bar.minimumSizeHint().toTuple(),
                bar.isVisibleTo(self), self.count(), self.tabPosition(), self.documentMode(), corners)

    def setTabVisible(self, index: int, visible: bool) -> None:  # noqa: N802 - Qt's name
        """Only a change: Qt's tab bar, told a tab's visibility as it is, forgets a layout it still
        owes (tab names changed while it was hidden, by a switch of language, kept the old widths)."""
        if self.isTabVisible(index) != visible:
            super().setTabVisible(index, visible)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            key = self._layout_key()
            if key == self._laid_out:
                self.updateGeometry()  # the parent may still want to look again (our size hint)
                return True
            self._laid_out = key
        return super().event(event)


__all__ = ["SteadyTabs"]
