"""Hint text (grey notes under fields, placeholders) reaches WCAG AA contrast (4.5:1) in the default palette."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel, QLineEdit, QPlainTextEdit, QWidget

from inspector.gui.widgets.hints import HINT_PROPERTY, MINIMUM_CONTRAST, contrast_ratio, readable_grey

SCHEMA = {"type": "object", "properties": {
    "text": {"type": "string", "description": "What to echo back"},
    "count": {"type": "integer", "description": "How often"}}, "required": ["text"]}


def _background(widget: QWidget) -> QColor:
    """The colour behind ``widget``: the nearest ancestor that paints its background, else the window's."""
    here = widget
    while here is not None:
        if here.autoFillBackground() or here.isWindow():
            return here.palette().color(QPalette.ColorGroup.Active, here.backgroundRole())
        here = here.parentWidget()
    return widget.palette().color(QPalette.ColorRole.Window)


def _is_hint(label: QLabel) -> bool:
    return bool(label.property(HINT_PROPERTY)) or not label.isEnabled()


def low_contrast(root: QWidget) -> tuple[list[str], int]:
    """The hint texts of ``root`` below 4.5:1, and how many hint texts were measured."""
    low, measured = [], 0
    for label in root.findChildren(QLabel):
        if not label.isVisibleTo(root) or not label.text() or not _is_hint(label):
            continue
        group = QPalette.ColorGroup.Active if label.isEnabled() else QPalette.ColorGroup.Disabled
        ratio = contrast_ratio(label.palette().color(group, label.foregroundRole()), _background(label))
        measured += 1
        if ratio < MINIMUM_CONTRAST:
            low.append(f"label {label.text()[:40]!r}: {ratio:.2f}")
    for edit in root.findChildren(QLineEdit) + root.findChildren(QPlainTextEdit):
        text = edit.text() if isinstance(edit, QLineEdit) else edit.toPlainText()
        if not edit.isVisibleTo(root) or not edit.placeholderText() or text:
            continue
        palette = edit.palette()
        ratio = contrast_ratio(palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.PlaceholderText),
                               palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Base))
        measured += 1
        if ratio < MINIMUM_CONTRAST:
            low.append(f"placeholder {edit.placeholderText()[:40]!r}: {ratio:.2f}")
    return low, measured


def test_the_contrast_ratio_is_wcags() -> None:
    assert round(contrast_ratio(QColor("#000000"), QColor("#ffffff")), 2) == 21.0
    assert round(contrast_ratio(QColor("#777777"), QColor("#ffffff")), 2) == 4.48
    assert round(contrast_ratio(QColor(0, 0, 0, 128), QColor("#ffffff")), 2) == 4.0  # Qt's placeholder
    grey = readable_grey(QColor("#000000"), QColor("#efefef"))
    assert MINIMUM_CONTRAST <= contrast_ratio(grey, QColor("#efefef")) < 5.0  # grey, not black
    dark = readable_grey(QColor("#f0f0f0"), QColor("#202020"))  # a dark palette gets a readable grey too
    assert MINIMUM_CONTRAST <= contrast_ratio(dark, QColor("#202020")) < 5.0


def test_hint_text_reaches_aa_contrast_in_the_window_and_its_dialogs(qtbot, make_window) -> None:
    from inspector.gui.dialogs.server_dialog import ServerDialog
    from inspector.gui.dialogs.settings_dialog import SettingsDialog

    window = make_window()
    window.workbench.arguments.set_schema(SCHEMA)
    qtbot.waitUntil(lambda: window.workbench.arguments.form.field_at(("count",)).edit.isVisibleTo(window))
    low, measured = low_contrast(window)
    assert low == [] and measured >= 4  # tool filter, the form's two hints and number field, operations
    window.tabs.setCurrentWidget(window.runs_tab)
    low, measured = low_contrast(window)
    assert low == [] and measured >= 2

    settings = SettingsDialog(window.settings, str(window.db_path), window)
    qtbot.addWidget(settings)
    settings.show()
    low, measured = low_contrast(settings)
    assert low == [] and measured >= 4
    server = ServerDialog(window, url="", headers=[("X-Trace", "", False)])
    qtbot.addWidget(server)
    server.show()
    low, measured = low_contrast(server)
    assert low == [] and measured >= 5
