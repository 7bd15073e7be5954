"""The server dialog's Sign-in (OAuth) section, for a server at an address: what ``run-inspector
servers set URL --client-id ... --client-secret-env ... --client-metadata-url ... --grant ...
--client-key FILE --auth-method ... --scope ...`` sets.

The section is folded while nothing is set (most servers need nothing: the client is registered
when the server asks for a sign-in). The client secret is a password field; one kept already is
never shown again: its field says "kept in the keyring" and, left empty, keeps it; Clear (or an
empty client id) removes it. Everything is checked before anything is saved, with the store's
checks (:mod:`inspector.store.signin_settings`), and each problem is said under its field.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.store.signin_settings import (
    GRANT_NEEDS_CLIENT_ID,
    KEY_METHOD_NEEDS_KEY,
    ClientKeyError,
    SignInSetup,
    metadata_url_acceptable,
    read_client_key,
    setup_problems,
)

from ..language import translated, translated_item
from ..widgets.accessibility import label_combo
from ..widgets.hints import mark_hint
from .command_fields import error_label

#: A client metadata document's address as an example (not a sentence: never translated).
EXAMPLE_METADATA_URL = "https://example.com/client.json"


@dataclass(frozen=True)
class SignInChoice:
    """What the section produced: the server's whole setup (``client_secret_kept``: the kept secret
    stays) and a new client secret to keep (``None``: none typed)."""

    setup: SignInSetup
    secret: str | None = None


class SignInFields(QObject):
    """The section's rows (:attr:`rows`) for the dialog's form, and :meth:`choice`."""

    #: The section was unfolded or folded, or a problem was said: the dialog makes room.
    grew = Signal()

    def __init__(self, setup: SignInSetup | None = None, *, in_keyring: bool = True,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._parent = parent
        setup = setup or SignInSetup()
        self.original = setup
        self._kept = setup.client_secret_kept
        self._in_keyring = in_keyring
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setAutoRaise(True)
        translated(self.toggle, "setText", lambda: _("Client settings"))
        translated(self.toggle, "setAccessibleName", lambda: _("Sign-in (OAuth) client settings"))
        translated(self.toggle, "setToolTip", lambda: _("Show or hide the sign-in settings"))
        summary = translated(QLabel(), "setText", lambda: _(
            "Most servers need nothing here: a client is registered when the server asks for a sign-in."))
        summary.setWordWrap(True)
        mark_hint(summary)
        self.client_id = QLineEdit(setup.client_id or "")
        translated(self.client_id, "setAccessibleName", lambda: _("Client ID"))
        translated(self.client_id, "setPlaceholderText", lambda: _("none: registered when signing in"))
        self.id_error = error_label()
        self.secret = QLineEdit()
        self.secret.setEchoMode(QLineEdit.EchoMode.Password)
        translated(self.secret, "setAccessibleName", lambda: _("Client secret"))
        self.clear_secret = translated(QPushButton(), "setText", lambda: _("Clear"))
        translated(self.clear_secret, "setAccessibleName", lambda: _("Remove the kept client secret"))
        self.clear_secret.clicked.connect(self._forget_secret)
        translated(self.secret, "setPlaceholderText", self._secret_placeholder)
        translated(self.secret, "setToolTip", self._secret_tip)
        self.clear_secret.setEnabled(self._kept)
        self.metadata_url = QLineEdit(setup.client_metadata_url or "")
        self.metadata_url.setPlaceholderText(EXAMPLE_METADATA_URL)
        translated(self.metadata_url, "setAccessibleName", lambda: _("Client metadata document URL"))
        self.metadata_error = error_label()
        self.grant = QComboBox()
        translated_item(self.grant, lambda: _("Authorization code (a person, in the browser)"), "authorization-code")
        translated_item(self.grant, lambda: _("Client credentials (a machine client)"), "client-credentials")
        self.grant.setCurrentIndex(1 if setup.grant == "client-credentials" else 0)
        grant_label = translated(QLabel(), "setText", lambda: _("Grant"))
        label_combo(self.grant, lambda: _("Grant"), grant_label)
        self.auth_method = QComboBox()
        translated_item(self.auth_method, lambda: _("Automatic (what the authorization server supports)"), None)
        translated_item(self.auth_method, lambda: _("none (a public client)"), "none")
        translated_item(self.auth_method, lambda: _("client_secret_basic (secret in the header)"),
                        "client_secret_basic")
        translated_item(self.auth_method, lambda: _("client_secret_post (secret in the form)"), "client_secret_post")
        translated_item(self.auth_method, lambda: _("private_key_jwt (a JWT signed with the key file)"),
                        "private_key_jwt")
        self.auth_method.setCurrentIndex(max(0, self.auth_method.findData(setup.auth_method))
                                         if setup.auth_method else 0)
        method_label = translated(QLabel(), "setText", lambda: _("Token auth"))
        label_combo(self.auth_method, lambda: _("Token endpoint authentication method"), method_label)
        self.key_file = QLineEdit(setup.client_key_file or "")
        translated(self.key_file, "setAccessibleName", lambda: _("Client key file"))
        translated(self.key_file, "setPlaceholderText", lambda: _("a PEM private key, for private_key_jwt"))
        browse = translated(QPushButton(), "setText", lambda: _("Browse…"))
        translated(browse, "setAccessibleName", lambda: _("Choose the client key file"))
        browse.clicked.connect(self._choose_key)
        self.key_error = error_label()
        self.scope = QLineEdit(setup.scope or "")
        translated(self.scope, "setAccessibleName", lambda: _("Scope"))
        translated(self.scope, "setPlaceholderText", lambda: _("what the server asks for"))
        head = QHBoxLayout()
        head.addWidget(self.toggle)
        head.addWidget(summary, 1)
        id_column = _column(self.client_id, self.id_error)
        secret_row = QHBoxLayout()
        secret_row.addWidget(self.secret, 1)
        secret_row.addWidget(self.clear_secret)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_file, 1)
        key_row.addWidget(browse)
        key_column = QVBoxLayout()
        key_column.addLayout(key_row)
        key_column.addWidget(self.key_error)
        #: The heading row (label, field) and the rows it folds away.
        self.heading: tuple[QLabel, QHBoxLayout] = (translated(QLabel(), "setText", lambda: _("Sign-in (OAuth)")), head)
        self.rows: list[tuple[QLabel, QWidget | QHBoxLayout | QVBoxLayout]] = [
            (translated(QLabel(), "setText", lambda: _("Client ID")), id_column),
            (translated(QLabel(), "setText", lambda: _("Client secret")), secret_row),
            (translated(QLabel(), "setText", lambda: _("Metadata URL")),
             _column(self.metadata_url, self.metadata_error)),
            (grant_label, self.grant),
            (method_label, self.auth_method),
            (translated(QLabel(), "setText", lambda: _("Key file")), key_column),
            (translated(QLabel(), "setText", lambda: _("Scope")), self.scope)]
        self.toggle.setChecked(setup.configured)
        self._arrow(setup.configured)
        self.toggle.toggled.connect(self._arrow)

    @property
    def unfolded(self) -> bool:
        return self.toggle.isChecked()

    def _arrow(self, unfolded: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if unfolded else Qt.ArrowType.RightArrow)
        self.grew.emit()

    def _secret_placeholder(self) -> str:
        if not self._kept:
            return _("none")
        return _("kept in the keyring") if self._in_keyring else _("kept until Run Inspector quits")

    def _secret_tip(self) -> str:
        if self._kept:
            return _("The secret is kept in the keyring and never shown; type a new one to replace it, or Clear.")
        return _("The client's secret goes to the keyring: never shown, logged or stored in the database.")

    def _forget_secret(self) -> None:
        self._kept = False
        self.secret.clear()
        self.secret.setPlaceholderText(self._secret_placeholder())
        self.secret.setToolTip(self._secret_tip())
        self.clear_secret.setEnabled(False)

    def _choose_key(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self._parent, _("Choose the client key file"),
                                                    self.key_file.text())
        if path:
            self.key_file.setText(path)

    def problems(self) -> list[QLabel]:
        return [self.id_error, self.metadata_error, self.key_error]

    def hide_problems(self) -> None:
        for label in self.problems():
            label.clear()  # an empty one stays hidden when its row is shown again
            label.hide()

    def has_problems(self) -> bool:
        return any(not label.isHidden() for label in self.problems())

    def choice(self) -> SignInChoice | None:
        """The settings typed, checked; ``None`` after saying what is wrong under its field."""
        self.hide_problems()
        client_id = self.client_id.text().strip()
        secret = self.secret.text()
        metadata_url = self.metadata_url.text().strip()
        key_file = self.key_file.text().strip()
        ok = True
        if secret and not client_id:
            ok = self._show(self.id_error, _("A client secret belongs to a client: give the client ID too."))
        if metadata_url and not metadata_url_acceptable(metadata_url):
            ok = self._show(self.metadata_error, _(
                "The client metadata document needs an https address with a path, such as {example}.").format(
                example=EXAMPLE_METADATA_URL))
        if key_file:
            try:
                read_client_key(os.path.expanduser(key_file))
            except ClientKeyError as error:
                ok = self._show(self.key_error, translate(error.sentence))
            else:
                key_file = os.path.abspath(os.path.expanduser(key_file))
        grant = self.grant.currentData()
        setup = SignInSetup(client_id or None, self.auth_method.currentData(), metadata_url or None,
                            None if grant == "authorization-code" else grant, self.scope.text().strip() or None,
                            key_file or None)
        problems = setup_problems(setup)
        if GRANT_NEEDS_CLIENT_ID in problems:
            ok = self._show(self.id_error, _("Signing in with client credentials needs the client ID."))
        if KEY_METHOD_NEEDS_KEY in problems:
            ok = self._show(self.key_error, _("private_key_jwt signs with a key: choose the client's key file."))
        if not ok:
            return None
        # The kept secret is the client's it was kept for: another client id (or none) drops it.
        kept = self._kept and not secret and client_id == (self.original.client_id or "")
        return SignInChoice(replace(setup, client_secret_kept=kept), secret or None)

    def _show(self, label: QLabel, text: str) -> bool:
        label.setText(f"{label.text()}\n{text}" if label.text() else text)  # two problems of one field: both
        label.show()
        if not self.unfolded:
            self.toggle.setChecked(True)  # a problem is never folded away
        self.grew.emit()
        return False


def _column(field: QWidget, error: QLabel) -> QVBoxLayout:
    column = QVBoxLayout()
    column.addWidget(field)
    column.addWidget(error)
    return column


__all__ = ["EXAMPLE_METADATA_URL", "SignInChoice", "SignInFields"]
