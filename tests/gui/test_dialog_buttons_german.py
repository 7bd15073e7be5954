"""Every button of the window's dialogs is German in the German window: Qt's standard ones (OK, Cancel,
Close, Yes, No: Qt's own words, qtbase_de.qm, which the switch of language loads) and ours (Add,
Copy, Swap, ...), in a dialog opened before the switch and in one opened after it.

A dialog made with only our catalogue in German (``i18n.set_language``, not the window's switch) kept Qt's
"Cancel" beside our "Hinzufügen": the switch is what loads Qt's words."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QMessageBox, QWidget

from inspector.gui.language import switch_language

#: Qt's standard buttons in German, as qtbase_de.qm says them (a mnemonic's ``&`` left out).
GERMAN = {QDialogButtonBox.StandardButton.Ok: "OK", QDialogButtonBox.StandardButton.Cancel: "Abbrechen",
          QDialogButtonBox.StandardButton.Close: "Schließen", QDialogButtonBox.StandardButton.Yes: "Ja",
          QDialogButtonBox.StandardButton.No: "Nein"}
#: English words no German button has.
ENGLISH = {"ok?", "cancel", "close", "yes", "no", "add", "copy", "open", "swap", "allow", "refuse", "decline",
           "send", "quit", "choose", "save", "replay", "move", "folder"}


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    running = asyncio.new_event_loop()
    yield running
    running.close()


@pytest.fixture
def german() -> Iterator[None]:
    yield
    switch_language("en")


def _dialogs(window, loop: asyncio.AbstractEventLoop, tmp_path: Path) -> list[QWidget]:
    """One of each dialog of the window with a button box (and a message box, Qt's note dialog)."""
    from inspector.gui.dialogs.about_dialog import AboutDialog
    from inspector.gui.dialogs.database_dialog import DatabaseProblemDialog
    from inspector.gui.dialogs.elicitation_dialog import ElicitationDialog, SamplingDialog
    from inspector.gui.dialogs.import_dialog import ImportDialog
    from inspector.gui.dialogs.replay_server_dialog import ReplayServerDialog
    from inspector.gui.dialogs.server_dialog import ServerDialog
    from inspector.gui.dialogs.settings_dialog import SettingsDialog
    from inspector.gui.help_menu import DocumentationDialog, ShortcutsDialog
    from inspector.gui.runs.notes import _NoteDialog
    from inspector.gui.runs.trace_by_id import TraceByIdDialog
    from inspector.gui.widgets.image_view import FullSizeDialog, ShownImage
    from inspector.gui.workbench.server_requests import PendingQuestion
    from inspector.mcp.server_configs import read_server_config
    from inspector.store.faults import DamagedDatabaseError
    from inspector.store.secrets import NoSecretKeeper

    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"vault": {"url": "http://127.0.0.1:9/mcp"}}}), "utf-8")
    schema = {"type": "object", "properties": {"name": {"type": "string"}}}
    note = _NoteDialog(window)
    note.setLabelText("?")
    return [
        SettingsDialog(window.settings, str(window.db_path), window, secrets=NoSecretKeeper()),
        ServerDialog(window, url="http://127.0.0.1:9/mcp"),
        ImportDialog(read_server_config(config), config.name, window),
        AboutDialog(window.db_path, parent=window), ShortcutsDialog(window), DocumentationDialog(window),
        DatabaseProblemDialog(DamagedDatabaseError("damaged", window.db_path), window.db_path, window),
        ElicitationDialog(PendingQuestion(loop, loop.create_future(), 30, "Who?", schema), "Demo", window),
        SamplingDialog(PendingQuestion(loop, loop.create_future(), 30, params={"messages": [
            {"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 5}), "Demo", window),
        ReplayServerDialog("?", [], window), TraceByIdDialog(window.team.team, window),
        FullSizeDialog(1, ShownImage("a.png", "image/png", None), window),
        QMessageBox(QMessageBox.Icon.Question, "?", "?", QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                    window),
        note,
    ]


def _buttons(dialog: QWidget) -> list[tuple[str, str]]:
    """(dialog, text) of every button of the dialog's button boxes, a standard one checked for Qt's German words."""
    found = []
    for box in dialog.findChildren(QDialogButtonBox):
        for button in box.buttons():
            text = button.text().replace("&", "")
            standard = box.standardButton(button)
            if standard in GERMAN:
                assert text == GERMAN[standard], (type(dialog).__name__, text)
            found.append((type(dialog).__name__, text))
    return found


def test_every_button_of_every_dialog_is_german_made_before_the_switch_or_after(qtbot, make_window, german,
                                                                                loop, tmp_path: Path) -> None:
    window = make_window(wait_tools=False)
    before = _dialogs(window, loop, tmp_path)
    switch_language("de")
    after = _dialogs(window, loop, tmp_path)
    said = {}
    for made, dialogs in (("before", before), ("after", after)):
        said[made] = []
        for dialog in dialogs:
            qtbot.addWidget(dialog)
            dialog.show()
            QApplication.processEvents()
            said[made] += _buttons(dialog)
    assert len(said["after"]) > 20, said
    assert [(name, text) for name, text in said["after"] if text.lower().strip(".…") in ENGLISH] == []
    assert said["before"] == said["after"]  # a dialog open as the language switched says what a new one says
    for dialog in before + after:
        if isinstance(dialog, QDialog):
            dialog.reject()
