"""A user name and password typed or pasted into a server's URL field (``http://user:pw@host/mcp``)
move into a secret ``Authorization`` header row, shown as dots; the field then shows the address
without them. A header of that name that already holds a value is never overwritten: the dialog
says which to remove instead."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit

from inspector.i18n import _
from inspector.mcp.address_credentials import AUTHORIZATION, basic_authorization
from inspector.mcp.server import without_user_info

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
        self.note = translated(QLabel(), "setText", lambda: _(
            "The user name and password were taken out of the address: they are kept as the secret "
            "Authorization header below."))
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setWordWrap(True)
        mark_hint(self.note)
        self.note.hide()
        url.editingFinished.connect(self.move)

    def move(self) -> bool:
        """Move the address's user name and password, if it has any, into the Authorization row;
        False (after saying why) when that row already holds a value."""
        text = self.url.text().strip()
        value = basic_authorization(text)
        if value is None:
            return True
        named = [row for row in self._rows() if row.name.text().strip().lower() == AUTHORIZATION.lower()]
        if any(row.value.text().strip() for row in named):
            self._say(_("The address carries a user name and password, and this server has an Authorization "
                        "header already. Remove that header to use them, or take them out of the address to "
                        "keep it."))
            return False
        row = named[0] if named else self._add_row(AUTHORIZATION, "", True)
        row.secret.setChecked(True)
        row.value.setText(value)
        self.url.setText(without_user_info(text))
        self.moved = True
        self.note.show()
        return True


__all__ = ["UrlCredentials"]
