"""The View menu's parts for an audience: zoom for the whole window (Ctrl + / Ctrl − / Ctrl 0), full
screen (F11), and a presentation setting that hides the panes a demo does not need (the Servers
panel, the Server log, the status bar). The zoom is remembered between launches; the presentation
and full screen are not (a window that opens in either surprises). The Runs tab's timeline follows
its newest step while a run grows, unless the reader scrolled away (:class:`FollowNewest`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import QHeaderView, QMenu, QTableView, QTreeView, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_number

from .language import translated
from .widgets.follow import FollowNewest

#: The zoom steps, in per cent of the window's own font size.
ZOOM_STEPS = (50, 67, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300)
ZOOM_KEY = "view/zoom"
#: The widget property keeping a widget's own font size (a fixed-width editor) before the zoom.
_BASE_PT = "zoomBasePointSize"


class ViewMenu(QObject):
    """Zoom, full screen and presentation for ``window`` (the main window), in its View ``menu``."""

    def __init__(self, window: Any, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.zoom = 100
        self._base = QFont(window.font())
        self._hidden_for_presentation: list[QWidget] = []
        self.timeline_follower: FollowNewest | None = None
        menu.addSeparator()
        self.zoom_in_action = self._action(menu, lambda: _("Zoom &in"), lambda: self.step_zoom(1),
                                           [QKeySequence(QKeySequence.StandardKey.ZoomIn), QKeySequence("Ctrl+=")])
        self.zoom_out_action = self._action(menu, lambda: _("Zoom &out"), lambda: self.step_zoom(-1),
                                            [QKeySequence(QKeySequence.StandardKey.ZoomOut)])
        self.zoom_reset_action = self._action(menu, self._reset_text, lambda: self.set_zoom(100),
                                              [QKeySequence("Ctrl+0")])
        menu.addSeparator()
        self.full_screen_action = self._action(menu, lambda: _("&Full screen"), self.set_full_screen,
                                               [QKeySequence(Qt.Key.Key_F11)], checkable=True)
        self.presentation_action = self._action(menu, lambda: _("&Presentation (hide what a demo does not need)"),
                                                self.set_presentation, [QKeySequence("Ctrl+Shift+F11")],
                                                checkable=True)
        saved = window.settings.qsettings.value(ZOOM_KEY, 100)
        try:
            zoom = int(saved)
        except (TypeError, ValueError):
            zoom = 100
        if zoom != 100 and zoom in ZOOM_STEPS:
            self.set_zoom(zoom)
        window.tabs.currentChanged.connect(lambda _index: self._follow_timeline())

    def _action(self, menu: QMenu, text, slot, shortcuts: list[QKeySequence], *, checkable: bool = False) -> QAction:
        action = translated(QAction(self.window), "setText", text)
        action.setShortcuts(shortcuts)
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.setCheckable(checkable)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.window.addAction(action)  # its shortcut works wherever the focus is
        return action

    def _reset_text(self) -> str:
        return _("&Actual size ({percent} %)").format(percent=format_number(self.zoom))

    # -- zoom ----------------------------------------------------------------------------------------

    def step_zoom(self, direction: int) -> int:
        """One step bigger (``1``) or smaller (``-1``); returns the zoom in per cent."""
        steps = [step for step in ZOOM_STEPS if (step > self.zoom if direction > 0 else step < self.zoom)]
        if steps:
            self.set_zoom(steps[0] if direction > 0 else steps[-1])
        return self.zoom

    def set_zoom(self, percent: int) -> None:
        """Show the whole window at ``percent`` of its font size: texts, rows and bars grow together."""
        self.zoom = percent
        factor = percent / 100
        font = QFont(self._base)
        font.setPointSizeF(max(4.0, self._base.pointSizeF() * factor))
        self.window.setFont(font)
        for widget in self.window.findChildren(QWidget):
            self._zoom_own_font(widget, factor)
        for view in self.window.findChildren(QTableView) + self.window.findChildren(QTreeView):
            self._fit_rows(view)
        self.zoom_reset_action.setText(self._reset_text())
        self.zoom_in_action.setEnabled(percent < ZOOM_STEPS[-1])
        self.zoom_out_action.setEnabled(percent > ZOOM_STEPS[0])
        self.window.settings.qsettings.setValue(ZOOM_KEY, percent)

    def _zoom_own_font(self, widget: QWidget, factor: float) -> None:
        """A widget with a font of another family (a fixed-width editor) does not inherit the window's
        size: its own size is scaled from what it had before the first zoom."""
        if not widget.testAttribute(Qt.WidgetAttribute.WA_SetFont):
            return
        font = widget.font()
        if font.family() == self._base.family() and widget.property(_BASE_PT) is None:
            return
        base = widget.property(_BASE_PT)
        if base is None:
            base = font.pointSizeF()
            widget.setProperty(_BASE_PT, base)
        font.setPointSizeF(max(4.0, float(base) * factor))
        widget.setFont(font)

    @staticmethod
    def _fit_rows(view: QTableView | QTreeView) -> None:
        if isinstance(view, QTableView):
            rows = view.verticalHeader()
            if rows.sectionResizeMode(0) == QHeaderView.ResizeMode.Fixed or rows.count() == 0:
                rows.setDefaultSectionSize(max(rows.minimumSectionSize(), view.fontMetrics().height() + 6))

    # -- full screen and presentation ----------------------------------------------------------------

    def set_full_screen(self, on: bool) -> None:
        if on:
            self.window.showFullScreen()
        else:
            self.window.showNormal()
        self.full_screen_action.setChecked(on)

    def set_presentation(self, on: bool) -> None:
        """Hide the Servers panel, the Server log and the status bar (and bring them back as they were)."""
        window = self.window
        if on and not self._hidden_for_presentation:
            panes = [window.servers, window.log_dock, window.statusBar()]
            self._hidden_for_presentation = [pane for pane in panes if pane.isVisible()]
            for pane in self._hidden_for_presentation:
                pane.hide()
        elif not on:
            for pane in self._hidden_for_presentation:
                pane.show()
            self._hidden_for_presentation = []
        self.presentation_action.setChecked(on)

    @property
    def presenting(self) -> bool:
        return self.presentation_action.isChecked()

    # -- the timeline follows -------------------------------------------------------------------------

    def _follow_timeline(self) -> None:
        """Once the Runs tab exists, its timeline follows the newest step of a growing run."""
        if self.timeline_follower is None and self.window.tabs.currentWidget() is not None:
            tab = getattr(self.window, "_runs", None)
            if tab is not None and tab.built:
                self.timeline_follower = FollowNewest(self.window.runs_tab.timeline_view)
