"""The end every form dialog shares: OK and Cancel under the form, and a size that fits its text,
or the screen: a form taller or wider than the screen scrolls, and OK and Cancel stay in view."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QFrame, QScrollArea, QVBoxLayout, QWidget

#: The width the form dialogs open at.
DIALOG_WIDTH = 560
#: What is left free of the screen's available height around a dialog (its frame, a margin).
SCREEN_MARGIN = 60
#: And of its available width.
SCREEN_SIDE_MARGIN = 40


def screen_room(widget: QWidget) -> QSize | None:
    """The most a dialog of ``widget`` may take: the available area of the screen it opens on, less its
    frame and a margin (``None`` without a screen)."""
    screen = widget.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return None
    return screen.availableGeometry().size() - QSize(SCREEN_SIDE_MARGIN, SCREEN_MARGIN)


def finish_form(dialog: QDialog, form: QFormLayout) -> QDialogButtonBox:
    """Put ``form`` (in a scroll area) and OK/Cancel into ``dialog`` and size it; return the buttons."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    content = QWidget()
    column = QVBoxLayout(content)
    column.addLayout(form)
    # Height beyond what the rows need goes below the last row, not into a wrapped note (which would
    # centre its text in the room, away from the field it explains).
    column.addStretch(1)
    scroll = QScrollArea()
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    # Only where the screen is narrower than the form (a check box's words at a large font, in German).
    scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
    scroll.setWidget(content)
    scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop without a name: its fields are the stops
    layout = QVBoxLayout(dialog)
    layout.addWidget(scroll, 1)
    layout.addWidget(buttons)
    width = form_width(dialog)
    dialog.resize(width, form_height(dialog, width))
    dialog.installEventFilter(_WhenShown(dialog))
    return buttons


def form_width(dialog: QDialog) -> int:
    """The width a dialog made by :func:`finish_form` needs: as wide as the form needs (a check box's
    words do not wrap; a form that wraps long rows, its fields beside their labels), at least
    :data:`DIALOG_WIDTH`, with room for the scroll bar; at most the screen's room (a form that wraps puts
    its widest fields under their labels then; one that cannot scrolls sideways: 1503 px of settings at
    16 pt in German put OK off a 1280 px screen)."""
    layout = dialog.layout()
    scroll = dialog.findChild(QScrollArea, options=Qt.FindChildOption.FindDirectChildrenOnly)
    content = scroll.widget()
    content.layout().activate()
    margins = layout.contentsMargins()
    inner = max(DIALOG_WIDTH - margins.left() - margins.right(), content.minimumSizeHint().width(),
                _rows_beside_labels(content))
    width = inner + margins.left() + margins.right() + scroll.verticalScrollBar().sizeHint().width()
    room = screen_room(dialog)
    return width if room is None else min(width, room.width())


def _rows_beside_labels(content: QWidget) -> int:
    """The width a form that wraps its long rows (:meth:`QFormLayout.setRowWrapPolicy`) needs to keep every
    field beside its label, as it is where the screen has the room: its least width is that of a row wrapped
    under its label, where it has not (the settings on an 800 px screen). 0 for a form that never wraps."""
    form = next((item.layout() for item in map(content.layout().itemAt, range(content.layout().count()))
                 if isinstance(item.layout(), QFormLayout)), None)
    if form is None or form.rowWrapPolicy() == QFormLayout.RowWrapPolicy.DontWrapRows:
        return 0
    return content.sizeHint().width()


def form_height(dialog: QDialog, width: int | None = None) -> int:
    """The height a dialog made by :func:`finish_form` needs at ``width`` (its own): its rows at that
    width, OK and Cancel, at most the screen's room (the form scrolls then)."""
    layout = dialog.layout()
    direct = Qt.FindChildOption.FindDirectChildrenOnly
    scroll = dialog.findChild(QScrollArea, options=direct)
    buttons = dialog.findChild(QDialogButtonBox, options=direct)
    content = scroll.widget()
    # Rows just shown, hidden or added count: a row's widget is measured anew (the layout keeps a
    # widget's height for a width: a header row added to the team's fields once squeezed its note).
    for child in content.findChildren(QWidget):
        child.updateGeometry()
    content.layout().activate()
    layout.activate()
    margins = layout.contentsMargins()
    inner = (dialog.width() if width is None else width) - margins.left() - margins.right()
    sideways = 0
    if content.minimumSizeHint().width() > inner:  # narrowed to the screen: the rows at their own width
        inner = content.minimumSizeHint().width()
        sideways = scroll.horizontalScrollBar().sizeHint().height()
    # The rows' height at the width they get. Not the size hint: it takes each wrapped label at a width
    # of its own (narrower, so taller), which left a gap of lines above the last note.
    rows = content.heightForWidth(inner) if content.hasHeightForWidth() else -1
    needed = ((rows if rows > 0 else content.sizeHint().height()) + buttons.sizeHint().height()
              + layout.spacing() + margins.top() + margins.bottom() + sideways)
    room = screen_room(dialog)
    return max(min(needed, needed if room is None else room.height()), 200)


def fit_form(dialog: QDialog, *, grow_only: bool = False) -> None:
    """Give a form dialog the height its rows need now (rows were shown, hidden or added); with
    ``grow_only``, never less than it has (the user may have made it taller)."""
    if dialog.findChild(QScrollArea, options=Qt.FindChildOption.FindDirectChildrenOnly) is None:
        return  # still being built: finish_form sizes it
    height = form_height(dialog)
    dialog.resize(dialog.width(), max(height, dialog.height()) if grow_only else height)
    _scroll_bar_as_needed(dialog)


class _WhenShown(QObject):
    """Fits the dialog again when it is first shown: sized while hidden, it had the style's margins and
    the scroll area a size of its own then (a scroll bar shown at that size stays)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Show and isinstance(watched, QDialog):
            watched.removeEventFilter(self)
            fit_form(watched)
        return False


def _scroll_bar_as_needed(dialog: QDialog) -> None:
    """Show the scroll bar only if the rows need it at the dialog's size now. A scroll area keeps a
    scroll bar it once showed (at a smaller size, while the dialog was built) as long as the rows,
    narrowed by it, need it: they needed a line more, and the dialog's height was a line short."""
    dialog.layout().activate()  # the scroll area at the dialog's new size
    scroll = dialog.findChild(QScrollArea, options=Qt.FindChildOption.FindDirectChildrenOnly)
    scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)


__all__ = ["DIALOG_WIDTH", "finish_form", "fit_form", "form_height", "form_width", "screen_room"]
