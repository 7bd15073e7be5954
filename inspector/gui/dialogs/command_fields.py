"""The Command half of the server dialog: the command line, its working folder, its environment.

The command line is one field, split into words as a POSIX shell would (quotes group words;
nothing is expanded and no shell is run). Environment variables are a small table: name, value,
secret. A variable named like a credential (API_KEY, TOKEN, ...) is secret by itself; a secret
value is shown as dots, and one already kept in the keyring is never shown again: its field says
"kept in the keyring" and, left empty, keeps it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.mcp.server_command import InvalidCommandError, ServerCommand, parse_command_line
from inspector.store import is_secret_variable

from ..language import translated
from ..widgets.hints import PROBLEM_STYLE, mark_hint
from .secret_row import RowWords, SecretRow

#: The command line's placeholder: a real server, as typed (not a sentence: never translated).
EXAMPLE_COMMAND = "npx -y @modelcontextprotocol/server-everything stdio"


def error_label() -> QLabel:
    """A problem said next to what was typed (plain text, hidden until there is one)."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    label.setStyleSheet(PROBLEM_STYLE)
    label.hide()
    return label


def sentence(problem: str) -> str:
    """A lower-case problem from the mcp layer as a sentence."""
    return _("{problem}.").format(problem=problem[:1].upper() + problem[1:])


@dataclass
class CommandChoice:
    """What the Command half produced: the command (kept secret values left out) and the names of
    the secret variables whose kept value stays as it is."""

    command: ServerCommand
    kept: set[str] = field(default_factory=set)


class EnvRow(SecretRow):
    """A variable: name, value (dots when secret; "kept in the keyring" for a kept one), the secret
    mark, Remove."""

    def __init__(self, name: str = "", value: str = "", secret: bool = False, kept: bool = False,
                 in_keyring: bool = True) -> None:
        super().__init__(name, "" if kept else value, secret or kept, looks_secret=is_secret_variable, words=RowWords(
            lambda: _("NAME"), lambda: _("Variable name"), lambda: _("Variable value"),
            lambda: _("A secret value is kept in the keyring: never shown, logged, exported or stored in the "
                      "database."),
            lambda: _("Remove this variable")))
        self.kept = kept
        if kept:
            translated(self.value, "setPlaceholderText", lambda: _("kept in the keyring") if in_keyring
                       else _("kept until Run Inspector quits"))
            translated(self.value, "setToolTip",
                       lambda: _("The value is kept in the keyring and never shown; type a new one to replace it."))


