"""The Play tab's place in the window: the tab beside Workbench and Runs, the Run menu's entries
(Play a run, Cancel the played run), Esc, Show in Runs, and the worker's end when the window closes.

Esc cancels what the tab in view shows: while the Play tab is shown, the played run (the
workbench's Cancel keeps its menu entry, without the key); elsewhere the selected operation."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from inspector.i18n import _
from inspector.store import StoreError

from .language import translated, translated_tab
from .play.model_settings import ModelSettings
from .play.room import PlayRoom
from .workbench.servers_model import server_label


class PlayTab(QObject):
    """Wires a :class:`PlayRoom` into ``window`` (the main window) and its Run ``menu``."""

    def __init__(self, window: Any, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self.room = PlayRoom(window.db_path, ModelSettings(window.settings.qsettings, window.team.team.secrets),
                             self._servers, self._endpoint_for)
        translated_tab(window.tabs, self.room, lambda: _("&Play"))
        menu.addSeparator()
        self.play_action = self._action(menu, lambda: _("&Play a run"), self.play,
                                        [QKeySequence("Ctrl+Shift+Return"), QKeySequence("Ctrl+Shift+Enter")])
        self.cancel_action = self._action(menu, lambda: _("Cancel the played r&un"), self.room.cancel,
                                          [QKeySequence(Qt.Key.Key_Escape)])
        self.cancel_action.setEnabled(False)
        self._escape = list(window.cancel_action.shortcuts())
        self.room.playing_changed.connect(lambda _playing: self._route_escape())
        self.room.show_run_requested.connect(self.show_in_runs)
        self.room.installEventFilter(self)
        window.installEventFilter(self)
        self._route_escape()

    def _action(self, menu: QMenu, text, slot, shortcuts: list[QKeySequence]) -> QAction:
        action = translated(QAction(self.window), "setText", text)
        action.setShortcuts(shortcuts)
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.window.addAction(action)
        return action

    def play(self) -> None:
        """Run → Play a run: the Play tab comes forward and plays what it has chosen."""
        self.window.tabs.setCurrentWidget(self.room)
        self.room.play()

    def show_in_runs(self, run_id: int) -> None:
        tab = self.window.runs_tab
        self.window.tabs.setCurrentWidget(tab)
        tab.reload()
        tab.select_runs([run_id])

    # -- Esc, the servers, the end -------------------------------------------------------------------

    def _route_escape(self) -> None:
        """Esc belongs to the Play tab while it is shown (whatever else runs), else to the workbench."""
        shown = self.room.isVisible()
        self.cancel_action.setEnabled(shown and self.room.playing)
        self.cancel_action.setShortcut(QKeySequence(Qt.Key.Key_Escape) if shown else QKeySequence())
        self.window.cancel_action.setShortcuts([] if shown else self._escape)

    def _servers(self) -> list[tuple[str, str]]:
        if getattr(self.window, "_closed", False):
            return []  # the store is closed (a language switch may still reach a window shut down)
        try:
            return [(record.url, server_label(record)) for record in self.window.admin.registry.all()]
        except StoreError:
            return []

    def _endpoint_for(self, url: str) -> Any:
        record = next((record for record in self.window.admin.registry.all() if record.url == url), None)
        return self.window.admin.endpoint_or_say(record) if record is not None else None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        kind = event.type()
        if watched is self.room and kind in (QEvent.Type.Show, QEvent.Type.Hide):
            self._route_escape()
            if kind == QEvent.Type.Show:
                self.room.choices.fill()  # servers added or renamed since
        elif watched is self.window and kind == QEvent.Type.Close:
            self.room.shut_down()  # before the window's own shut-down: the run ends cancelled, stored
        return False
