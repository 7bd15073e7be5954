"""The end every form dialog shares: OK and Cancel under the form, and a height that fits its text."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QVBoxLayout

#: The width the form dialogs open at.
DIALOG_WIDTH = 560


def finish_form(dialog: QDialog, form: QFormLayout) -> QDialogButtonBox:
    """Put ``form`` and OK/Cancel into ``dialog`` and size it; return the buttons."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addLayout(form)
    layout.addWidget(buttons)
    # A wrapped label needs more height at this width than the size hint (taken at its own width) gives.
    dialog.resize(DIALOG_WIDTH, max(dialog.sizeHint().height(), dialog.heightForWidth(DIALOG_WIDTH)))
    return buttons


__all__ = ["DIALOG_WIDTH", "finish_form"]