class CommandFields(QObject):
    """The command line, the working folder (with Browse…) and the environment table: the rows
    (:attr:`rows`, label and field) that the server dialog puts into its own form."""

    #: A row or a problem was added: the dialog makes room for it.
    grew = Signal()

    def __init__(self, command_line: str = "", cwd: str | None = None,
                 env: list[tuple[str, str, bool, bool]] | None = None, secrets_kept: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._parent = parent
        self.secrets_kept = secrets_kept
        self.line = QLineEdit(command_line)
        self.line.setPlaceholderText(EXAMPLE_COMMAND)
        translated(self.line, "setAccessibleName", lambda: _("Command line"))
        self.line_error = error_label()
        line_note = translated(QLabel(), "setText", lambda: _(
            "Split into words as a shell would (quotes group words); no shell is run, nothing is expanded."))
        line_note.setWordWrap(True)
        mark_hint(line_note)
        self.cwd = QLineEdit(cwd or "")
        translated(self.cwd, "setPlaceholderText", lambda: _("Run Inspector's own folder"))
        translated(self.cwd, "setAccessibleName", lambda: _("Working folder"))
        browse = translated(QPushButton(), "setText", lambda: _("Browse…"))
        translated(browse, "setAccessibleName", lambda: _("Choose the working folder"))
        browse.clicked.connect(self._choose_cwd)
        self.env_rows: list[EnvRow] = []
        self.env_box = QVBoxLayout()
        self.env_box.setContentsMargins(0, 0, 0, 0)
        for name, value, secret, kept in env or []:
            self.add_variable(name, value, secret, kept)
        add = translated(QPushButton(), "setText", lambda: _("Add variable"))
        add.clicked.connect(lambda: self.add_variable())
        self.env_error = error_label()
        keep_note = translated(QLabel(), "setText", lambda: _("Secret values are kept in the system keyring.")
                               if secrets_kept else _("No system keyring is available: secret values are kept "
                                                      "only until Run Inspector quits."))
        keep_note.setWordWrap(True)
        mark_hint(keep_note)
        line_column = QVBoxLayout()
        line_column.addWidget(self.line)
        line_column.addWidget(self.line_error)
        line_column.addWidget(line_note)
        cwd_row = QHBoxLayout()
        cwd_row.addWidget(self.cwd, 1)
        cwd_row.addWidget(browse)
        env_column = QVBoxLayout()
        env_column.addLayout(self.env_box)
        env_column.addWidget(add, 0, Qt.AlignmentFlag.AlignLeft)
        env_column.addWidget(self.env_error)
        env_column.addWidget(keep_note)
        #: (label, field) rows for the dialog's form.
        self.rows: list[tuple[QLabel, QLayout]] = [
            (translated(QLabel(), "setText", lambda: _("Command")), line_column),
            (translated(QLabel(), "setText", lambda: _("Folder")), cwd_row),
            (translated(QLabel(), "setText", lambda: _("Environment")), env_column)]

    def add_variable(self, name: str = "", value: str = "", secret: bool = False, kept: bool = False) -> EnvRow:
        row = EnvRow(name, value, secret, kept, self.secrets_kept)
        row.remove.clicked.connect(lambda: self._remove(row))
        self.env_rows.append(row)
        self.env_box.addWidget(row)
        self.grew.emit()
        return row

    def _remove(self, row: EnvRow) -> None:
        self.env_rows.remove(row)
        self.env_box.removeWidget(row)
        row.deleteLater()

    def _choose_cwd(self) -> None:
        folder = QFileDialog.getExistingDirectory(self._parent, _("Choose the working folder"), self.cwd.text())
        if folder:
            self.cwd.setText(folder)

    def hide_problems(self) -> None:
        self.line_error.hide()
        self.env_error.hide()

    def has_problems(self) -> bool:
        return not self.line_error.isHidden() or not self.env_error.isHidden()

    def choice(self) -> CommandChoice | None:
        """The command typed, checked; ``None`` after showing what is wrong where it was typed."""
        self.hide_problems()
        env: dict[str, str] = {}
        secret: set[str] = set()
        kept: set[str] = set()
        ok = True
        for row in self.env_rows:
            name, value = row.name.text().strip(), row.value.text()
            if not name and not value:
                continue
            if not name:
                self._show(self.env_error, _("A variable needs a name (a value alone cannot be set)."))
                ok = False
                continue
            if row.secret.isChecked():
                secret.add(name)
            if row.kept and not value:
                kept.add(name)  # the keyring's value stays
                continue
            env[name] = value
        try:
            command = parse_command_line(self.line.text(), env, self.cwd.text().strip() or None)
        except InvalidCommandError as error:
            problem = translate(error.sentence)
            target = self.env_error if "environment variable" in str(error.sentence) else self.line_error
            self._show(target, sentence(problem))
            return None
        if not ok:
            return None
        return CommandChoice(ServerCommand(command.program, command.args, command.env, command.cwd,
                                           secret_env=frozenset(secret)), kept)

    def say_line_problem(self, text: str) -> None:
        """Say ``text`` under the command line (what the dialog found wrong with the command)."""
        self._show(self.line_error, text)

    def _show(self, label: QLabel, text: str) -> None:
        label.setText(text)
        label.show()
        self.grew.emit()


__all__ = ["CommandChoice", "CommandFields", "EnvRow", "error_label", "sentence"]
