"""Add or edit a server: an Address (URL, transport, headers) or a Command (command line, folder,
environment: :mod:`.command_fields`), and for both a display name, a budget and roots.

Bad input is refused in the dialog, next to what was typed; a secret value is shown as dots.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.mcp import DEFAULT_BUDGET_SECONDS, InvalidServerError, ServerEndpoint, public_url
from inspector.mcp.roots import RootNotUsable, parse_root, root_as_text
from inspector.mcp.server_command import ServerCommand
from inspector.store.secrets import is_secret_header
from inspector.store.signin_settings import SignInSetup

from ..language import on_language_changed, translated, translated_item
from ..widgets.accessibility import label_combo, say_problems
from ..widgets.budget_field import BudgetField
from ..widgets.hints import mark_hint, readable_placeholders
from .command_fields import CommandFields, error_label
from .era_field import EraField
from .form_dialog import finish_form, fit_form
from .secret_row import RowWords, SecretRow
from .signin_fields import SignInChoice, SignInFields
from .url_credentials import UrlCredentials
from .url_query import UrlQuery


@dataclass
class ServerSettings:
    """What the dialog produced."""

    url: str
    name: str | None
    budget_s: float | None
    headers: dict[str, str] = field(default_factory=dict)
    secret: set[str] = field(default_factory=set)
    #: The roots offered to the server (``file://`` URIs); empty: none.
    roots: tuple[str, ...] = ()
    #: "http" (Streamable HTTP, finding the older transport by itself), "sse" or "stdio".
    transport: str = "http"
    #: For a command server: what to start (``url`` is then its key) and the names of secret
    #: variables whose value kept in the keyring stays (left out of ``command.env``).
    command: ServerCommand | None = None
    kept_env: set[str] = field(default_factory=set)
    #: The era of MCP to speak: "auto", "handshake" or "stateless".
    era: str = "auto"
    #: For a server at an address: its sign-in settings (the Sign-in (OAuth) section).
    signin: SignInChoice | None = None
    #: For a server at an address: the query of its address, kept as a secret (``None``: none).
    query: str | None = field(default=None, repr=False)


_error_label = error_label


class HeaderRow(SecretRow):
    """A header: name, value (dots when secret), the secret mark, and Remove."""

    def __init__(self, name: str = "", value: str = "", secret: bool = False) -> None:
        super().__init__(name, value, secret, looks_secret=is_secret_header, words=RowWords(
            lambda: _("Header name"), lambda: _("Header name"), lambda: _("Header value"),
            lambda: _("A secret value is never shown, logged, exported or stored in the database."),
            lambda: _("Remove this header")))


class ServerDialog(QDialog):
    """The server's settings. ``result_settings`` is set when OK was accepted."""

    def __init__(self, parent: QWidget | None = None, *, url: str = "", name: str | None = None,
                 budget_s: float | None = None, headers: list[tuple[str, str, bool]] | None = None,
                 secrets_kept: bool = False, roots: tuple[str, ...] = (),
                 default_budget_s: Callable[[], float] = lambda: DEFAULT_BUDGET_SECONDS,
                 transport: str = "http", command_line: str = "", cwd: str | None = None,
                 env: list[tuple[str, str, bool, bool]] | None = None, era: str = "auto",
                 signin: SignInSetup | None = None, signin_in_keyring: bool | None = None,
                 query: str | None = None,
                 taken: Callable[[str, str | None, ServerCommand], str | None] | None = None) -> None:
        super().__init__(parent)
        #: What says the server another name configures under a command's key (its credentials aside), if any.
        self._taken = taken
        self._finished = False  # accepted or rejected: a switch of language checks nothing again
        self.finished.connect(self._on_finished)
        editing = bool(url or command_line)
        translated(self, "setWindowTitle", lambda: _("Edit server") if editing else _("Add server"))
        self.result_settings: ServerSettings | None = None
        self.url = QLineEdit(url)
        self.url.setPlaceholderText("http://127.0.0.1:8000/mcp")
        translated(self.url, "setAccessibleName", lambda: _("Server URL"))
        self.url_error = _error_label()
        self.name = QLineEdit(name or "")
        translated(self.name, "setAccessibleName", lambda: _("Display name"))
        # Empty: the window's default budget (from the settings) applies.
        self.budget_field = BudgetField(budget_s, default_s=default_budget_s,
                                        accessible_name=lambda: _("Budget in seconds"))
        self.budget, self.budget_error = self.budget_field.edit, self.budget_field.error
        self.header_rows: list[HeaderRow] = []
        self.headers_box = QVBoxLayout()
        self.headers_box.setContentsMargins(0, 0, 0, 0)
        for header, value, secret in headers or []:
            self.add_header(header, value, secret)
        add = translated(QPushButton(), "setText", lambda: _("Add header"))
        add.clicked.connect(lambda: self.add_header())
        self.header_error = _error_label()
        keep_note = translated(QLabel(), "setText", lambda: _("Secret values are kept in the system keyring.")
                               if secrets_kept else _("No system keyring is available: secret values are kept "
                                                      "only until Run Inspector quits."))
        keep_note.setWordWrap(True)
        mark_hint(keep_note)
        self.transport = QComboBox()
        translated_item(self.transport, lambda: _("Streamable HTTP (finds the older transport by itself)"), "http")
        translated_item(self.transport, lambda: _("Older HTTP+SSE (2024-11-05)"), "sse")
        self.transport.setCurrentIndex(1 if transport == "sse" else 0)
        transport_label = translated(QLabel(), "setText", lambda: _("Transport"))
        label_combo(self.transport, lambda: _("Transport"), transport_label)
        url_column = QVBoxLayout()
        url_column.addWidget(self.url)
        url_column.addWidget(self.url_error)
        self.url_credentials = UrlCredentials(self.url, lambda: self.header_rows, self.add_header,
                                              lambda text: self._show(self.url_error, text))
        url_column.addWidget(self.url_credentials.note)
        self.url_query = UrlQuery(self.url, query)
        url_column.addWidget(self.url_query.row)
        headers_column = QVBoxLayout()
        headers_column.addLayout(self.headers_box)
        headers_column.addWidget(add, 0, Qt.AlignmentFlag.AlignLeft)
        headers_column.addWidget(self.header_error)
        headers_column.addWidget(keep_note)
        self.command = CommandFields(command_line, cwd, env, secrets_kept, self)
        self.signin = SignInFields(signin, in_keyring=secrets_kept if signin_in_keyring is None else signin_in_keyring,
                                   parent=self)
        self.as_address = translated(QRadioButton(), "setText", lambda: _("&Address"))
        translated(self.as_address, "setToolTip", lambda: _("A server already running, reached at a URL"))
        self.as_command = translated(QRadioButton(), "setText", lambda: _("Co&mmand"))
        translated(self.as_command, "setToolTip",
                   lambda: _("A program Run Inspector starts and speaks to over its stdin and stdout"))
        kinds = QButtonGroup(self)
        kinds.addButton(self.as_address)
        kinds.addButton(self.as_command)
        (self.as_command if transport == "stdio" else self.as_address).setChecked(True)
        kind_row = QHBoxLayout()
        kind_row.addWidget(self.as_address)
        kind_row.addWidget(self.as_command)
        kind_row.addStretch(1)
        # One form for both halves; the rows of the half not chosen are hidden (they take no room).
        self.form = form = QFormLayout()
        form.addRow(translated(QLabel(), "setText", lambda: _("Server")), kind_row)
        self._address_rows = [form.rowCount() + offset for offset in range(3)]
        form.addRow(translated(QLabel(), "setText", lambda: _("URL")), url_column)
        form.addRow(transport_label, self.transport)
        form.addRow(translated(QLabel(), "setText", lambda: _("Headers")), headers_column)
        self._signin_heading = form.rowCount()
        form.addRow(*self.signin.heading)
        self._signin_rows = [form.rowCount() + offset for offset in range(len(self.signin.rows))]
        for label, column in self.signin.rows:
            form.addRow(label, column)
        self._command_rows = [form.rowCount() + offset for offset in range(len(self.command.rows))]
        for label, column in self.command.rows:
            form.addRow(label, column)
        self.as_command.toggled.connect(self._kind_chosen)
        form.addRow(translated(QLabel(), "setText", lambda: _("Name")), self.name)
        form.addRow(translated(QLabel(), "setText", lambda: _("Budget (s)")), self.budget_field)
        self.era = EraField(era)
        form.addRow(self.era.label, self.era)
        self.roots = QPlainTextEdit("\n".join(root_as_text(uri) for uri in roots))
        translated(self.roots, "setAccessibleName", lambda: _("Roots: one folder per line"))
        translated(self.roots, "setPlaceholderText",
                   lambda: _("One folder per line (none: the server is offered no roots)"))
        self.roots.setTabChangesFocus(True)
        self.roots.setFixedHeight(self.roots.fontMetrics().lineSpacing() * 4 + 12)
        add_root = translated(QPushButton(), "setText", lambda: _("Add folder…"))
        translated(add_root, "setAccessibleName", lambda: _("Add a root folder"))
        add_root.clicked.connect(self._choose_root)
        self.roots_error = _error_label()
        roots_note = translated(QLabel(), "setText",
                                lambda: _("Folders the server may ask for (roots/list), as file:// addresses."))
        roots_note.setWordWrap(True)
        mark_hint(roots_note)
        roots_column = QVBoxLayout()
        roots_column.addWidget(self.roots)
        roots_column.addWidget(add_root, 0, Qt.AlignmentFlag.AlignLeft)
        roots_column.addWidget(self.roots_error)
        roots_column.addWidget(roots_note)
        form.addRow(translated(QLabel(), "setText", lambda: _("Roots")), roots_column)
        self._kind_chosen(self.as_command.isChecked())
        # Later: a row added to a shown dialog is shown by Qt on the next turn of the event loop.
        self.command.grew.connect(lambda: QTimer.singleShot(0, self, self.grow))
        self.signin.grew.connect(self._signin_folded)
        finish_form(self, form)
        readable_placeholders(self)  # after the form is the dialog's: it looks among its children
        on_language_changed(self, self._say_problems_again)

    def grow(self) -> None:
        """Make room for rows and problems added since the dialog was sized: wrapped text makes Qt's
        minimum height too small, and the rows would be squeezed."""
        fit_form(self, grow_only=True)

    def _kind_chosen(self, command: bool) -> None:
        for row in self._address_rows:
            self.form.setRowVisible(row, not command)
        for row in self._command_rows:
            self.form.setRowVisible(row, command)
        # A command's process gets its credentials from its environment: no sign-in.
        self.form.setRowVisible(self._signin_heading, not command)
        self._signin_folded(resize=False)
        # Showing a row shows every widget in it, its (empty) problem lines too: hidden again; a
        # problem of the other half is said again on OK.
        for label in (self.url_error, self.header_error, self.command.line_error, self.command.env_error,
                      *self.signin.problems()):
            label.hide()
        self.url_credentials.note.setVisible(self.url_credentials.moved and not command)
        self.url_query.row.setVisible(self.url_query.query is not None and not command)
        fit_form(self)  # the other half's height, not the taller of the two

    def _signin_folded(self, resize: bool = True) -> None:
        """The Sign-in section's rows follow its fold (and the kind: none for a command)."""
        for row in self._signin_rows:
            self.form.setRowVisible(row, self.as_address.isChecked() and self.signin.unfolded)
        for label in self.signin.problems():  # shown with their row: only a problem said stays
            label.setVisible(bool(label.text()) and self.signin.unfolded)
        if resize:
            fit_form(self)

    def _say_problems_again(self) -> None:
        """After a switch of language, the problems shown are checked and said again in the new one (a finished
        dialog's are not: it is not shown again, and checking a command asks the database, closed by then perhaps)."""
        if self._finished:
            return
        if any(not label.isHidden() for label in (self.url_error, self.budget_error, self.header_error,
                                                  self.roots_error)) or self.command.has_problems() \
                or self.signin.has_problems():
            self.settings()

    def _on_finished(self, _result: int) -> None:
        self._finished = True

    def add_header(self, name: str = "", value: str = "", secret: bool = False) -> HeaderRow:
        row = HeaderRow(name, value, secret)
        row.remove.clicked.connect(lambda: self._remove_header(row))
        self.header_rows.append(row)
        self.headers_box.addWidget(row)
        if hasattr(self, "command"):  # not while the dialog is built (it is sized once built)
            QTimer.singleShot(0, self, self.grow)
        return row

    def _choose_root(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, _("Choose a root folder"))
        if folder:
            self.add_root(folder)

    def add_root(self, folder: str) -> None:
        """Add a folder as a line of the roots field."""
        text = self.roots.toPlainText().rstrip("\n")
        self.roots.setPlainText(f"{text}\n{folder}" if text else folder)

    def _remove_header(self, row: HeaderRow) -> None:
        self.header_rows.remove(row)
        self.headers_box.removeWidget(row)
        row.deleteLater()

    def settings(self) -> ServerSettings | None:
        """What was typed, checked; ``None`` after showing what is wrong where it was typed."""
        for label in (self.url_error, self.header_error, self.roots_error):
            label.hide()
        self.command.hide_problems()
        self.signin.hide_problems()
        if self.as_command.isChecked():
            chosen = self._command_settings()
            self.grow()
            return chosen
        ok = self.url_credentials.move()
        self.url_query.move()
        headers: dict[str, str] = {}
        secret: set[str] = set()
        for row in self.header_rows:
            name, value = row.name.text().strip(), row.value.text()
            if not name and not value:
                continue
            if not name:
                self._show(self.header_error, _("A header needs a name (a value alone cannot be sent)."))
                ok = False
                continue
            if ":" in name:
                # "Name: value" typed into the name field: say where each part goes (never echo it).
                self._show(self.header_error, _("Type the header's name and its value in their own fields, "
                                                "without the colon."))
                ok = False
                continue
            headers[name] = value.strip()
            if row.secret.isChecked():
                secret.add(name)
        url = self.url.text().strip()
        try:
            ServerEndpoint(url, headers=headers)
        except InvalidServerError as exc:
            target = self.header_error if "header" in str(exc) else self.url_error
            problem = translate(exc)
            self._show(target, _("{problem}.").format(problem=problem[:1].upper() + problem[1:]))
            ok = False
        budget = self.budget_field.check()
        ok = ok and budget.problem is None
        signin = self.signin.choice()
        roots = self._roots()
        if not ok or roots is None or signin is None:
            self.grow()
            return None
        return ServerSettings(public_url(url), self.name.text().strip() or None, budget.given, headers, secret,
                              roots, transport=self.transport.currentData() or "http", era=self.era.era,
                              signin=signin, query=self.url_query.query)

    def _command_settings(self) -> ServerSettings | None:
        choice = self.command.choice()
        budget = self.budget_field.check()
        roots = self._roots()
        if choice is None or budget.problem is not None or roots is None:
            return None
        key = ServerEndpoint.for_command(choice.command).key
        problem = self._taken(key, self.name.text().strip() or None, choice.command) if self._taken else None
        if problem is not None:  # saved, it would replace that server whole
            self.command.say_line_problem(problem)
            self.grow()
            return None
        return ServerSettings(key, self.name.text().strip() or None, budget.given, roots=roots, transport="stdio",
                              command=choice.command, kept_env=choice.kept, era=self.era.era)

    def _roots(self) -> tuple[str, ...] | None:
        roots: list[str] = []
        ok = True
        for line in self.roots.toPlainText().splitlines():
            if not line.strip():
                continue
            try:
                uri = parse_root(line).uri
            except RootNotUsable:
                self._show(self.roots_error, _("A root is a folder or a file:// address; this line is "
                                               "neither: {line}").format(line=line.strip()[:80]))
                ok = False
                continue
            if uri not in roots:
                roots.append(uri)
        return tuple(roots) if ok else None

    def _show(self, label: QLabel, text: str) -> None:
        label.setText(text)
        label.show()
        self.grow()

    def accept(self) -> None:  # noqa: D102
        settings = self.settings()
        if settings is None:
            say_problems(self)
            return
        self.result_settings = settings
        super().accept()


__all__ = ["HeaderRow", "ServerDialog", "ServerSettings"]
