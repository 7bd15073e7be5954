"""A part of a panel that scrolls where the window is too low for it (a projector, a large font),
rather than laying its word-wrapped lines over each other or cutting them off.

Where the room is there it is as high as its content at its width (heightForWidth: the wrapped lines
each get theirs) and shows no scroll bar, as a plain layout would; where it is not, it gives way down
to :data:`LEAST_LINES` lines of text and the rest is a scroll away. (:mod:`.up_down_scroll` holds a
pane at its least height, which a wrapped label's height for its width does not enter.)

It sizes its content itself rather than leaving that to ``QScrollArea.setWidgetResizable``: that one
decides on the scroll bar at the width the viewport has at the moment, so a bar shown once (the window
low for a moment while it opened) made the content's lines at the narrower width too high to fit, and
the bar stayed, with the content left at the full width behind it, its words cut off on the right; or
the content was given less than its lines' height, and they lay over each other.

The bar is decided once the layouts above have answered the height it asks for: decided at once, at the height
it had while they had not (the window opening, a server selected and its lines another height), it showed for
50 to 80 ms before the room came and it went again."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QStyle, QWidget

#: The least height it gives way to, in lines of its text: a button and a line of words.
LEAST_LINES = 4
#: How many rounds of the layouts' posted requests the bar's decision waits for at most (each level of layouts
#: above answers in a round of its own).
LAYOUT_ROUNDS = 8


class FittedScroll(QScrollArea):
    """Scrolls ``content`` vertically; wishes the content's height at the width it is given."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # shown by _fit where needed
        self.setWidgetResizable(False)  # sized by _fit
        self.setWidget(content)
        content.setAutoFillBackground(False)  # the panel's own background, as before (setWidget set it)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no Tab stop without a name: its controls are the stops
        content.installEventFilter(self)  # its height changed (a new text, a hidden part): wish anew
        self._deciding = False  # a decision on the bar is asked for, once the layouts above have answered

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget():
            if event.type() == QEvent.Type.LayoutRequest:
                self.updateGeometry()  # another text: another height wished,
                self._decide_later()  # and fitted once the room is given (or stays what it was)
            elif isinstance(event, QResizeEvent) and event.size().width() != event.oldSize().width():
                self.updateGeometry()  # its lines wrap anew: another height wished
        return super().eventFilter(watched, event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _decide_later(self) -> None:
        if not self._deciding:
            self._deciding = True
            QTimer.singleShot(0, self, self._fit_answered)

    def _fit_answered(self) -> None:
        """Fitted with the bar decided, once the layouts above have answered the height asked for: their posted
        requests are handled first, a level of layouts a round, until this one's room stays what it is."""
        self._deciding = False
        for _round in range(LAYOUT_ROUNDS):
            before = self.size()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            if self.size() == before:
                break
        self._fit(answered=True)

    def _fit(self, *, answered: bool = False) -> None:
        """The content as wide as the room (less the scroll bar, where its lines need more height than the
        room has) and as high as its lines at that width, at least the room's height. Not ``answered`` (the room
        just given, while the layouts above may still give more): no bar is shown yet, and it is decided once
        they have answered."""
        content = self.widget()
        room = self.contentsRect()
        width, height = room.width(), room.height()
        bar = self.content_least_height(width) > height
        if bar and not answered and not self.verticalScrollBar().isVisible():
            bar = False  # the lines reach past the room until then (a moment), rather than a bar come and go
            self._decide_later()
        if bar:
            width -= self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn if bar
                                        else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        width = max(width, content.minimumSizeHint().width(), content.minimumWidth())
        size = QSize(width, max(self.content_least_height(width), height))
        if content.size() != size:
            content.resize(size)

    def content_least_height(self, width: int) -> int:
        """The least height the content can have at ``width``: its wrapped lines each as high as their words
        need, its other parts at their least."""
        content = self.widget()
        least = max(content.minimumSizeHint().height(), content.minimumHeight())
        return max(content.heightForWidth(width), least) if content.hasHeightForWidth() else least

    def content_height(self, width: int) -> int:
        """The content's height at ``width`` (its wrapped lines each as high as their words need)."""
        content = self.widget()
        if content.hasHeightForWidth():
            return max(content.heightForWidth(width), content.minimumSizeHint().height())
        return content.sizeHint().height()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        content = self.widget()
        frame = 2 * self.frameWidth()
        # At the width the content has without a scroll bar (shown, the bar goes once that height is given).
        width = self.contentsRect().width() if self.isVisible() else content.sizeHint().width()
        return QSize(content.sizeHint().width() + frame, self.content_height(width) + frame)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        content = self.widget()
        frame = 2 * self.frameWidth()
        # Room beside the content for the scroll bar: shown, it takes no width the content needs.
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self)
        least = min(self.sizeHint().height(), LEAST_LINES * self.fontMetrics().lineSpacing() + frame)
        return QSize(content.minimumSizeHint().width() + bar + frame, least)


__all__ = ["LEAST_LINES", "FittedScroll"]
