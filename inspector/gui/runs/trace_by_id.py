"""File → Open trace by id…: which query service (Jaeger or Tempo, its address from Settings) and
which trace id; the trace is then opened in a worker like a file (Transfers.open_trace_by_id). A query
in the address (a gateway's key) is kept as a secret, as in Settings, and put back where it is asked."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QFormLayout, QLabel, QLineEdit, QWidget

from inspector.i18n import _
from inspector.mcp.address_query import with_query

from ..dialogs.form_dialog import finish_form, fit_form, form_width
from ..dialogs.url_query import ServiceQuery, kept_query
from ..language import on_language_changed, translated, translated_item
from ..team_settings import TeamSettings
from ..widgets.accessibility import label_combo, say_problems
from ..widgets.hints import PROBLEM_STYLE, mark_hint


class TraceByIdDialog(QDialog):
    """Asks for the trace id (and the query service, remembered in the settings)."""

    def __init__(self, team: TeamSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        translated(self, "setWindowTitle", lambda: _("Open trace by id"))
        self.team = team
        #: The trace id or address refused, while it is shown (said again after a switch of language).
        self._problem: Exception | None = None
        self.backend = QComboBox()
        translated_item(self.backend, lambda: "Jaeger", "jaeger")
        translated_item(self.backend, lambda: "Tempo", "tempo")
        self.backend.setCurrentIndex(max(self.backend.findData(team.query_backend), 0))
        self.address = QLineEdit(team.query_url)
        self.address.setPlaceholderText("http://127.0.0.1:16686")
        translated(self.address, "setAccessibleName", lambda: _("The trace query service's address"))
        self.service_query = ServiceQuery(self.address, kept_query(team.service_query(), team.query_secret_kept))
        self.service_query.move()  # an address an earlier version saved with its query
        self.trace_id = QLineEdit()
        self.trace_id.setPlaceholderText("4bf92f3577b34da6a3ce929d0e0e4736")
        translated(self.trace_id, "setAccessibleName", lambda: _("Trace id"))
        note = translated(QLabel(), "setText", lambda: _(
            "The trace is read through the same checks as an opened file, and kept beside the run database: "
            "opening the same id again does not ask the service again."))
        note.setWordWrap(True)
        mark_hint(note)
        self.error = QLabel()
        self.error.setStyleSheet(PROBLEM_STYLE)
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setWordWrap(True)  # a long id said back: wrapped, not a sideways scroll
        self.error.hide()
        for field in (self.address, self.trace_id):
            field.textEdited.connect(lambda _text: self.error.hide())
        form = QFormLayout()
        service = translated(QLabel(), "setText", lambda: _("Query service"))
        label_combo(self.backend, lambda: _("Kind of trace query service"), service)
        form.addRow(service, self.backend)
        form.addRow(translated(QLabel(), "setText", lambda: _("Address")), self.address)
        form.addRow("", self.service_query.row)
        form.addRow(translated(QLabel(), "setText", lambda: _("Trace id")), self.trace_id)
        form.addRow(note)
        form.addRow(self.error)
        finish_form(self, form)
        self.trace_id.setFocus()
        on_language_changed(self, self._new_language_shown)

    def accept(self) -> None:  # noqa: D102
        from inspector.capture.pull import PullError, trace_id_of, trace_query_url

        self.service_query.move()
        try:
            trace_query_url(self.backend.currentData(), self.address.text(), trace_id_of(self.trace_id.text()))
        except PullError as error:
            self._problem = error
            self._say_problem()
            self.error.show()
            fit_form(self, grow_only=True)
            say_problems(self)
            return
        self.team.save_query(self.backend.currentData(), self.address.text().strip(), self.service_query.query)
        super().accept()

    def _say_problem(self) -> None:
        from inspector.i18n.messages import translate

        self.error.setText(translate(self._problem) if self._problem is not None else "")

    def _new_language_shown(self) -> None:
        """After the words of the new language (its slot comes after theirs): the problem shown said in it,
        and the dialog sized to them (German's longer note took a line more, behind a scroll bar)."""
        self._say_problem()
        self.resize(form_width(self), self.height())
        fit_form(self)

    def chosen(self) -> tuple[str, str, str]:
        """(backend, address with its secret query, trace id) as accepted; a query kept that the keyring had
        not given when the dialog opened is read from the settings now (see TeamBackend.open_trace_by_id)."""
        query = self.service_query.query
        if query == "":  # kept, and not given by the keyring when the dialog opened
            query = self.team.service_query()
        address = with_query(self.address.text().strip(), query)
        return self.backend.currentData(), address, self.trace_id.text().strip()


__all__ = ["TraceByIdDialog"]
