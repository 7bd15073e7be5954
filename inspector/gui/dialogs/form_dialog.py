"""The end every form dialog shares: OK and Cancel under the form, and a height that fits its text,
or the screen: a form taller than the screen scrolls, and OK and Cancel stay in view."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QFrame, QScrollArea, QVBoxLayout, QWidget

#: The width the form dialogs open at.
DIALOG_WIDTH = 560
#: What is left free of the screen's available height around a dialog (its frame, a margin).
SCREEN_MARGIN = 60


def finish_form(dialog: QDialog, form: QFormLayout) -> QDialogButtonBox:
    """Put ``form`` (in a scroll area) and OK/Cancel into ``dialog`` and size it; return the buttons."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    content = QWidget()
    content.setLayout(form)
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setWidget(content)
    layout = QVBoxLayout(dialog)
    layout.addWidget(scroll, 1)
    layout.addWidget(buttons)
    # A wrapped label needs more height at this width than the size hint (taken at its own width) gives.
    margins = layout.contentsMargins()
    # As wide as the form needs (a check box's words do not wrap), with room for the scroll bar.
    inner = max(DIALOG_WIDTH - margins.left() - margins.right(), content.minimumSizeHint().width())
    width = inner + margins.left() + margins.right() + scroll.verticalScrollBar().sizeHint().width()
    needed = (max(content.sizeHint().height(), content.heightForWidth(inner)) + buttons.sizeHint().height()
              + layout.spacing() + margins.top() + margins.bottom())
    screen = dialog.screen() or QGuiApplication.primaryScreen()
    room = screen.availableGeometry().height() - SCREEN_MARGIN if screen is not None else needed
    dialog.resize(width, max(min(needed, room), 200))
    return buttons


__all__ = ["DIALOG_WIDTH", "finish_form"]
