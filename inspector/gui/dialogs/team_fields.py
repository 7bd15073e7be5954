"""The Settings dialog's part for the team's OpenTelemetry backend: push finished runs to a
collector (address and headers, secret values as dots; a user name and password typed into the
address become its secret Authorization header, and a query in it (``?api_key=…``) a secret kept
beside the headers, never written to the settings file), and the
Jaeger or Tempo query address a trace is opened from by id (File → Open trace by id…; a query in it
likewise kept as a secret)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from inspector.capture.sending import EndpointError, traces_url
from inspector.i18n import _

from ..language import translated, translated_item
from ..team_settings import TeamSettings
from ..widgets.accessibility import label_combo
from ..widgets.hints import PROBLEM_STYLE, mark_hint
from .form_dialog import fit_form
from .server_dialog import HeaderRow
from .url_credentials import UrlCredentials
from .url_query import CollectorQuery, ServiceQuery, kept_query


class TeamFields(QWidget):
    """Push: on/off, the collector's address, its headers. Pull: the query service's kind and address."""

    def __init__(self, team: TeamSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.team = team
        self.push = translated(QCheckBox(), "setText", lambda: _(
            "Send each finished run to the team's OpenTelemetry collector (OTLP/HTTP)"))
        self.push.setChecked(team.push_enabled)
        self.endpoint = QLineEdit(team.push_endpoint)
        self.endpoint.setPlaceholderText("http://127.0.0.1:4318")
        translated(self.endpoint, "setAccessibleName", lambda: _("The collector's address"))
        self.header_rows: list[HeaderRow] = []
        #: Secret rows whose value the keyring has not given (left empty, the keyring keeps its value).
        self.unread: dict[HeaderRow, str] = {}
        self._endpoint_before = team.push_endpoint
        self.headers_box = QVBoxLayout()
        self.headers_box.setContentsMargins(0, 0, 0, 0)
        for name, value, secret in team.header_rows():
            row = self.add_header(name, value or "", secret)
            if value is None:
                self.unread[row] = name
                translated(row.value, "setPlaceholderText", lambda: _("not read from the keyring"))
        add = translated(QPushButton(), "setText", lambda: _("Add header"))
        translated(add, "setAccessibleName", lambda: _("Add a header sent to the collector"))
        add.clicked.connect(lambda: self.add_header())
        note = translated(QLabel(), "setText", lambda: _(
            "Runs that finish while this is on are queued in the run database and sent once each; while the "
            "collector cannot be reached they wait and are tried again. The Runs tab's Pushed column says "
            "where each run stands. Credentials in the runs are removed before they are sent."))
        note.setWordWrap(True)
        mark_hint(note)
        self.backend = QComboBox()
        translated_item(self.backend, lambda: "Jaeger", "jaeger")
        translated_item(self.backend, lambda: "Tempo", "tempo")
        self.backend.setCurrentIndex(max(self.backend.findData(team.query_backend), 0))
        label_combo(self.backend, lambda: _("Kind of trace query service"))
        self.query = QLineEdit(team.query_url)
        self.query.setPlaceholderText("http://127.0.0.1:16686")
        translated(self.query, "setAccessibleName", lambda: _("The trace query service's address"))
        query_row = QHBoxLayout()
        query_row.addWidget(self.backend)
        query_row.addWidget(self.query, 1)
        self.error = QLabel()
        self.error.setStyleSheet(PROBLEM_STYLE)
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setWordWrap(True)
        self.error.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        # A password in the address would be written to the settings file in clear: it becomes the secret
        # Authorization header (the keyring's), as the command line sends it (HTTP Basic).
        self.url_credentials = UrlCredentials(self.endpoint, lambda: self.header_rows, self.add_header, self._say)
        # A query in the address (a collector's API key) likewise: kept as a secret, put back where runs are sent.
        self.url_query = CollectorQuery(self.endpoint, kept_query(team.push_query(), team.push_query_kept))
        self.service_query = ServiceQuery(self.query, kept_query(team.service_query(), team.query_secret_kept))
        for moved in (self.url_query, self.service_query):
            moved.move()  # an address an earlier version saved with its query: out of sight, kept on OK
        layout.addWidget(self.push)
        layout.addWidget(self.endpoint)
        layout.addWidget(self.url_credentials.note)
        layout.addWidget(self.url_query.row)
        layout.addLayout(self.headers_box)
        layout.addWidget(add, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(note)
        layout.addWidget(translated(QLabel(), "setText", lambda: _("Open traces by id from:")))
        layout.addLayout(query_row)
        layout.addWidget(self.service_query.row)
        layout.addWidget(self.error)

    def add_header(self, name: str = "", value: str = "", secret: bool = False) -> HeaderRow:
        row = HeaderRow(name, value, secret)
        row.remove.clicked.connect(lambda: self._remove_header(row))
        self.header_rows.append(row)
        self.headers_box.addWidget(row)
        QTimer.singleShot(0, self, self.grow)
        return row

    def grow(self) -> None:
        """Make room in the dialog for rows and problems added since it was sized (wrapped text makes
        Qt's minimum height too small, and the rows would be squeezed)."""
        dialog = self.window()
        if dialog is not self:
            fit_form(dialog, grow_only=True)

    def _remove_header(self, row: HeaderRow) -> None:
        self.header_rows.remove(row)
        self.unread.pop(row, None)
        self.headers_box.removeWidget(row)
        row.deleteLater()

    def _problem(self) -> str | None:
        endpoint = self.endpoint.text().strip()
        if self.push.isChecked() or endpoint:
            try:
                traces_url(endpoint)
            except EndpointError:
                return _("To send runs to a collector, give its http:// or https:// address, e.g. "
                         "http://127.0.0.1:4318.")
        for row in self.header_rows:
            name = row.name.text().strip()
            if (row.value.text() and not name) or any(char in name for char in ": \t"):
                return _("A header needs a name without spaces or a colon, and its value in its own field.")
        if self.endpoint.text().strip() != self._endpoint_before:
            for row in self._kept_unread():
                return _("The system keyring has not given the value of {name}: type it again for the new "
                         "address, or unlock the keyring and open the settings again.").format(
                             name=row.name.text().strip())
            if self.url_query.query == "":
                return _("The system keyring has not given the address's query: type the address with it again, "
                         "or unlock the keyring and open the settings again.")
        query = self.query.text().strip()
        if query and not query.startswith(("http://", "https://")):
            return _("The trace query address needs http:// or https://, e.g. http://127.0.0.1:16686.")
        return None

    def _kept_unread(self) -> list[HeaderRow]:
        """Secret rows not read from the keyring and left as they were: the keyring keeps their value."""
        return [row for row in self.header_rows if self.unread.get(row) == row.name.text().strip()
                and row.secret.isChecked() and not row.value.text()]

    def _say(self, problem: str) -> None:
        self.error.setText(problem)
        self.error.show()
        self.grow()

    def save(self) -> bool:
        """Store what was typed, if it is usable; else say what is wrong and store nothing."""
        self.error.hide()
        self.url_query.move()
        self.service_query.move()
        if not self.url_credentials.move():
            return False
        problem = self._problem()
        if problem is not None:
            self._say(problem)
            return False
        kept = self._kept_unread()
        rows = [(row.name.text().strip(), None if row in kept else row.value.text().strip(), row.secret.isChecked())
                for row in self.header_rows if row.name.text().strip()]
        self.team.save_push(self.push.isChecked(), self.endpoint.text().strip(), rows, self.url_query.query)
        self.team.save_query(self.backend.currentData(), self.query.text().strip(), self.service_query.query)
        return True
