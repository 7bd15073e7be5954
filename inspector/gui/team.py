"""The window's link to the team's OpenTelemetry backend: the push worker that follows the setting,
and File → Open trace by id… (MainWindow only installs it)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject

from inspector.i18n import _, ngettext
from inspector.i18n.messages import Message, translate
from inspector.store.keyring_words import PUSH_UNREADABLE, TRACE_QUERY_KEY
from inspector.store.secrets import SecretKeeper

from .runs.push_service import PushService
from .settings_secrets import SettingsSecrets
from .team_query_move import QueryMove
from .team_settings import TeamSettings

if TYPE_CHECKING:
    from .main_window import MainWindow


class TeamBackend(QObject):
    """Starts the push worker once the window has painted, follows the setting, stops it on close."""

    def __init__(self, window: MainWindow, secrets: SecretKeeper) -> None:
        super().__init__(window)
        self.window = window
        #: The keyring's side of the settings (the push headers' secrets, the Play tab's model keys),
        #: asked on the keyring's line; what it refuses is said in the window's keyring box.
        self.secrets = SettingsSecrets(secrets, window.engine.keyring, window.settings.qsettings,
                                       lambda sentence: window.admin.keyring.say_refused(sentence), self)
        self._secrets = self.secrets.push
        self.team = TeamSettings(window.settings.qsettings, self._secrets)
        #: An address an earlier version saved with its query: the query goes to the keyring when first read.
        self._query_move = QueryMove(TeamSettings(window.settings.qsettings, secrets), secrets, window.engine.keyring,
                                     self)
        self.push = PushService(window.db_path)
        self._changes = 0
        self._stopped = False
        # A run that ends is looked at at once rather than at the next poll.
        window.engine.submitted.connect(lambda task: task.finished.connect(lambda _outcome: self.push.wake()))

    def settings_changed(self) -> None:
        """Start, restart or stop the push worker as the settings now say, once the push headers'
        secret values are read from the keyring (on its line: it may wait on an unlock prompt)."""
        self._query_move.start_service()  # the trace query service's, beside it: nothing waits for it
        if self._query_move.start(self.settings_changed):  # read again once it is moved, or not
            return
        self._changes += 1
        change, key = self._changes, self.team.push_key
        self._secrets.read(key, retry=True)  # the keyring perhaps unlocked since it refused
        self._secrets.when_read(key, lambda: self._apply(change, key))

    def _apply(self, change: int, key: str) -> None:
        if change != self._changes or self._stopped:  # a later change's reading is the one
            return
        problem = self._secrets.unreadable(key)
        if problem is not None:  # not pushed without its headers (the collector would refuse every run)
            self.window.admin.keyring.say_refused(translate(Message(PUSH_UNREADABLE, {
                "server": self.team.push_address, "problem": problem})))
            return
        setting = self.team.push_setting()
        secrets = self.team.secret_names()
        missing = sorted(name for name, value in setting.headers.items() if name in secrets and not value)
        if setting.enabled and missing:  # sent empty, the collector would refuse every run, for good
            self.window.admin.keyring.say_refused(ngettext(
                "No run is sent to the team's collector {server}: the value of its secret header {names} is not "
                "kept (without a system keyring, it is kept only until Run Inspector quits). Type it again in "
                "File › Settings… (Team backend).",
                "No run is sent to the team's collector {server}: the values of its secret headers {names} are not "
                "kept (without a system keyring, they are kept only until Run Inspector quits). Type them again in "
                "File › Settings… (Team backend).",
                len(missing)).format(server=self.team.push_address, names=", ".join(missing)))
            setting = replace(setting, enabled=False)
        elif setting.enabled and self.team.push_query_kept and not self.team.push_query():  # sent without its key
            self.window.admin.keyring.say_refused(_(
                "No run is sent to the team's collector {server}: the query of its address is not kept (without a "
                "system keyring, it is kept only until Run Inspector quits). Type the address with its query again "
                "in File › Settings… (Team backend).").format(server=self.team.push_address))
            setting = replace(setting, enabled=False)
        self.push.apply(setting)

    def open_trace_by_id(self) -> None:
        """Ask for a trace id and open it in the Runs tab."""
        from .runs.trace_by_id import TraceByIdDialog

        self._secrets.read(TRACE_QUERY_KEY)  # the address's secret query, if one is kept, while the id is typed
        dialog = TraceByIdDialog(self.team, self.window)
        if dialog.exec() == TraceByIdDialog.DialogCode.Accepted:
            tab = self.window.runs_tab
            self.window.tabs.setCurrentWidget(tab)
            self._secrets.when_read(TRACE_QUERY_KEY, lambda: tab.transfers.open_trace_by_id(*dialog.chosen()))

    def shut_down(self) -> None:
        self._stopped = True  # a reading that comes back after this starts nothing
        self.push.stop()


__all__ = ["TeamBackend"]
