"""A row of a name and a value that may be a credential: a server's header, a command's variable.

The value shows as dots while the row is marked secret; a name that looks like a credential
(Authorization, API_KEY, ...) marks the row secret as it is typed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLineEdit, QPushButton, QWidget

from inspector.i18n import _

from ..language import translated
from ..widgets.hints import readable_placeholders

Words = Callable[[], str]


@dataclass(frozen=True)
class RowWords:
    """What a kind of row calls its parts (each a function: said again when the language changes)."""

    name_placeholder: Words
    name: Words
    value: Words
    secret_tip: Words
    remove: Words


class SecretRow(QWidget):
    """Name, value (dots when secret), the secret mark, and Remove."""

    def __init__(self, name: str, value: str, secret: bool, *, looks_secret: Callable[[str], bool],
                 words: RowWords) -> None:
        super().__init__()
        self.name = QLineEdit(name)
        translated(self.name, "setPlaceholderText", words.name_placeholder)
        translated(self.name, "setAccessibleName", words.name)
        self.value = QLineEdit(value)
        translated(self.value, "setPlaceholderText", lambda: _("value"))
        translated(self.value, "setAccessibleName", words.value)
        self.secret = translated(QCheckBox(), "setText", lambda: _("secret"))
        translated(self.secret, "setToolTip", words.secret_tip)
        self.secret.toggled.connect(self._masked)
        self.secret.setChecked(secret or looks_secret(name))
        self.name.textEdited.connect(lambda text: self.secret.setChecked(True) if looks_secret(text) else None)
        self.remove = translated(QPushButton(), "setText", lambda: _("Remove"))
        translated(self.remove, "setAccessibleName", words.remove)
        readable_placeholders(self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.name, 2)
        layout.addWidget(self.value, 3)
        layout.addWidget(self.secret)
        layout.addWidget(self.remove)
        self._masked(self.secret.isChecked())

    def _masked(self, secret: bool) -> None:
        self.value.setEchoMode(QLineEdit.EchoMode.Password if secret else QLineEdit.EchoMode.Normal)


__all__ = ["RowWords", "SecretRow"]
