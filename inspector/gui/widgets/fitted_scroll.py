"""A part of a panel that scrolls where the window is too low for it (a projector, a large font),
rather than laying its word-wrapped lines over each other or cutting them off.

Where the room is there it is as high as its content at its width (heightForWidth: the wrapped lines
each get theirs) and shows no scroll bar, as a plain layout would; where it is not, it gives way down
to :data:`LEAST_LINES` lines of text and the rest is a scroll away. (:mod:`.up_down_scroll` holds a
pane at its least height, which a wrapped label's height for its width does not enter.)"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QStyle, QWidget

#: The least height it gives way to, in lines of its text: a button and a line of words.
LEAST_LINES = 4


class FittedScroll(QScrollArea):
    """Scrolls ``content`` vertically; wishes the content's height at the width it is given."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidgetResizable(True)
        self.setWidget(content)
        content.setAutoFillBackground(False)  # the panel's own background, as before (setWidget set it)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop without a name: its controls are the stops
        content.installEventFilter(self)  # its height changed (a new text, a hidden part): wish anew

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget() and (event.type() == QEvent.Type.LayoutRequest or (
                isinstance(event, QResizeEvent) and event.size().width() != event.oldSize().width())):
            self.updateGeometry()  # another text, or its lines wrap anew: another height wished
        return super().eventFilter(watched, event)

    def content_height(self, width: int) -> int:
        """The content's height at ``width`` (its wrapped lines each as high as their words need)."""
        content = self.widget()
        if content.hasHeightForWidth():
            return max(content.heightForWidth(width), content.minimumSizeHint().height())
        return content.sizeHint().height()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        content = self.widget()
        frame = 2 * self.frameWidth()
        # At the width the content has now: while the scroll bar shows, the narrower one (wished there,
        # the bar goes, the content widens and wishes the height it needs at the full width).
        width = content.width() if self.isVisible() else content.sizeHint().width()
        return QSize(content.sizeHint().width() + frame, self.content_height(width) + frame)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        content = self.widget()
        frame = 2 * self.frameWidth()
        # Room beside the content for the scroll bar: shown, it takes no width the content needs.
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        least = min(self.sizeHint().height(), LEAST_LINES * self.fontMetrics().lineSpacing() + frame)
        return QSize(content.minimumSizeHint().width() + bar + frame, least)


__all__ = ["LEAST_LINES", "FittedScroll"]
