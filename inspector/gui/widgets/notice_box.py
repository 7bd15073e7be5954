"""A warning over the shown window at start (a settings file that could not be read, a damaged log): plain
text in a box that does not block, and the same sentence on stderr for whoever started the window."""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget


def notice_box(window: QWidget, title: str, sentence: str, name: str) -> QMessageBox:
    """Open the box (named ``name``, for tests) over ``window``; said on stderr too."""
    print(f"run-inspector: {sentence}", file=sys.stderr)
    box = QMessageBox(QMessageBox.Icon.Warning, title, sentence, QMessageBox.StandardButton.Ok, window)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setObjectName(name)
    box.open()
    return box


__all__ = ["notice_box"]
