"""The keys that choose a tab, and where they leave the keyboard's focus: in the tab chosen.

Qt chooses a tab with Ctrl+Tab inside a pane with tabs (the innermost one the focus is in; in the
Servers panel and the Server log, outside every such pane, it does nothing) and with a tab's
Alt+letter; it moves the focus into the new tab only when it was in the old one, so Alt+U pressed in
the Servers panel showed the Runs tab and left the focus, and a screen reader, in the panel.
:class:`TabKeys` adds Ctrl+PgDown and Ctrl+PgUp (the next and previous tab of the innermost pane the
focus is in, as Ctrl+Tab; outside every pane with tabs, the window's tabs, which Ctrl+Tab leaves) and
takes the focus into the tab an Alt+letter, a menu's entry or its shortcut chose. :func:`focus_into`
is also what a tab built when first shown (first_paint.DeferredTab) uses, whose placeholder had the
focus.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget

from inspector.i18n import _

from ..language import translated


def focus_into(tabs: QTabWidget) -> None:
    """Give the focus to the shown page of ``tabs``: where it last was there, else the page's first
    control, else the tab bar."""
    page = tabs.currentWidget()
    if page is None:
        return
    last = page.focusWidget()
    if _holds(page, last) and last.isVisible() and last.isEnabled():
        target = last
    else:
        target = _first_stop(tabs.tabBar(), page) or tabs.tabBar()
    # A shortcut's reason: Qt marks the focus as moved by the keyboard, and a field or a button shows
    # it (with Tab's reason, outside a Tab key's own event, the combo box chosen showed no focus).
    target.setFocus(Qt.FocusReason.ShortcutFocusReason)


def _first_stop(bar: QWidget, page: QWidget) -> QWidget | None:
    """The control of ``page`` that Tab reaches first after ``bar``."""
    widget = bar.nextInFocusChain()
    while widget is not bar:
        if _holds(page, widget) and widget.focusPolicy() & Qt.FocusPolicy.TabFocus \
                and widget.isVisible() and widget.isEnabled() and widget.focusProxy() is None:
            return widget
        widget = widget.nextInFocusChain()
    return None


def _holds(page: QWidget, widget: QWidget | None) -> bool:
    return widget is not None and (widget is page or page.isAncestorOf(widget))


def _pane_of(widget: QWidget | None) -> QTabWidget | None:
    """The innermost tab widget with more than one tab to choose that holds ``widget``."""
    while widget is not None and not widget.isWindow():
        if isinstance(widget, QTabWidget) and len(_choosable(widget)) > 1:
            return widget
        widget = widget.parentWidget()
    return None


def _choosable(tabs: QTabWidget) -> list[int]:
    return [i for i in range(tabs.count()) if tabs.isTabVisible(i) and tabs.isTabEnabled(i)]


class TabKeys(QObject):
    """Ctrl+PgDown / Ctrl+PgUp in ``window``, and the focus taken into a tab of ``main`` (the
    window's tabs) that its Alt+letter or :meth:`show` chose."""

    def __init__(self, window: QWidget, main: QTabWidget) -> None:
        super().__init__(window)
        self.window, self.main = window, main
        for keys, step, said in ((QKeySequence("Ctrl+PgDown"), 1, lambda: _("Next tab of the pane in focus")),
                                 (QKeySequence("Ctrl+PgUp"), -1, lambda: _("Previous tab of the pane in focus"))):
            shortcut = QShortcut(keys, window)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(lambda step=step: self.step(step))
            translated(shortcut, "setWhatsThis", said)
        main.tabBar().installEventFilter(self)

    def show(self, page: QWidget) -> None:
        """Show ``page`` of the window's tabs for a menu's entry or a shortcut pressed anywhere (File ›
        Open trace…, Run › Play a run), with the focus in it."""
        self.main.setCurrentWidget(page)
        if not _holds(self.main, QApplication.focusWidget()):
            focus_into(self.main)

    def step(self, by: int) -> None:
        """Choose the tab ``by`` places on (round the end) of the pane the focus is in."""
        tabs = _pane_of(QApplication.focusWidget()) or self.main
        shown = _choosable(tabs)
        if len(shown) < 2:
            return
        place = shown.index(tabs.currentIndex()) if tabs.currentIndex() in shown else 0
        tabs.setCurrentIndex(shown[(place + by) % len(shown)])
        if not _holds(tabs, QApplication.focusWidget()):  # on the tab bar it stays, as with arrows
            focus_into(tabs)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.main.tabBar() and event.type() == QEvent.Type.Shortcut:
            handled = watched.event(event)  # the tab's Alt+letter: Qt shows the tab
            if handled and not _holds(self.main, QApplication.focusWidget()):
                focus_into(self.main)
            return handled
        return False


__all__ = ["TabKeys", "focus_into"]
