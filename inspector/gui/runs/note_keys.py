"""Notes from the keyboard: "Note on this run…" and "Note on this step…" in the File menu (beside
Export and Delete, where the actions on runs are), with their keys (Ctrl+Shift+N; Shift+F2, a
spreadsheet's key for a cell's note), and in the run list's and the timeline's context menus.

Each entry is enabled while the Runs tab is shown and its Note… button is (a run in the timeline, a
step in the detail). The dialog closed, the focus is back where it was (the timeline's row, the run
list, the search field).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu, QTabWidget

from inspector.i18n import _

from ..language import translated

if TYPE_CHECKING:
    from .tab import RunsTab

#: Note on this run…: Ctrl+Shift+N (as Export is Ctrl+Shift+E, Compare Ctrl+Shift+C).
RUN_NOTE_KEYS = QKeySequence("Ctrl+Shift+N")
#: Note on this step…: Shift+F2, a spreadsheet's key for the note of the chosen cell.
STEP_NOTE_KEYS = QKeySequence("Shift+F2")


class NoteKeys(QObject):
    """The two entries of ``menu`` (the window's File menu); the Runs tab, once built, is :meth:`attach`-ed."""

    def __init__(self, window: QMainWindow, menu: QMenu, tabs: QTabWidget) -> None:
        super().__init__(window)
        self._window, self._tabs = window, tabs
        self._tab: RunsTab | None = None
        self.run_action = self._action(menu, lambda: _("&Note on this run…"), RUN_NOTE_KEYS,
                                       lambda tab: tab.edit_run_note())
        self.step_action = self._action(menu, lambda: _("Note on this s&tep…"), STEP_NOTE_KEYS,
                                        lambda tab: tab.shown_step.edit_note())
        tabs.currentChanged.connect(lambda _index: self.update())
        self.update()

    def _action(self, menu: QMenu, text: Callable[[], str], keys: QKeySequence,
                write: Callable[[RunsTab], object]) -> QAction:
        action = translated(QAction(self._window), "setText", text)
        action.setShortcut(keys)
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(lambda: self._write(action, write))
        menu.addAction(action)
        return action

    def attach(self, tab: RunsTab) -> None:
        """The Runs tab is built: its Note… buttons say when the entries are enabled; the run list's
        context menu (Compare) offers the run's note, the timeline's the step's and the run's."""
        self._tab = tab
        for button in (tab.timeline_pane.note_button, tab.detail.note_button):
            button.installEventFilter(self)
        tab.run_view.addAction(self.run_action)  # its context menu shows its actions (CompareLauncher)
        tab.timeline_view.addActions([self.step_action, self.run_action])
        tab.timeline_view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.update()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.EnabledChange:
            self.update()
        return False

    def update(self) -> None:
        tab = self._tab
        shown = tab is not None and self._tabs.currentWidget() is tab
        self.run_action.setEnabled(shown and tab.timeline_pane.note_button.isEnabled())
        self.step_action.setEnabled(shown and tab.detail.note_button.isEnabled())

    def _write(self, action: QAction, write: Callable[[RunsTab], object]) -> None:
        """Open the note's dialog, when its entry is enabled (a key pressed while it is not does nothing).
        The focus is not moved here: Qt gives it back to the widget that had it as the dialog closes (from
        the menu bar too, whose keyboard mode held it while the File menu was open)."""
        self.update()  # a key may come before a queued change is seen
        if self._tab is not None and action.isEnabled():
            write(self._tab)


__all__ = ["RUN_NOTE_KEYS", "STEP_NOTE_KEYS", "NoteKeys"]
