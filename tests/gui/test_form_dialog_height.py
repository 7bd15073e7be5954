"""The form dialogs (server, settings) are as tall as their rows, in either language: no empty band
between the last note and OK (the roots note sat three lines below "Add folder…"), and choosing
Command or Address, or adding a header, gives the rows their room (choosing Command once shrank
the dialog to 118 px, the form behind a scroll bar)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QDialogButtonBox, QLabel, QScrollArea

from inspector.gui.dialogs.server_dialog import ServerDialog
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.language import switch_language
from inspector.gui.settings import AppSettings


@pytest.fixture(params=["en", "de"])
def language(request) -> Iterator[str]:
    switch_language(request.param)
    yield request.param
    switch_language("en")


def shown(qtbot, dialog: QDialog) -> QDialog:
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def settle() -> None:
    QApplication.processEvents()  # a row added is shown, and the dialog resized, on the next turn
    QApplication.processEvents()


def scroll_of(dialog: QDialog) -> QScrollArea:
    return dialog.findChild(QScrollArea, options=Qt.FindChildOption.FindDirectChildrenOnly)


def text_bottom(label: QLabel, dialog: QDialog) -> int:
    """Where the label's text ends (in the dialog): its top and the height its text needs."""
    return label.mapTo(dialog, label.rect().topLeft()).y() + label.heightForWidth(label.width())


def notes(dialog: QDialog) -> list[QLabel]:
    return [label for label in dialog.findChildren(QLabel)
            if label.wordWrap() and label.text() and label.isVisibleTo(dialog)]


def assert_fits_its_rows(dialog: QDialog) -> None:
    scroll = scroll_of(dialog)
    assert not scroll.verticalScrollBar().isVisible(), dialog.height()
    buttons = dialog.findChild(QDialogButtonBox, options=Qt.FindChildOption.FindDirectChildrenOnly)
    last = max(text_bottom(label, dialog) for label in notes(dialog))
    # Below the last note: the form's margin and the spacing above OK, not lines of nothing.
    gap = buttons.mapTo(dialog, buttons.rect().topLeft()).y() - last
    line = dialog.fontMetrics().lineSpacing()
    assert gap < 2 * line, gap
    for label in notes(dialog):  # a note given lines more than its text centres it away from its field
        assert label.height() < label.heightForWidth(label.width()) + line, label.text()


@pytest.mark.parametrize("kind", ["http", "stdio"])
def test_the_server_dialog_has_no_empty_band_above_ok(qtbot, language, kind) -> None:
    dialog = shown(qtbot, ServerDialog(url="http://127.0.0.1:9/mcp", name="Demo") if kind == "http"
                   else ServerDialog(transport="stdio", command_line="uvx mcp-server-time"))
    settle()
    assert_fits_its_rows(dialog)


def test_the_settings_dialog_has_no_empty_band_above_ok(qtbot, language) -> None:
    dialog = shown(qtbot, SettingsDialog(AppSettings(), "/tmp/runs.db"))
    settle()
    assert_fits_its_rows(dialog)
    dialog.team.add_header()
    settle()
    assert_fits_its_rows(dialog)  # the header row got room: the dialog grew


def test_choosing_command_or_address_gives_the_rows_their_room(qtbot, language) -> None:
    dialog = shown(qtbot, ServerDialog())
    settle()
    for choose in (dialog.as_command, dialog.as_address, dialog.as_command):
        choose.setChecked(True)
        settle()
        assert_fits_its_rows(dialog)
    dialog.as_address.setChecked(True)
    before = dialog.height()
    dialog.add_header()
    settle()
    assert dialog.height() > before
    assert_fits_its_rows(dialog)
