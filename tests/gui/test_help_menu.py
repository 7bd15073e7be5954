"""The Help menu: About says the installed version, licence and where the data is; the shortcut list is
read from the window's actions (Run and Cancel among them); Documentation says where it is. All plain text."""

from __future__ import annotations

import importlib.metadata
import platform
import tomllib
from pathlib import Path

import PySide6
import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot, qVersion
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QLabel, QStyleOptionMenuItem

from inspector.gui.help_menu import AboutDialog, DocumentationDialog, ShortcutsDialog, plain_action_text
from inspector.gui.language import switch_language
from inspector.logfile import log_path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).parent / "screenshots"


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
    assert f"Log file: {log_path()}" in body
    assert f"Qt: Qt {qVersion()}, PySide6 {PySide6.__version__}" in body
    assert f"Python: {platform.python_implementation()} {platform.python_version()}" in body
    assert f"Platform: {platform.platform()}" in body
    _labels_are_plain(about)


def test_about_copies_its_facts_for_a_bug_report_in_english(qtbot, make_window) -> None:
    window = make_window()
    about = window.help_menu.show_about()
    qtbot.addWidget(about)
    about.show()
    QGuiApplication.clipboard().clear()
    try:
        switch_language("de")
        assert about.copy_button.text() == "Für einen Fehlerbericht &kopieren"
        qtbot.mouseClick(about.copy_button, Qt.MouseButton.LeftButton)
        assert about.copied.text().startswith("In die Zwischenablage kopiert")
    finally:
        switch_language("en")
    copied = QGuiApplication.clipboard().text()
    installed = importlib.metadata.version("run-inspector")
    assert copied.splitlines()[:3] == [f"Run Inspector {installed}", f"Version: {installed}", "Licence: MIT"]
    for line in (f"Run database: {window.db_path}", f"Log file: {log_path()}", f"Qt: Qt {qVersion()}",
                 f"Python: {platform.python_implementation()} {platform.python_version()}", "Platform: "):
        assert any(each.startswith(line) for each in copied.splitlines()), (line, copied)
    assert "<" not in copied  # plain text, no markup
    assert copied == about.copy_for_bug_report()


