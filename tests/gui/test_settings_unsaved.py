"""Settings that cannot be saved (the settings file's folder is a file here; a read-only disk in
tests/integration/test_settings_read_only_disk.py): QSettings kept them in memory and said only
``AccessError``, so OK in File › Settings… closed as if they were saved, and the next start came up
with the old ones, without a word. Now a box over the window says why and what to do."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings


def saved_through_the_dialog(qtbot, parent: QWidget, settings: AppSettings | None = None) -> QMessageBox | None:
    """Change the default budget in the settings dialog and press OK; the box it leaves, if any."""
    dialog = SettingsDialog(settings or AppSettings(), "/tmp/runs.db", parent)
    dialog.budget.setText("35")
    dialog.accept()
    assert dialog.result() == SettingsDialog.DialogCode.Accepted
    return parent.findChild(QMessageBox, "settings-unsaved")


@pytest.fixture
def in_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The settings file named inside a file, as if it were a folder (a dotfile that is no folder)."""
    blocker = tmp_path / "config"
    blocker.write_text("not a folder\n", encoding="utf-8")
    monkeypatch.setenv("RUN_INSPECTOR_SETTINGS", str(blocker / "settings.ini"))
    return blocker / "settings.ini"


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("could not be saved", "a part of the path is not a folder", "until Run Inspector closes")),
    ("de", ("konnten nicht", "ein Teil des Pfads ist kein Ordner", "bis Run Inspector geschlossen wird")),
])
def test_settings_that_cannot_be_saved_are_said_over_the_window(qtbot, in_a_file: Path, capsys,
                                                                language: str, words: tuple[str, ...]) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    switch_language(language)
    try:
        box = saved_through_the_dialog(qtbot, window)
    finally:
        switch_language("en")
    assert box is not None, "nothing said"
    said = box.text()
    assert str(in_a_file) in said and all(word in said for word in words), said
    assert said in capsys.readouterr().err  # and on stderr, for whoever started the window from a terminal
    assert AppSettings().default_budget_s == 35  # they hold for this session


def test_settings_saved_say_nothing(qtbot, _isolated_settings: Path) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    assert saved_through_the_dialog(qtbot, window) is None
    assert "default_budget_s=35" in _isolated_settings.read_text(encoding="utf-8")


def test_a_file_made_writable_since_is_not_named_again(qtbot, in_a_file: Path) -> None:
    """Qt's status keeps its first error for good: the file is looked at again, not the status. The window
    keeps one settings object for its life, as here."""
    settings, window = AppSettings(), QWidget()
    qtbot.addWidget(window)
    assert saved_through_the_dialog(qtbot, window, settings) is not None
    in_a_file.parent.unlink()
    in_a_file.parent.mkdir()
    second = QWidget()
    qtbot.addWidget(second)
    assert saved_through_the_dialog(qtbot, second, settings) is None
    assert "default_budget_s=35" in in_a_file.read_text(encoding="utf-8")
