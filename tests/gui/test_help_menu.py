"""The Help menu: About says the installed version, licence and where the data is; the shortcut list is
read from the window's actions (Run and Cancel among them); Documentation says where it is. All plain text."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel

from inspector.gui.help_menu import AboutDialog, DocumentationDialog, ShortcutsDialog, plain_action_text
from inspector.gui.language import switch_language

ROOT = Path(__file__).resolve().parents[2]


def _labels_are_plain(dialog) -> None:
    for label in dialog.findChildren(QLabel):
        assert label.textFormat() == Qt.TextFormat.PlainText, label.text()


def test_the_help_menu_is_last_and_has_its_three_entries(make_window) -> None:
    window = make_window()
    titles = [plain_action_text(action.text()) for action in window.menuBar().actions()]
    assert titles[-1] == "Help"
    help_menu = window.help_menu
    assert [plain_action_text(a.text()) for a in help_menu.menu.actions() if not a.isSeparator()] == [
        "Keyboard shortcuts…", "Documentation…", "About Run Inspector…"]


def test_about_says_version_licence_data_folder_and_database(qtbot, make_window) -> None:
    window = make_window()
    about = window.help_menu.show_about()
    qtbot.addWidget(about)
    about.show()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    installed = importlib.metadata.version("run-inspector")
    assert installed == project["version"]  # the package metadata is the project's
    assert about.title.text() == f"Run Inspector {installed}"
    body = about.body.text()
    assert f"Version: {installed}" in body
    assert f"Licence: {project['license']}" in body
    assert f"Run database: {window.db_path}" in body
    assert "Data folder: " in body and "Settings file: " in body
    _labels_are_plain(about)


def test_shortcuts_are_read_from_the_window(qtbot, make_window) -> None:
    window = make_window()
    dialog = window.help_menu.show_shortcuts()
    qtbot.addWidget(dialog)
    rows = dict(dialog.rows())
    assert rows["Run › Run the tool"] == "Ctrl+Return, Ctrl+Enter"
    assert rows["Run › Cancel the selected operation"] == "Esc"
    assert rows["File › Open trace…"] == QKeySequence(QKeySequence.StandardKey.Open).toString(
        QKeySequence.SequenceFormat.NativeText)
    assert "Runs › Find in this run" in rows
    assert rows["Help › Keyboard shortcuts…"]
    # A new action with a shortcut is listed the next time: the list cannot go stale.
    extra = QAction("&Frobnicate", window)
    extra.setShortcut(QKeySequence("Ctrl+Shift+F9"))
    window.menuBar().actions()[0].menu().addAction(extra)
    assert dict(ShortcutsDialog(window).rows())["File › Frobnicate"] == "Ctrl+Shift+F9"
    _labels_are_plain(dialog)


def test_shortcuts_and_about_in_german(qtbot, make_window) -> None:
    window = make_window()
    dialog = ShortcutsDialog(window)
    about = AboutDialog(window.db_path, "", window)
    qtbot.addWidget(dialog)
    qtbot.addWidget(about)
    try:
        switch_language("de")
        rows = dict(dialog.rows())
        assert dialog.windowTitle() == "Tastenkürzel"
        assert any(what.startswith("Ausführen › ") for what in rows), rows
        assert "Lizenz: MIT" in about.body.text()
    finally:
        switch_language("en")


def test_documentation_names_the_readme_and_docs(qtbot) -> None:
    dialog = DocumentationDialog()
    qtbot.addWidget(dialog)
    assert dialog.paths == [ROOT / "README.md", ROOT / "docs"]
    assert str(ROOT / "README.md") in dialog.text.text()
    assert [button.text() for button in dialog.open_buttons] == ["Open README.md", "Open docs"]
    _labels_are_plain(dialog)
