"""The application's settings: default budget (with the reference's rules), demo autostart, database."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import LANGUAGES, _, choose_language, current_language
from inspector.i18n.formatting import format_number, format_seconds
from inspector.mcp import DEFAULT_BUDGET_SECONDS, LOG_LEVELS, MAXIMUM_BUDGET_SECONDS, MINIMUM_LEG_SECONDS
from inspector.store.secrets import SecretKeeper, system_secret_keeper

from ..language import on_language_changed, switch_language, translated, translated_item
from ..settings import AppSettings
from ..settings_saving import unsaved_settings_note
from ..team_settings import TeamSettings
from ..widgets.accessibility import label_combo, say_problems
from ..widgets.budget_field import BudgetField
from ..widgets.hints import PROBLEM_STYLE, mark_hint, readable_placeholders
from ..widgets.notice_box import notice_box
from .form_dialog import finish_form, fit_form, form_width
from .sampling_tokens import SamplingTokensField
from .team_fields import TeamFields


class SettingsDialog(QDialog):
    """Edits :class:`AppSettings`; nothing is saved unless every field is valid."""

    def __init__(self, settings: AppSettings, current_database: str, parent: QWidget | None = None,
                 secrets: SecretKeeper | None = None) -> None:
        super().__init__(parent)
        translated(self, "setWindowTitle", lambda: _("Settings"))
        self._settings = settings
        self.budget_field = BudgetField(settings.default_budget_s,
                                        accessible_name=lambda: _("Default budget in seconds"))
        self.budget, self.budget_error = self.budget_field.edit, self.budget_field.error
        rules = translated(QLabel(), "setText", lambda: _(
            "The budget is the time one whole operation may take (default {default} s): the handshake and "
            "the request spend it in order; once nothing is left, the next request is not sent. "
            "The largest is {most} s (a week).").format(
                default=format_seconds(DEFAULT_BUDGET_SECONDS), most=format_number(MAXIMUM_BUDGET_SECONDS)))
        rules.setWordWrap(True)
        mark_hint(rules)
        self.demo = translated(QCheckBox(), "setText", lambda: _("Start the demo server when Run Inspector starts"))
        self.demo.setChecked(settings.demo_autostart)
        self.database = QLineEdit(settings.database_path)
        self.database.setPlaceholderText(current_database)
        translated(self.database, "setAccessibleName", lambda: _("Run database file"))
        browse = translated(QPushButton(), "setText", lambda: _("Choose…"))
        translated(browse, "setAccessibleName", lambda: _("Choose the run database file"))
        browse.clicked.connect(self._browse)
        database_row = QHBoxLayout()
        database_row.addWidget(self.database, 1)
        database_row.addWidget(browse)
        database_note = translated(QLabel(), "setText", lambda: _(
            "A new database location takes effect the next time Run Inspector starts."))
        database_note.setWordWrap(True)
        mark_hint(database_note)
        # Its words short, the rest a note under it: a check box's words do not wrap (in German they were
        # 733 px, wider than an 800 px screen leaves the form).
        self.allow_sampling = translated(QCheckBox(), "setText", lambda: _("Let servers use this model (sampling)"))
        self.allow_sampling.setChecked(settings.allow_sampling)
        sampling_note = translated(QLabel(), "setText", lambda: _("Each request is shown for confirmation first."))
        sampling_note.setWordWrap(True)
        mark_hint(sampling_note)
        self.sampling_url = QLineEdit(settings.sampling_model_url)
        self.sampling_url.setPlaceholderText("http://127.0.0.1:11434/v1")
        translated(self.sampling_url, "setAccessibleName", lambda: _("The model server's address for sampling"))
        self.sampling_model = QLineEdit(settings.sampling_model)
        translated(self.sampling_model, "setAccessibleName", lambda: _("The model's name for sampling"))
        translated(self.sampling_model, "setPlaceholderText", lambda: _("the model's name, e.g. llama3.2"))
        self.sampling_tokens = SamplingTokensField(settings.sampling_max_tokens)
        self.sampling_error = QLabel()
        self.sampling_error.setStyleSheet(PROBLEM_STYLE)
        self.sampling_error.setTextFormat(Qt.TextFormat.PlainText)
        self.sampling_error.hide()
        from ..workbench.server_log import level_word

        self.log_level = QComboBox()
        translated_item(self.log_level, lambda: _("Off (the server's own choice)"), "")
        for level in LOG_LEVELS:
            translated_item(self.log_level, lambda level=level: _("{level} and above").format(level=level_word(level)),
                            level)
        self.log_level.setCurrentIndex(max(self.log_level.findData(settings.server_log_level or ""), 0))
        log_note = translated(QLabel(), "setText", lambda: _(
            "Asked with logging/setLevel of the server you listen to (at once) and in each operation's "
            "session (from the next operation on); a server that refuses it is named in the Server log."))
        log_note.setWordWrap(True)
        mark_hint(log_note)
        self.language = QComboBox()
        translated_item(self.language, lambda: _("System ({language})").format(
            language=LANGUAGES[choose_language(None)]), "")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)  # each language named in its own language
        # The language in force: the setting's, or `--lang`'s for this session (saved only if chosen here).
        in_force = settings.language if choose_language(settings.language or None) == current_language() \
            else current_language()
        self.language.setCurrentIndex(max(self.language.findData(in_force), 0))
        #: The entry shown when the dialog opened: OK keeps the setting unless another was chosen.
        self.language_shown = self.language.currentIndex()
        #: A language was chosen in the box, perhaps the one it showed (`--lang`'s): OK saves it.
        self.language_chosen = False
        self.language.activated.connect(lambda _index: setattr(self, "language_chosen", True))
        #: The language shown when the dialog opened: Cancel goes back to it.
        self.language_before = current_language()
        # A language chosen is shown at once, in this dialog and the window, so it can be judged.
        self.language.currentIndexChanged.connect(lambda _index: self._show_language())
        form = QFormLayout()
        # Where the screen is narrow (800 px, in German) a row too wide beside its label goes under it, rather
        # than the whole form scrolling sideways; where there is room every row is beside its label.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        # The combo boxes keep the width of their words (a switch of language lays the form out again,
        # and would otherwise stretch them across it).
        for combo in (self.language, self.log_level):
            combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        language_label = translated(QLabel(), "setText", lambda: _("&Language"))
        label_combo(self.language, lambda: _("Language of the window"), language_label)
        #: The demo server is a process of its own that says its texts in the language it started in.
        self.language_note = translated(QLabel(), "setText", lambda: _(
            "The demo server says its own texts (its tools' descriptions, its results) in the language it "
            "started in: a new language reaches them the next time Run Inspector starts."))
        self.language_note.setWordWrap(True)
        mark_hint(self.language_note)
        language_column = QVBoxLayout()
        language_column.addWidget(self.language)
        language_column.addWidget(self.language_note)
        form.addRow(language_label, language_column)
        budget_column = QVBoxLayout()
        budget_column.addWidget(self.budget_field)
        budget_column.addWidget(rules)
        form.addRow(_buddy(lambda: _("Default &budget (s)"), self.budget), budget_column)
        form.addRow(_buddy(lambda: _("&Demo server"), self.demo), self.demo)
        database_column = QVBoxLayout()
        database_column.addLayout(database_row)
        database_column.addWidget(database_note)
        form.addRow(_buddy(lambda: _("R&un database"), self.database), database_column)
        sampling_column = QVBoxLayout()
        sampling_column.addWidget(self.allow_sampling)
        sampling_column.addWidget(sampling_note)
        sampling_column.addWidget(self.sampling_url)
        sampling_column.addWidget(self.sampling_model)
        sampling_column.addWidget(self.sampling_tokens)
        sampling_column.addWidget(self.sampling_error)
        form.addRow(_buddy(lambda: _("Sa&mpling"), self.allow_sampling), sampling_column)
        log_column = QVBoxLayout()
        log_column.addWidget(self.log_level)
        log_column.addWidget(log_note)
        log_label = translated(QLabel(), "setText", lambda: _("Server l&og level"))
        label_combo(self.log_level, lambda: _("Server log level"), log_label)
        form.addRow(log_label, log_column)
        self.team = TeamFields(TeamSettings(settings.qsettings, secrets or system_secret_keeper()))
        form.addRow(_buddy(lambda: _("&Team backend"), self.team.push), self.team)
        receiver = self._receiver_column()
        form.addRow(_buddy(lambda: _("Trace &receiver (OTLP)"), self.receiver_port), receiver)
        finish_form(self, form)
        readable_placeholders(self)  # after the form is the dialog's: it looks among its children
        on_language_changed(self, self._new_language_shown)

    def _new_language_shown(self) -> None:
        """After the words of the language just chosen (its slot comes after theirs): its numbers
        ("1.024"), and a width its longer words fit in (the form is clipped at the right, not scrolled)."""
        self.setLocale(QLocale())
        self.resize(form_width(self), self.height())
        fit_form(self)

    def _receiver_column(self) -> QVBoxLayout:
        self.receiver_port = QSpinBox()
        self.receiver_port.setRange(1, 65535)
        self.receiver_port.setValue(self._settings.receiver_port)
        self.receiver_port.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        translated(self.receiver_port, "setAccessibleName", lambda: _("Port of the trace receiver"))
        translated(self.receiver_port, "setPrefix", lambda: _("port "))
        self.receiver_autostart = translated(QCheckBox(), "setText", lambda: _(
            "Start the receiver when Run Inspector starts"))
        self.receiver_autostart.setChecked(self._settings.receiver_autostart)
        note = translated(QLabel(), "setText", lambda: _(
            "File › Receive OTLP traces listens on 127.0.0.1 at this port (OTLP/HTTP: protobuf or JSON at "
            "/v1/traces); agents export their traces there and each trace becomes a run. A new port takes effect "
            "the next time the receiver starts."))
        note.setWordWrap(True)
        mark_hint(note)
        column = QVBoxLayout()
        column.addWidget(self.receiver_port)
        column.addWidget(self.receiver_autostart)
        column.addWidget(note)
        return column

    def _show_language(self) -> None:
        wanted = choose_language(self.language.currentData() or None)
        if wanted != current_language():
            switch_language(wanted)

    def reject(self) -> None:  # noqa: D102
        if current_language() != self.language_before:
            switch_language(self.language_before)
        super().reject()

    def _browse(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(self, _("Run database"), self.database.text(),
                                                    _("SQLite databases (*.db *.sqlite)"),
                                                    options=QFileDialog.Option.DontConfirmOverwrite)
        if path:
            self.database.setText(path)

    def _sampling_usable(self, url: str, model: str) -> bool:
        """Whether sampling is off, or has the model server's address and the model's name (else says so)."""
        if self.allow_sampling.isChecked() and not (url.startswith(("http://", "https://")) and model):
            self.sampling_error.setText(_("To let servers use a model, give the model server's address "
                                          "(http:// or https://) and the model's name."))
            self.sampling_error.show()
            return False
        return True

    def accept(self) -> None:  # noqa: D102
        entry = self.budget_field.check()
        url, model = self.sampling_url.text().strip(), self.sampling_model.text().strip()
        if entry.given is None or not self._sampling_usable(url, model) or not self.team.save():
            say_problems(self)  # shown beside their fields, where a screen reader does not look
            return
        if self.language_chosen or self.language.currentIndex() != self.language_shown:
            self._settings.language = self.language.currentData() or ""
        self._settings.allow_sampling = self.allow_sampling.isChecked()
        self._settings.sampling_model_url = url
        self._settings.sampling_model = model
        self._settings.sampling_max_tokens = self.sampling_tokens.tokens.value()
        self._settings.default_budget_s = max(entry.given, float(MINIMUM_LEG_SECONDS))
        self._settings.demo_autostart = self.demo.isChecked()
        self._settings.database_path = self.database.text().strip()
        self._settings.server_log_level = self.log_level.currentData() or None
        self._settings.receiver_port = self.receiver_port.value()
        self._settings.receiver_autostart = self.receiver_autostart.isChecked()
        self._settings.sync()
        super().accept()
        note = unsaved_settings_note(self._settings.qsettings)
        if note is not None:  # over the window: this dialog is closed
            notice_box(self.parentWidget() or self, _("Run Inspector: settings"), note, "settings-unsaved")


def _buddy(message: Callable[[], str], control: QWidget) -> QLabel:
    """A form row's label whose Alt+letter (the "&" in ``message()``) takes the focus to ``control``."""
    label = translated(QLabel(), "setText", message)
    label.setBuddy(control)
    return label
