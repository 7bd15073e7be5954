"""The window's link to the team's OpenTelemetry backend: the push worker that follows the setting,
and File → Open trace by id… (MainWindow only installs it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from inspector.store.secrets import SecretKeeper

from .runs.push_service import PushService
from .team_settings import TeamSettings

if TYPE_CHECKING:
    from .main_window import MainWindow


class TeamBackend(QObject):
    """Starts the push worker once the window has painted, follows the setting, stops it on close."""

    def __init__(self, window: MainWindow, secrets: SecretKeeper) -> None:
        super().__init__(window)
        self.window = window
        self.team = TeamSettings(window.settings.qsettings, secrets)
        self.push = PushService(window.db_path)
        # A run that ends is looked at at once rather than at the next poll.
        window.engine.submitted.connect(lambda task: task.finished.connect(lambda _outcome: self.push.wake()))

    def settings_changed(self) -> None:
        """Start, restart or stop the push worker as the settings now say (the keyring is read here)."""
        self.push.apply(self.team.push_setting())

    def open_trace_by_id(self) -> None:
        """Ask for a trace id and open it in the Runs tab."""
        from .runs.trace_by_id import TraceByIdDialog

        dialog = TraceByIdDialog(self.team, self.window)
        if dialog.exec() == TraceByIdDialog.DialogCode.Accepted:
            tab = self.window.runs_tab
            self.window.tabs.setCurrentWidget(tab)
            tab.transfers.open_trace_by_id(*dialog.chosen())

    def shut_down(self) -> None:
        self.push.stop()


__all__ = ["TeamBackend"]
