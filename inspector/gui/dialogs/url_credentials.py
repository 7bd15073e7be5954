"""A user name and password typed or pasted into a server's URL field (``http://user:pw@host/mcp``)
move into a secret ``Authorization`` header row, shown as dots; the field then shows the address
without them. A header of that name that already holds a value is never overwritten: they wait
out of sight, OK is refused, and the dialog says what to do to keep which."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.mcp.address_credentials import AUTHORIZATION, basic_authorization
from inspector.mcp.server import two_servers
from inspector.mcp.user_info import without_user_info

from ..language import translated
from ..widgets.hints import mark_hint
from .secret_row import SecretRow


class UrlCredentials:
    """Watches ``url``: once it is left (or the dialog checks it), its credentials become a header row."""

    def __init__(self, url: QLineEdit, rows: Callable[[], Sequence[SecretRow]],
                 add_row: Callable[[str, str, bool], SecretRow], say: Callable[[str], None]) -> None:
        self.url, self._rows, self._add_row, self._say = url, rows, add_row, say
        #: True once credentials were moved (the note saying so stays shown).
        self.moved = False
        #: The ``Authorization`` value taken out of the address while a header of that name holds one.
        self.waiting: str | None = None
        self.note = translated(QLabel(), "setText", lambda: _(
            "The user name and password were taken out of the address: they are kept as the secret "
            "Authorization header below."))
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        mark_hint(self.note)
        self.note.hide()
        url.editingFinished.connect(self.move)
        url.textEdited.connect(self._forget)  # the address typed again: what waited is dropped

    def move(self) -> bool:
        """Move the address's user name and password, if it has any, into the Authorization row;
        False (after saying why) when that row already holds a value: they then wait out of sight, or when the
        address names two servers (its password may hold "@" and "/" as typed): it stays as typed."""
        text = self.url.text().strip()
        if (two := two_servers(text)) is not None:
            self._say(_("{problem}.").format(problem=translate(two)))
            return False
        value = basic_authorization(text) or self.waiting
        if value is None:
            return True
        self.url.setText(without_user_info(text))
        named = [row for row in self._rows() if row.name.text().strip().lower() == AUTHORIZATION.lower()]
        if any(row.value.text().strip() for row in named):
            self.waiting = value
            self._say(_("The address held a user name and password, but this server has an Authorization header "
                        "already. To use them, remove that header; to keep it, change the address (they are then "
                        "forgotten)."))
            return False
        row = named[0] if named else self._add_row(AUTHORIZATION, "", True)
        row.secret.setChecked(True)
        row.value.setText(value)
        self.waiting, self.moved = None, True
        self.note.show()
        return True

    def _forget(self) -> None:
        self.waiting = None


__all__ = ["UrlCredentials"]
