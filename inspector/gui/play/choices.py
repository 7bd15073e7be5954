"""What to play and where: a shipped scenario, a scenario file or a real model (OpenAI-compatible:
base URL, model, API key kept in the keyring), and the server (a fresh demo server with the
scenario's modes, or a configured one). :meth:`PlayChoices.job` turns the choice into a job."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.formatting import joined
from inspector.i18n.messages import translate
from inspector.i18n.scenarios import described, run_title, titled

from ..language import translated
from ..widgets.accessibility import label_combo
from ..widgets.hints import mark_hint
from ..widgets.plain_text import label_text, visible
from ..widgets.snug_label import SnugLabel
from .model_settings import KeyNotRead, ModelSettings, key_place
from .worker import PlayJob

#: The most characters of a description (one line, as `scenario --list` shows it), or of what is wrong
#: with a file, shown above the run: a few lines on a small screen, the steps keep their room.
DESCRIPTION_CHARS = 500

FILE, MODEL = "file", "model"
#: The scenario chosen when the tab opens: the run that goes well (a first Play is not a failed run).
DEFAULT_SCENARIO = "happy-path"
#: The server entry of a fresh demo server (the default).
FRESH_DEMO = ""


class ChoiceError(ValueError):
    """What is missing or wrong in the choice, as one sentence to show."""


class KeyBeingRead(ChoiceError):
    """The model's key kept in the keyring is being read (on the keyring's line): Play waits for it
    (:meth:`PlayChoices.when_key_read`)."""


class PlayChoices(QWidget):
    """The form above the played run: what to play, its description, and on which server."""

    #: The choice changed (what Play would play).
    changed = Signal()

    def __init__(self, model_settings: ModelSettings,
                 servers: Callable[[], list[tuple[str, str]]],
                 endpoint_for: Callable[[str], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from inspector.agent import shipped_scenarios

        self.scenarios = shipped_scenarios()
        self.model_settings = model_settings
        self._servers, self._endpoint_for = servers, endpoint_for
        self._file_scenario: Any = None
        #: The scenario file chosen (read again at each Play: a mistake corrected in an editor counts).
        self.file_path: Path | None = None
        #: What is wrong with it (a ScenarioError), said in the reader's language.
        self._file_error: Any = None
        self.what = QComboBox()
        self.description = mark_hint(SnugLabel())  # as high as its lines, no empty space around
        self.file_button = translated(QPushButton(), "setText", lambda: _("Ch&oose a file…"))
        self.file_button.clicked.connect(self.choose_file)
        self.model_url = QLineEdit()
        self.model_name = QLineEdit()
        self.api_key = QLineEdit()
        self.api_key.setEchoMode(QLineEdit.EchoMode.Password)
        self.prompt = QLineEdit()
        self.server = QComboBox()
        # Its width is the form's, not its longest entry's: a server's long address (a token in its query)
        # made the Play tab 1,500 px wide at least, the window wider than the screen.
        self.server.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.server.setMinimumContentsLength(24)
        self._build()
        arrived = getattr(model_settings.keeper, "arrived", None)  # the window's keeper read a key
        if arrived is not None:
            arrived.connect(lambda _place: self._say_key())
        self.fill()

    def _build(self) -> None:
        form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        what_label = translated(QLabel(), "setText", lambda: _("Pla&y:"))
        label_combo(self.what, lambda: _("What to play"), what_label)
        row = QHBoxLayout()
        row.addWidget(self.what, 1)
        row.addWidget(self.file_button)
        form.addRow(what_label, row)
        form.addRow("", self.description)
        self._model_rows = []
        for edit, label, name in (
                (self.model_url, lambda: _("Model &address:"), lambda: _("Model address")),
                (self.model_name, lambda: _("&Model:"), lambda: _("Model name")),
                (self.api_key, lambda: _("API &key:"), lambda: _("API key")),
                (self.prompt, lambda: _("Promp&t:"), lambda: _("Prompt"))):
            shown = translated(QLabel(), "setText", label)
            shown.setBuddy(edit)
            translated(edit, "setAccessibleName", name)
            form.addRow(shown, edit)
            self._model_rows.append((shown, edit))
        translated(self.model_url, "setPlaceholderText", lambda: _("http://127.0.0.1:11434/v1 (Ollama)"))
        translated(self.prompt, "setPlaceholderText", lambda: _("What the model is asked to do"))
        server_label = translated(QLabel(), "setText", lambda: _("S&erver:"))
        label_combo(self.server, lambda: _("Server to play against"), server_label)
        form.addRow(server_label, self.server)
        self.model_url.editingFinished.connect(self._say_key)
        self.what.currentIndexChanged.connect(self._what_changed)
        self.server.currentIndexChanged.connect(lambda _i: self.changed.emit())

    def fill(self) -> None:
        """List the scenarios and the servers again (after a switch of language, or new servers)."""
        chosen, server = self.what.currentData(), self.server.currentData()
        self.what.blockSignals(True)
        self.what.clear()
        for name in self.scenarios:
            self.what.addItem(visible(titled(name)), name)
        self.what.addItem(_("A scenario file…"), FILE)
        self.what.addItem(_("A model (OpenAI-compatible)"), MODEL)
        self.what.setCurrentIndex(max(0, self.what.findData(DEFAULT_SCENARIO if chosen is None else chosen)))
        self.what.blockSignals(False)
        self.server.blockSignals(True)
        self.server.clear()
        self.server.addItem(_("A fresh demo server (with the scenario's modes)"), FRESH_DEMO)
        for url, label in self._servers():
            self.server.addItem(visible(label), url)
        self.server.setCurrentIndex(max(0, self.server.findData(server)) if server is not None else 0)
        self.server.blockSignals(False)
        if not self.model_url.text():
            self.model_url.setText(self.model_settings.url)
            self.model_name.setText(self.model_settings.model)
        self._what_changed()

    def lock(self, locked: bool) -> None:
        """While a run plays its choice cannot be changed: the description above the steps stays the
        played run's (another scenario chosen meanwhile described one that was not playing)."""
        for field in (self.what, self.file_button, self.server, *(edit for _label, edit in self._model_rows)):
            field.setEnabled(not locked)

    def choose(self, name: str) -> bool:
        """Choose a shipped scenario by name (or ``file``, ``model``)."""
        index = self.what.findData(name)
        if index >= 0:
            self.what.setCurrentIndex(index)
        return index >= 0

    def choose_server(self, url: str) -> bool:
        index = self.server.findData(url)
        if index >= 0:
            self.server.setCurrentIndex(index)
        return index >= 0

    def choose_file(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(self, _("Choose a scenario file"), "",
                                                    _("Scenario files (*.json);;All files (*)"))
        if path:
            self.load_file(Path(path))

    def load_file(self, path: Path) -> None:
        """Read a scenario file (checked whole); its description shows, or what is wrong with it."""
        from inspector.agent import ScenarioError, load_scenario

        self.file_path = path
        try:
            self._file_scenario, self._file_error = load_scenario(str(path)), None
        except ScenarioError as exc:
            self._file_scenario, self._file_error = None, exc
        self.choose(FILE)
        self._what_changed()

    def _what_changed(self, _index: int = 0) -> None:
        kind = self.what.currentData()
        for label, edit in self._model_rows:
            label.setVisible(kind == MODEL)
            edit.setVisible(kind == MODEL)
        self.file_button.setVisible(kind == FILE)
        fresh = self.server.findData(FRESH_DEMO)
        if fresh >= 0:  # a model has no scenario whose modes the demo server would take
            self.server.setItemText(fresh, _("A fresh demo server") if kind == MODEL
                                    else _("A fresh demo server (with the scenario's modes)"))
        scenario = self.scenario()
        if scenario is not None:
            # A file's words (and its path, in what is wrong with it) wrap and are cut: no file decides the
            # window's size ("https://…" of a thousand characters made it 4,600 px wide).
            self.description.setText(label_text(described(scenario.description), DESCRIPTION_CHARS))
        elif kind == FILE and self._file_error is not None:  # what is wrong, in the reader's language
            self.description.setText(label_text(translate(self._file_error), DESCRIPTION_CHARS))
        elif kind == FILE:
            self.description.setText(_("Choose a scenario file (see docs/scenarios.md for the format)."))
        else:
            self.description.setText(_("A model you name answers; it is offered the server's tools."))
            self._say_key()
        self.changed.emit()

    def _say_key(self) -> None:
        """The key field's placeholder says whether a key is kept (it is never shown)."""
        where = self.model_settings.kept_where(self.model_url.text().strip())
        self.api_key.setPlaceholderText({"keyring": _("kept in the keyring"),
                                         "session": _("kept until the window closes"),
                                         "reading": _("being read from the keyring…"),
                                         "unreadable": _("kept in the keyring, which would not give it")}.get(
                                             where, _("none")))

    def when_key_read(self, then: Callable[[], None]) -> None:
        """Call ``then`` once the chosen model's key has been read from the keyring (or could not be)."""
        self.model_settings.keeper.when_read(key_place(self.model_url.text().strip()), then)

    def scenario(self) -> Any:
        kind = self.what.currentData()
        if kind == FILE:
            return self._file_scenario
        return self.scenarios.get(kind) if kind not in (None, MODEL) else None

    # -- the job ------------------------------------------------------------------------------------

    def job(self) -> PlayJob:
        """What Play plays now, or :class:`ChoiceError` saying what is missing."""
        server_url = self.server.currentData() or FRESH_DEMO
        server = None if server_url == FRESH_DEMO else self._endpoint_for(server_url)
        if server_url != FRESH_DEMO and server is None:
            raise ChoiceError(_("This server cannot be used now; see the status line."))
        if self.what.currentData() == MODEL:
            return self._model_job(server)
        if self.what.currentData() == FILE and self.file_path is not None:
            self.load_file(self.file_path)  # as it is now: corrected since, or broken since
            if self._file_error is not None:
                raise ChoiceError(_("Nothing was played: the scenario file has a mistake, said above. "
                                    "Correct it and press Play again."))
        chosen = self.scenario()
        if chosen is None:
            raise ChoiceError(_("Choose a scenario file first."))
        from inspector.agent import ScriptedModel, Voice

        scenario = chosen.played(_)  # a shipped one in the language of the window
        return PlayJob(title=run_title(scenario.name), source="scenario",
                       make_model=lambda: ScriptedModel(scenario, Voice(_, joined)), prompt=scenario.prompt,
                       server=server,
                       demo_modes=dict(scenario.demo_server), era=scenario.era, budget_s=scenario.budget_s,
                       cancel_after_s=scenario.cancel_after_s, max_rounds=scenario.max_rounds)

    def _model_job(self, server: Any) -> PlayJob:
        url, model = self.model_url.text().strip(), self.model_name.text().strip()
        prompt = self.prompt.text().strip()
        if not url or not model or not prompt:
            raise ChoiceError(_("A model run needs the model's URL, its name and a prompt."))
        try:
            api_key = self.model_settings.remember(url, model, self.api_key.text())
        except KeyNotRead as exc:
            raise (KeyBeingRead if exc.reading else ChoiceError)(translate(exc)) from None
        except ValueError as exc:  # the URL cannot be a model's: said in the reader's language
            raise ChoiceError(translate(exc)) from None
        self.api_key.clear()
        self._say_key()
        from inspector.mcp import Secrets

        secrets = Secrets().with_values(api_key)

        def make_model() -> Any:
            from inspector.agent.chat_model import OpenAIChatModel

            return OpenAIChatModel(url, model, api_key=api_key, secrets=secrets)

        return PlayJob(title=f"agent {model}: {prompt[:60]}", source="live", make_model=make_model, prompt=prompt,
                       server=server, secrets=secrets)
