"""The Servers panel's side of the keyring (:class:`~.window_secrets.WindowSecrets`): every configured
server's secrets read once the window has painted, the selected server spoken to once its secrets
are read, Edit… waiting for them, and what the keyring refused said in a box.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QMessageBox

from inspector.i18n import _
from inspector.i18n.entry_names import kept_name
from inspector.i18n.messages import translate
from inspector.mcp.messages import Message
from inspector.store import ServerRecord, StoreError
from inspector.store.keyring_words import READING, UNREADABLE
from inspector.store.secrets import SecretKeeper
from inspector.store.servers import kept_accounts

from .window_secrets import WindowSecrets

if TYPE_CHECKING:
    from .server_admin import ServerAdmin


class ServerSecrets(QObject):
    """The keyring as the Servers panel meets it; ``keeper`` is the registry's :class:`WindowSecrets`."""

    def __init__(self, admin: ServerAdmin, secrets: SecretKeeper) -> None:
        super().__init__(admin)
        self._admin = admin
        self.keeper = WindowSecrets(secrets, admin.engine.keyring, self._kept, self)
        self.keeper.refused.connect(self.say_refused)
        self.keeper.arrived.connect(self._arrived)
        self.keeper.slow.connect(self._slow)
        #: The box saying what the keyring last refused (a secret not kept, or not removed), while open.
        self.box: QMessageBox | None = None
        self._editing = False

    def _kept(self, url: str) -> tuple[str, set[str]]:
        """The server's name and the keyring entries its settings say are kept."""
        settings = self._admin.registry.settings(url)
        return (settings.name or url if settings is not None else url), kept_accounts(settings)

    def read_all(self) -> None:
        """The window has painted: read what the keyring keeps for every configured server, on the worker."""
        self.keeper.find_keyring()
        try:
            self.keeper.read(*self._admin.registry.configured_urls())
        except StoreError as exc:
            self._admin.say(str(exc))
        self.keeper.release()

    def say_refused(self, sentence: str) -> None:
        """The keyring did not keep or did not remove a secret (a server's, or one the settings or the
        Play tab keep): said in a box (the status line would cut the entries it names), not waited for."""
        if self._admin.closed:
            return
        self._admin.say(sentence)
        if self.box is not None:
            self.box.close()
        box = QMessageBox(QMessageBox.Icon.Warning, _("System keyring"), sentence, QMessageBox.StandardButton.Ok,
                          self._admin.parent())
        box.setTextFormat(Qt.TextFormat.PlainText)  # server names and the keyring's answer are not ours
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.finished.connect(lambda _result: setattr(self, "box", None) if self.box is box else None)
        self.box = box
        box.open()

    def _arrived(self, url: str) -> None:
        """A server's secrets were read: the selected one is spoken to with them (its tools listed)."""
        admin = self._admin
        admin.endpoints.forget(url)
        current = admin.current()
        if not admin.closed and current is not None and current.url == url:
            admin.reselect(current)

    def _slow(self, url: str) -> None:
        """A server's secrets are still being read after a while: the selected one says so now."""
        current = self._admin.current()
        if not self._admin.closed and current is not None and current.url == url:
            self._admin.reselect(current)

    def edit_when_read(self, url: str, edit: Callable[[ServerRecord], None]) -> None:
        """Edit… of a server whose secrets are not read yet: ``edit`` once they are (the keyring may
        wait on an unlock prompt), or why not said (a dialog without them would save them empty)."""
        admin = self._admin
        name = kept_name(self._kept(url)[0], url)  # the demo entry's in the window's language
        problem = self.keeper.unreadable(url)
        if problem is not None:
            admin.say(translate(Message(UNREADABLE, {"server": name, "problem": problem})))
            return
        if self._editing:
            return  # one Edit… waits; pressing it again does not queue another
        self._editing = True
        admin.say(translate(Message(READING, {"server": name})))

        def read() -> None:
            self._editing = False
            record = None if admin.closed else admin.registry.get(url)
            if record is not None:
                edit(record)

        self.keeper.when_read(url, read)


__all__ = ["ServerSecrets"]
