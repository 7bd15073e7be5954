"""File → Import servers…: what a configuration file of another client would add, chosen first.

The preview lists each entry that can be added (name, Address or Command, its URL or command line, the folders it
is offered and its sign-in settings, the names of its variables or headers: never their values) with a check box,
the entries skipped and why, and a password field for each value the other client asks for when it starts the
server (``${input:…}``). Everything shown came from a file: plain text, controls visible.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, ngettext
from inspector.i18n.messages import translate
from inspector.mcp.address_credentials import AUTHORIZATION, basic_authorization
from inspector.mcp.address_query import address_query, without_query
from inspector.mcp.listed_signin import ListedSignIn
from inspector.mcp.server_configs import ConfiguredServer, ServerConfig
from inspector.mcp.user_info import address_shown

from ..language import translated
from ..widgets.hints import mark_hint
from ..widgets.plain_text import cell_text, label_text, plain_tooltip, visible


@dataclass
class ImportChoice:
    """One entry to add, and the values typed for what it asks for (by variable or header name)."""

    server: ConfiguredServer
    asked: dict[str, str] = field(default_factory=dict)


def where(server: ConfiguredServer) -> str:
    """The entry's URL (without a user name and password or a query, which is said to be kept as a
    secret), or its command line (the environment by name only)."""
    if server.command is not None:
        return server.command.shown()
    address = address_shown(server.url or "")
    if address_query(address) is None:
        return address
    return _("{address} (its query kept as a secret)").format(address=without_query(address))


def names_of(server: ConfiguredServer) -> list[str]:
    """The names of its environment variables or headers, those asked for included (Authorization
    for a user name and password in its address)."""
    given = server.command.env if server.command is not None else server.headers
    made = [AUTHORIZATION] if server.command is None and basic_authorization(server.url or "") else []
    return sorted({*given, *server.asks_for, *made})


def signin_said(signin: ListedSignIn) -> str:
    """The sign-in settings an entry gives, each by the Servers dialog's label; the client secret by whether the
    file holds it (never its value)."""
    settings = signin.settings
    named = ((_("Client ID"), settings.get("client_id")), (_("Metadata URL"), settings.get("client_metadata_url")),
             (_("Grant"), settings.get("grant")), (_("Token auth"), settings.get("auth_method")),
             (_("Key file"), settings.get("client_key_file")), (_("Scope"), settings.get("scope")),
             (_("Client secret"), _("in the file") if signin.client_secret is not None else None))
    return ", ".join(f"{label} {value}" for label, value in named if value is not None)


class ImportDialog(QDialog):
    """The preview of an import: check the entries to add, fill in what they ask for, Add."""

    COLUMNS = 5

    def __init__(self, config: ServerConfig, file_name: str, parent: QWidget | None = None,
                 replaced: list[bool] | None = None, named: list[list[str]] | None = None,
                 renames: list[str | None] | None = None) -> None:
        super().__init__(parent)
        self.config = config
        #: Per entry: is a server with the same address or command configured already (it is replaced)?
        self.replaced = replaced or [False] * len(config.servers)
        #: Per entry: the configured servers of its name at another address or command (as shown), which it replaces.
        self.named = named or [[] for _server in config.servers]
        #: Per entry: the name of the same server configured under another name, which it renames (or ``None``).
        self.renames = renames or [None] * len(config.servers)
        translated(self, "setWindowTitle", lambda: _("Import servers"))
        self.result_choices: list[ImportChoice] = []
        header = QLabel()
        header.setTextFormat(Qt.TextFormat.PlainText)
        header.setWordWrap(True)
        count = len(config.servers)
        header.setText(ngettext("{file} lists {count} server that can be added. Choose what to add:",
                                "{file} lists {count} servers that can be added. Choose what to add:",
                                count).format(file=label_text(file_name, 200), count=count))
        self.table = QTableWidget(count, self.COLUMNS)
        translated(self.table, "setAccessibleName", lambda: _("Servers to add"))
        self.table.setHorizontalHeaderLabels([_("Name"), _("Kind"), _("URL or command line"), _("Variables"),
                                              _("Configured")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        for row, server in enumerate(config.servers):
            self._row(row, server)
        self.table.resizeColumnToContents(0)
        self.table.resizeColumnToContents(1)
        self.table.resizeColumnToContents(3)
        self.table.resizeColumnToContents(4)
        self.asks: dict[tuple[int, str], QLineEdit] = {}
        asks_form = QFormLayout()
        for row, server in enumerate(config.servers):
            for name in server.asks_for:
                edit = QLineEdit()
                edit.setEchoMode(QLineEdit.EchoMode.Password)
                shown = _("{server}: {name}").format(server=cell_text(server.name, 60), name=cell_text(name, 60))
                edit.setAccessibleName(shown)
                label = QLabel(shown)
                label.setTextFormat(Qt.TextFormat.PlainText)
                asks_form.addRow(label, edit)
                self.asks[(row, name)] = edit
        layout = QVBoxLayout(self)
        layout.addWidget(header)
        layout.addWidget(self.table, 1)
        if self.asks:
            asks_note = translated(QLabel(), "setText", lambda: _(
                "The file asks for these values (${input:…}); what is typed here is kept as a secret (keyring):"))
            asks_note.setWordWrap(True)
            layout.addWidget(asks_note)
            layout.addLayout(asks_form)
        self.skipped = QLabel()
        self.skipped.setTextFormat(Qt.TextFormat.PlainText)
        self.skipped.setWordWrap(True)
        if config.skipped:
            lines = [_("Skipped, and why:")]
            lines += [_("{name}: {reason}").format(name=cell_text(item.name, 80), reason=translate(item.reason))
                      for item in config.skipped[:50]]
            if len(config.skipped) > 50:
                lines.append(_("… and {count} more").format(count=len(config.skipped) - 50))
            self.skipped.setText("\n".join(lines))
            mark_hint(self.skipped)
            layout.addWidget(self.skipped)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.add_button = buttons.addButton("", QDialogButtonBox.ButtonRole.AcceptRole)
        translated(self.add_button, "setText", lambda: _("Add"))  # beside Qt's Cancel, which follows the switch too
        self.add_button.setEnabled(count > 0)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.table.itemChanged.connect(lambda _item: self._checked_changed())
        self.resize(760, min(640, 220 + 30 * count + 30 * len(self.asks) + 18 * len(config.skipped[:50])))

    def _row(self, row: int, server: ConfiguredServer) -> None:
        name = QTableWidgetItem(cell_text(server.name, 80))
        name.setFlags(name.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        name.setCheckState(Qt.CheckState.Checked)
        name.setToolTip(plain_tooltip(visible(server.name[:2000])))
        kind = {"stdio": _("Command"), "sse": _("Address (HTTP+SSE)")}.get(server.transport, _("Address"))
        place = where(server)
        if server.roots:  # what the server may read, said before it is added
            # Translators: an entry's address or command line, then the folders offered to it (file:// URIs).
            place = _("{place}; offered the folders (roots): {roots}").format(place=place,
                                                                             roots=", ".join(server.roots))
        if server.signin is not None:  # whom it signs in as, and with which key file of this machine
            # Translators: an entry's address, then its sign-in settings (the Servers dialog's labels and values).
            place = _("{place}; sign-in (OAuth): {settings}").format(place=place, settings=signin_said(server.signin))
        replaced = QTableWidgetItem(_("replaced") if self.replaced[row] else _("new"))
        if self.renames[row] is not None:
            renamed = self.renames[row]
            replaced.setText(cell_text(_("renames {name}").format(name=renamed), 120))
            replaced.setToolTip(plain_tooltip(visible(_(
                "This server is configured as {name}: adding renames it and replaces its settings (its runs and "
                "health stay).").format(name=renamed)[:2000])))
        elif self.replaced[row]:
            replaced.setToolTip(_("A server with this address or command is configured already: adding replaces "
                                  "its settings (its runs and health stay)."))
        elif self.named[row]:
            others = ", ".join(self.named[row])
            replaced.setText(cell_text(_("replaces {server}").format(server=others), 120))
            replaced.setToolTip(plain_tooltip(visible(_(
                "A server of this name is configured at another address or with another command ({server}): adding "
                "replaces it, as its name now names this one (its runs stay).").format(server=others)[:2000])))
        cells = (name, QTableWidgetItem(kind), QTableWidgetItem(cell_text(place, 300)),
                 QTableWidgetItem(cell_text(", ".join(names_of(server)), 200)), replaced)
        cells[2].setToolTip(plain_tooltip(visible(place[:2000])))
        for column, item in enumerate(cells):
            self.table.setItem(row, column, item)

    def checked_rows(self) -> list[int]:
        return [row for row in range(self.table.rowCount())
                if self.table.item(row, 0).checkState() == Qt.CheckState.Checked]

    def set_checked(self, row: int, checked: bool) -> None:
        self.table.item(row, 0).setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def _checked_changed(self) -> None:
        self.add_button.setEnabled(bool(self.checked_rows()))

    def choices(self) -> list[ImportChoice]:
        """The checked entries with what was typed for them."""
        chosen = []
        for row in self.checked_rows():
            server = self.config.servers[row]
            asked = {name: self.asks[(row, name)].text() for name in server.asks_for if self.asks[(row, name)].text()}
            chosen.append(ImportChoice(server, asked))
        return chosen

    def accept(self) -> None:  # noqa: D102
        self.result_choices = self.choices()
        super().accept()


__all__ = ["ImportChoice", "ImportDialog", "names_of", "where"]
