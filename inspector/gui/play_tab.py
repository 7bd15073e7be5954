"""The Play tab's place in the window: the tab beside Workbench and Runs, the Run menu's entries
(Play a run, Cancel the played run), Esc, Show in Runs, and the worker's end when the window closes.
The tab's page is built when it is first shown (the first paint does not wait for the agent layer).

Esc cancels what the tab in view shows: in the Play tab the played run, in the Workbench the
selected operation (each Cancel keeps its menu entry, without the key, while its tab is hidden). In
the Runs tab Esc cancels nothing: pressed there to leave a search field, it had cancelled an
operation out of sight."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

from inspector.i18n import _
from inspector.store import StoreError

from .first_paint import DeferredTab
from .help_menu import with_keys
from .language import translated
from .workbench.servers_model import server_label

if TYPE_CHECKING:
    from .play.room import PlayRoom


class PlayTab(QObject):
    """Wires a :class:`PlayRoom` into ``window`` (the main window) and its Run ``menu``."""

    #: A run started playing (True) or ended (False): the status bar counts it and names it.
    playing_changed = Signal(bool)

    def __init__(self, window: Any, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self._tab = DeferredTab(window.tabs, lambda: _("&Play"), self._build_room)
        self._placeholder = window.tabs.widget(window.tabs.count() - 1)
        menu.addSeparator()
        self.play_action = self._action(menu, lambda: _("&Play a run"), self.play,
                                        [QKeySequence("Ctrl+Shift+Return"), QKeySequence("Ctrl+Shift+Enter")])
        self.cancel_action = self._action(menu, lambda: _("Cancel the played r&un"), lambda: self.room.cancel(),
                                          [QKeySequence(Qt.Key.Key_Escape)])
        self.cancel_action.setEnabled(False)
        self._escape = list(window.cancel_action.shortcuts())
        window.tabs.currentChanged.connect(self._tab_shown)
        window.installEventFilter(self)
        self._route_escape()

    @property
    def built(self) -> bool:
        return self._tab.built

    @property
    def playing(self) -> bool:
        """A run plays (the tab was built and its run has not ended)."""
        return self._tab.built and self.room.playing

    @property
    def room(self) -> PlayRoom:
        return self._tab.page()  # type: ignore[return-value]

    def _build_room(self) -> PlayRoom:
        from .play.model_settings import ModelSettings
        from .play.room import PlayRoom

        room = PlayRoom(self.window.db_path, ModelSettings(self.window.settings.qsettings,
                                                           self.window.team.secrets.model),
                        self._servers, self._endpoint_for, answers=self.window.answers, log=self.window.engine.log)
        room.playing_changed.connect(lambda _playing: self._route_escape())
        room.playing_changed.connect(self.playing_changed)
        # A run played against a configured server counted its operations in the server's health: the
        # Servers panel reads it back when the run ends, as after the Workbench's operations.
        room.playing_changed.connect(lambda playing: None if playing else self.window.admin.health_changed())
        room.show_run_requested.connect(self.show_in_runs)
        room.installEventFilter(self)
        return room

    def _tab_shown(self, index: int) -> None:
        if not self._tab.built and self.window.tabs.widget(index) is self._placeholder:
            self._tab.page()  # the placeholder was chosen: the page takes its place, shown
        self._route_escape()

    def _action(self, menu: QMenu, text, slot, shortcuts: list[QKeySequence]) -> QAction:
        action = translated(QAction(self.window), "setText", with_keys(text, shortcuts))
        action.setShortcuts(shortcuts)
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.window.addAction(action)
        return action

    def play(self) -> None:
        """Run → Play a run: the Play tab comes forward and plays what it has chosen."""
        self.window.tab_keys.show(self.room)
        self.room.play()

    def show_in_runs(self, run_id: int, step_id: int | None) -> None:
        tab = self.window.runs_tab
        self.window.tabs.setCurrentWidget(tab)
        tab.reload()
        if tab.select_runs([run_id]) and step_id is not None:  # the step chosen in the Play list, its detail shown
            tab.timeline_pane.arrival.select_step_of(step_id)  # (a long run's once its span tree is laid out)

    # -- Esc, the servers, the end -------------------------------------------------------------------

    def _route_escape(self) -> None:
        """Esc belongs to the Play tab while it is shown (whatever else runs), to the workbench while
        it is shown, else to neither."""
        shown = self.built and self.room.isVisible()
        self.cancel_action.setEnabled(shown and self.room.playing)
        self.cancel_action.setShortcut(QKeySequence(Qt.Key.Key_Escape) if shown else QKeySequence())
        bench = self.window.tabs.currentWidget() is self.window.workbench
        self.window.cancel_action.setShortcuts(self._escape if bench else [])

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
        if self.built and watched is self.room and kind in (QEvent.Type.Show, QEvent.Type.Hide):
            self._route_escape()
            if kind == QEvent.Type.Show:
                self.room.choices.fill()  # servers added or renamed since
        elif watched is self.window and kind == QEvent.Type.Close and self.built:
            self.room.shut_down()  # before the window's own shut-down: the run ends cancelled, stored
        return False