class FileOpener(QObject):
    """Stands in for the desktop's file manager: QDesktopServices hands it the file: addresses."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(url)


def click_open_log_folder(qtbot, about: AboutDialog) -> list[QUrl]:
    """Click About's Open log folder; the addresses the desktop was asked to open."""
    opener = FileOpener()
    QDesktopServices.setUrlHandler("file", opener, "open")
    try:
        qtbot.mouseClick(about.folder_button, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    return opener.opened


def test_about_opens_the_log_folder_making_it_when_missing(qtbot, make_window) -> None:
    window = make_window()
    about = window.help_menu.show_about()
    qtbot.addWidget(about)
    about.show()
    folder = log_path().parent
    assert not folder.exists()  # nothing was logged yet in this test's log folder
    assert about.folder_button.parent() is about.copy_button.parent()  # beside the copy button
    assert about.folder_button.text() == "Open &log folder"
    assert click_open_log_folder(qtbot, about) == [QUrl.fromLocalFile(str(folder))]
    assert folder.is_dir()
    assert about.copied.text() == f"Opened the log folder: {folder}"
    try:
        switch_language("de")
        assert about.folder_button.text() == "&Protokollordner öffnen"
        assert about.copied.text() == f"Protokollordner geöffnet: {folder}"
    finally:
        switch_language("en")


def test_about_says_when_the_log_folder_cannot_be_made_and_opens_nothing(qtbot, make_window, tmp_path,
                                                                         monkeypatch) -> None:
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("")
    monkeypatch.setenv("RUN_INSPECTOR_LOG", str(blocker / "log" / "run-inspector.log"))
    window = make_window()
    about = window.help_menu.show_about()
    qtbot.addWidget(about)
    opener = FileOpener()
    QDesktopServices.setUrlHandler("file", opener, "open")
    try:
        about.open_log_folder()
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert opener.opened == []
    assert about.copied.text() == (f"The log folder cannot be made: {blocker / 'log'} "
                                   "(a part of the path is not a folder)")
    try:
        switch_language("de")  # the system's reason in German too, not the C library's English
        assert about.copied.text().endswith(f"{blocker / 'log'} (ein Teil des Pfads ist kein Ordner)")
    finally:
        switch_language("en")


def test_what_about_s_buttons_did_is_said_to_a_screen_reader(qtbot, make_window, announcements) -> None:
    """"Copied to the clipboard…" and "Opened the log folder…" were shown on a label and said to nobody:
    a screen reader reads a label's new text only when the label is visited, and the focus stays on the
    button. Shown again in another language, the sentence is not said again."""
    window = make_window()
    about = window.help_menu.show_about()
    qtbot.addWidget(about)
    about.show()
    qtbot.mouseClick(about.copy_button, Qt.MouseButton.LeftButton)
    assert announcements == [about.copied.text()] and announcements[0].startswith("Copied to the clipboard")
    click_open_log_folder(qtbot, about)
    assert announcements[1:] == [f"Opened the log folder: {log_path().parent}"]
    try:
        switch_language("de")
        assert about.copied.text().startswith("Protokollordner geöffnet")
        assert len(announcements) == 2
    finally:
        switch_language("en")


def test_screenshot_about(qtbot, make_window) -> None:
    window = make_window()
    about = window.help_menu.show_about()
    qtbot.addWidget(about)
    about.show()
    qtbot.mouseClick(about.copy_button, Qt.MouseButton.LeftButton)
    SHOTS.mkdir(exist_ok=True)
    about.grab().save(str(SHOTS / "about-en.png"))
    try:
        switch_language("de")
        # The longer German button text gets its width once the layout requests are handled.
        qtbot.waitUntil(lambda: about.copy_button.width() >= about.copy_button.sizeHint().width())
        about.resize(about.width(), about.sizeHint().height())
        about.grab().save(str(SHOTS / "about-de.png"))
        assert "Protokolldatei: " in about.body.text()
    finally:
        switch_language("en")


def test_shortcuts_are_read_from_the_window(qtbot, make_window) -> None:
    window = make_window()
    dialog = window.help_menu.show_shortcuts()
    qtbot.addWidget(dialog)
    rows = dict(dialog.rows())
    # Return and the keypad's Enter are one key to a reader, named as the Run button names it.
    assert rows["Run › Run the tool"] == "Ctrl+Enter"
    assert "(Ctrl+Enter)" in window.workbench.run_button.text()
    assert rows["Run › Play a run"] == "Ctrl+Shift+Enter"
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
        # The keys named as our own texts name them (Qt would say "Strg+Return, Strg+Enter").
        assert rows["Ausführen › Das Tool ausführen"] == "Strg+Eingabe"
        assert "(Strg+Eingabe)" in window.workbench.run_button.text()
        assert "(Strg+Eingabe)" in window.workbench.operations.empty_hint.label.text()
        assert rows["Ausführen › Einen Lauf vorführen"] == "Strg+Umschalt+Eingabe"
        assert "Lizenz: MIT" in about.body.text()
        dialog.show()
        qtbot.waitExposed(dialog)
        SHOTS.mkdir(exist_ok=True)
        assert dialog.grab().save(str(SHOTS / "shortcuts-de.png"))
    finally:
        switch_language("en")


@pytest.mark.qt_log_ignore("does not support QPlatformServices::openDocument")
def test_documentation_says_when_no_program_opened_the_file(qtbot) -> None:
    """Open README.md with no program to open it (here: the offscreen platform has none) did
    nothing at all: the dialog says so, naming the file, and says it again in German."""
    dialog = DocumentationDialog()
    qtbot.addWidget(dialog)
    assert dialog.status.text() == ""
    qtbot.mouseClick(dialog.open_buttons[0], Qt.MouseButton.LeftButton)
    assert dialog.status.text() == (f"No program opened {ROOT / 'README.md'}; the files are plain text, "
                                    "for any text editor.")
    try:
        switch_language("de")
        assert dialog.status.text().startswith(f"Kein Programm hat {ROOT / 'README.md'} geöffnet")
    finally:
        switch_language("en")
    opener = FileOpener()
    QDesktopServices.setUrlHandler("file", opener, "open")
    try:
        qtbot.mouseClick(dialog.open_buttons[1], Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert opener.opened == [QUrl.fromLocalFile(str(ROOT / "docs"))]
    assert dialog.status.text() == f"Opened {ROOT / 'docs'}"


def test_documentation_names_the_readme_and_docs(qtbot) -> None:
    dialog = DocumentationDialog()
    qtbot.addWidget(dialog)
    assert dialog.paths == [ROOT / "README.md", ROOT / "docs"]
    assert str(ROOT / "README.md") in dialog.text.text()
    assert [button.text() for button in dialog.open_buttons] == ["Open README.md", "Open docs"]
    _labels_are_plain(dialog)



def test_documentation_of_an_installed_copy_names_the_project_address(qtbot, monkeypatch) -> None:
    """An installed wheel has no README.md nor docs/ beside the package: the dialog said only that the
    documentation "comes with the source code", not where that is. It names the project's home page,
    as the package metadata (here pyproject.toml) gives it, in English and German."""
    monkeypatch.setattr("inspector.gui.help_menu.documentation_paths", lambda: [])
    homepage = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Homepage"]
    dialog = DocumentationDialog()
    qtbot.addWidget(dialog)
    assert dialog.open_buttons == []
    assert f"source code of Run Inspector, at {homepage};" in dialog.text.text()
    try:
        switch_language("de")
        assert f"liegt dem Quellcode von Run Inspector bei, unter {homepage};" in dialog.text.text()
        SHOTS.mkdir(exist_ok=True)
        assert dialog.grab().save(str(SHOTS / "documentation-installed-de.png"))
    finally:
        switch_language("en")
    assert dialog.grab().save(str(SHOTS / "documentation-installed-en.png"))
    _labels_are_plain(dialog)

def menu_keys(menu, action) -> str:
    """The keys the menu draws beside ``action`` (after the tab of the item's text)."""
    option = QStyleOptionMenuItem()
    menu.initStyleOption(option, action)
    return option.text.partition("\t")[2]


def test_the_run_menu_names_the_keys_as_the_run_button_does(qtbot, make_window) -> None:
    """Qt's menu wrote "Strg+Return" (in German too) beside a Run button that says "Strg+Eingabe"."""
    window = make_window()
    run_menu = window.run_action.associatedObjects()[0]
    try:
        for language, run_keys, play_keys in (("en", "Ctrl+Enter", "Ctrl+Shift+Enter"),
                                              ("de", "Strg+Eingabe", "Strg+Umschalt+Eingabe")):
            switch_language(language)
            assert menu_keys(run_menu, window.run_action) == run_keys
            assert f"({run_keys})" in window.workbench.run_button.text()
            assert menu_keys(run_menu, window.play.play_action) == play_keys
            # Other keys as the platform writes them; the shortcut list reads the names without keys.
            assert menu_keys(run_menu, window.cancel_action) == "Esc"
            rows = dict(ShortcutsDialog(window).rows())
            assert not any("\t" in what for what in rows)
            run = f"{plain_action_text(run_menu.title())} › {plain_action_text(window.run_action.text())}"
            assert run in {"Run › Run the tool", "Ausführen › Das Tool ausführen"} and rows[run] == run_keys
    finally:
        switch_language("en")


def test_the_shortcuts_are_all_in_view_each_on_one_whole_line(qtbot, make_window) -> None:
    """The list opened at 560x460 with rows of 30 px: two thirds in view, the rest behind a scroll bar."""
    window = make_window()
    try:
        for language in ("en", "de"):
            switch_language(language)
            dialog = window.help_menu.show_shortcuts()
            qtbot.addWidget(dialog)
            dialog.show()
            qtbot.waitExposed(dialog)
            table = dialog.table
            qtbot.waitUntil(lambda table=table: table.viewport().height() > 0)
            assert table.rowCount() > 12  # enough rows to need the room: the test means something
            assert table.verticalScrollBar().maximum() == 0, (language, dialog.size())
            last = table.visualRect(table.model().index(table.rowCount() - 1, 0))
            assert last.bottom() <= table.viewport().height()
            metrics = table.fontMetrics()
            for row in range(table.rowCount()):
                for column in (0, 1):
                    text = table.item(row, column).text()
                    assert metrics.horizontalAdvance(text) < table.columnWidth(column), (language, text)
                assert table.rowHeight(row) >= metrics.height()
            dialog.close()
    finally:
        switch_language("en")
