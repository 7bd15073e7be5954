"""The window's link to the team's OpenTelemetry backend: the push worker that follows the setting,
and File → Open trace by id… (MainWindow only installs it)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal

from inspector.store.secrets import SecretKeeper

from .runs.push_service import PushService
from .team_settings import TeamSettings

if TYPE_CHECKING:
    from .main_window import MainWindow


class TeamBackend(QObject):
    """Starts the push worker once the window has painted, follows the setting, stops it on close."""

    #: The push setting read on the engine's worker (with the number of the change it follows).
    _read = Signal(object)

    def __init__(self, window: MainWindow, secrets: SecretKeeper) -> None:
        super().__init__(window)
        self.window = window
        self.team = TeamSettings(window.settings.qsettings, secrets)
        self.push = PushService(window.db_path)
        self._changes = 0
        self._stopped = False
        self._read.connect(self._apply, Qt.ConnectionType.QueuedConnection)
        # A run that ends is looked at at once rather than at the next poll.
        window.engine.submitted.connect(lambda task: task.finished.connect(lambda _outcome: self.push.wake()))

    def settings_changed(self) -> None:
        """Start, restart or stop the push worker as the settings now say. The push headers' secret
        values are read from the keyring on the engine's worker (it may wait on an unlock prompt)."""
        self._changes += 1
        team, change, read = self.team, self._changes, self._read

        async def setting() -> None:
            read.emit((change, await asyncio.to_thread(team.push_setting)))

        self.window.engine.spawn(setting)

    def _apply(self, read: tuple[int, object]) -> None:
        change, setting = read
        if change == self._changes and not self._stopped:  # a later change's reading is the one
            self.push.apply(setting)

    def open_trace_by_id(self) -> None:
        """Ask for a trace id and open it in the Runs tab."""
        from .runs.trace_by_id import TraceByIdDialog

        dialog = TraceByIdDialog(self.team, self.window)
        if dialog.exec() == TraceByIdDialog.DialogCode.Accepted:
            tab = self.window.runs_tab
            self.window.tabs.setCurrentWidget(tab)
            tab.transfers.open_trace_by_id(*dialog.chosen())

    def shut_down(self) -> None:
        self._stopped = True  # a reading that comes back after this starts nothing
        self.push.stop()


__all__ = ["TeamBackend"]
