"""About Run Inspector: the version, where the data and the log are, the licence, the Qt and Python in
use, a button that copies those facts for a bug report and one that opens the log folder. Every text
is plain text."""

from __future__ import annotations

import platform
from pathlib import Path

import PySide6
from PySide6.QtCore import Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import N_, _
from inspector.i18n.messages import translate
from inspector.i18n.os_reasons import os_reason
from inspector.logfile import log_path
from inspector.store.paths import default_db_path
from inspector.version import app_licence, app_version, installed_version

from ..language import on_language_changed
from ..widgets.accessibility import announce


def about_facts(db_path: Path, settings_file: str = "") -> list[tuple[str, str]]:
    """(label, value) for each fact the dialog shows; the labels are untranslated message ids."""
    version_label = N_("Version: {value}") if installed_version() else N_(
        "Version: {value} (running from the source, not installed)")
    facts = [(version_label, app_version()),
             (N_("Licence: {value}"), app_licence() or "MIT"),
             (N_("Data folder: {value}"), str(default_db_path().parent)),
             (N_("Run database: {value}"), str(db_path))]
    if settings_file:
        facts.append((N_("Settings file: {value}"), settings_file))
    facts += [(N_("Log file: {value}"), str(log_path())),
              (N_("Qt: {value}"), f"Qt {qVersion()}, PySide6 {PySide6.__version__}"),
              (N_("Python: {value}"), f"{platform.python_implementation()} {platform.python_version()}"),
              (N_("Platform: {value}"), _platform_name())]
    return facts


def _platform_name() -> str:
    session = QGuiApplication.platformName()  # xcb, wayland, cocoa, windows, offscreen
    return f"{platform.platform(terse=False)} ({session})" if session else platform.platform()


def bug_report_text(db_path: Path, settings_file: str = "") -> str:
    """The facts as plain text for a bug report: English, whatever the window's language, because the
    report is read by the project; one "Label: value" a line."""
    lines = [f"Run Inspector {app_version()}"]
    lines += [label.format(value=value) for label, value in about_facts(db_path, settings_file)]
    return "\n".join(lines) + "\n"


def plain_label(text: str = "") -> QLabel:
    """A selectable, word-wrapped label that shows its text as plain text (never markup)."""
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)  # paths and names are never markup
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                  | Qt.TextInteractionFlag.TextSelectableByKeyboard)
    return label


class AboutDialog(QDialog):
    """Name, version, licence, where Run Inspector keeps its data and log, and the versions under it."""

    def __init__(self, db_path: Path, settings_file: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.db_path = db_path
        self.settings_file = settings_file
        self.title = plain_label()
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.3)
        self.title.setFont(font)
        self.body = plain_label()
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy_for_bug_report)
        self.folder_button = QPushButton()
        self.folder_button.clicked.connect(self.open_log_folder)
        self.copied = plain_label()  # the line saying what the last button did
        self._said: tuple[str, dict[str, object]] | None = None
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.folder_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.body)
        layout.addWidget(self.copied)
        layout.addWidget(buttons)
        self.retranslate()
        on_language_changed(self, self.retranslate)
        self.resize(640, self.sizeHint().height())

    def retranslate(self) -> None:
        self.setWindowTitle(_("About Run Inspector"))
        self.title.setText(_("Run Inspector {version}").format(version=app_version()))
        lines = [_("Inspect, cancel, store and replay MCP tool calls made by AI agents."), ""]
        lines += [_(label).format(value=value) for label, value in about_facts(self.db_path, self.settings_file)]
        self.body.setText("\n".join(lines))
        self.copy_button.setText(_("&Copy for a bug report"))
        self.copy_button.setToolTip(_("Copy these facts as plain text, to paste into a bug report"))
        self.folder_button.setText(_("Open &log folder"))
        self.folder_button.setToolTip(_("Show the folder of the log file in the file manager"))
        self._show_said()  # in the new language, not said again

    def copy_for_bug_report(self) -> str:
        """Put the facts on the clipboard as plain text; return what was copied."""
        text = bug_report_text(self.db_path, self.settings_file)
        QGuiApplication.clipboard().setText(text)
        self._say(N_("Copied to the clipboard: paste it into the bug report."))
        return text

    def open_log_folder(self) -> QUrl:
        """Open the log file's folder with the desktop's file manager (made first when it is missing);
        return its address. What went wrong, if anything, is said on the dialog's status line."""
        folder = log_path().parent
        url = QUrl.fromLocalFile(str(folder))
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self._say(N_("The log folder cannot be made: {folder} ({reason})"),
                      folder=str(folder), reason=os_reason(error))
            return url
        if QDesktopServices.openUrl(url):
            self._say(N_("Opened the log folder: {folder}"), folder=str(folder))
        else:
            self._say(N_("No program opened the log folder: {folder}"), folder=str(folder))
        return url

    def _say(self, message: str, **values: object) -> None:
        """Show ``message`` (a message id) on the status line, and say it to a screen reader (the focus
        stays on the button: the label's new text was heard by nobody); shown again after a language
        switch (a value that is a sentence too, the system's reason, say)."""
        self._said = (message, values)
        self._show_said()
        announce(self.copied, self.copied.text())

    def _show_said(self) -> None:
        if self._said is not None:
            message, values = self._said
            self.copied.setText(_(message).format(**{name: translate(value) for name, value in values.items()}))


__all__ = ["AboutDialog", "about_facts", "bug_report_text"]
