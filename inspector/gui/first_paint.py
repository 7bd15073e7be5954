"""What the window's first paint does not wait for: a hook after that paint, and a tab built then.

The first paint is what a person waits for at start; a part that is not seen at once (the Runs
tab, the keyring's reads, the demo server's process) is made on the turn of the event loop after
it, or earlier when something asks for it.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from .language import tab_title_follows, translated_tab
from .widgets.tab_keys import focus_into
from .widgets.tab_stops import chain_after, stops_in


class AfterFirstPaint(QObject):
    """Calls ``then`` on the turn of the event loop after ``widget`` first painted."""

    def __init__(self, widget: QWidget, then: Callable[[], object]) -> None:
        super().__init__(widget)
        self._then = then
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self, self._then)  # not after the widget (and this filter) went
        return False


class DeferredTab:
    """A tab of ``tabs`` whose page ``build()`` makes when :meth:`page` is first called; until then
    an empty placeholder holds its place (and its title, which follows the language)."""

    def __init__(self, tabs: QTabWidget, title: Callable[[], str], build: Callable[[], QWidget]) -> None:
        self._tabs, self._title, self._build = tabs, title, build
        self._page: QWidget | None = None
        self._placeholder = QWidget()
        translated_tab(tabs, self._placeholder, title)

    @property
    def built(self) -> bool:
        return self._page is not None

    def page(self) -> QWidget:
        """The page, built (in the placeholder's place, shown if it was) the first time."""
        if self._page is None:
            tabs, page = self._tabs, self._build()
            stops = stops_in(page)  # in the order it was built, before it joins the window's chain
            self._page = page
            index = tabs.indexOf(self._placeholder)
            shown = tabs.currentIndex() == index
            focused = QApplication.focusWidget()
            had_focus = focused is self._placeholder or self._placeholder.isAncestorOf(focused)
            if had_focus:  # removed with the focus, it passed the focus on across the window (the + of Servers)
                focused.clearFocus()
            tabs.removeTab(index)
            tabs.insertTab(index, page, self._title())
            chain_after(tabs.tabBar(), stops)  # built last, yet reached right after its tab
            tab_title_follows(tabs, page, self._title)
            if shown:
                tabs.setCurrentIndex(index)
            if had_focus:
                focus_into(tabs)
            self._placeholder.deleteLater()
        return self._page


__all__ = ["AfterFirstPaint", "DeferredTab"]
