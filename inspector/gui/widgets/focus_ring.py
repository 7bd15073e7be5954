"""A ring around the list, table or text area that has the keyboard's focus.

Fusion marks a focused line edit, button or check box, but not an item view or a text area: a
selected row looks the same whether its list has the focus or not, and a read-only text has no
caret. Someone without a mouse could not tell whether the Servers list, the run list or the
timeline would take the arrow keys. One ring follows the focus to such a widget (in the window or
its dialogs): a frame in the palette's highlight colour, drawn over the widget's own edge (a frame
outside it was cut off where the widget fills its pane, as the Result text does).

Qt marks a window's focus as the keyboard's (and a field or button shows it) only while the focus
moves by Tab or a shortcut: passed on by a control that disabled itself (Play once pressed, Cancel the
run took it), or moved into the page a tab key chose, it lost the mark, and the control that had the
focus showed none. As a browser's :focus-visible, the mark is kept here until a mouse button moves
the focus.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QPainter, QPaintEvent, QPalette, QPen, QRegion
from PySide6.QtWidgets import QAbstractItemView, QApplication, QFocusFrame, QPlainTextEdit, QTextEdit, QWidget

#: The widgets that show no focus of their own (line edits, buttons, boxes do).
RINGED = (QAbstractItemView, QPlainTextEdit, QTextEdit)
#: The ring's width in pixels.
WIDTH_PX = 2


def rings(widget: QWidget | None) -> bool:
    """Whether ``widget`` gets the ring when it has the focus (not a combo box's popup list)."""
    return isinstance(widget, RINGED) and widget.window().windowType() != Qt.WindowType.Popup


class _Ring(QFocusFrame):
    """The ring itself: a child of the focused widget, over its edge only (a mask), never in the way
    of the mouse. A :class:`QFocusFrame` (placed here, not by its ``setWidget``), which a screen reader
    does not meet among the widget's children."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.hide()
        self.setObjectName("focus-ring")

    def cover(self, widget: QWidget) -> None:
        """Lie over ``widget``'s edge, above its children."""
        if self.parentWidget() is not widget:
            self.setParent(widget)
        rect = widget.rect()
        self.setGeometry(rect)
        self.setMask(QRegion(rect).subtracted(QRegion(rect.adjusted(WIDTH_PX, WIDTH_PX, -WIDTH_PX, -WIDTH_PX))))
        self.raise_()
        self.show()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        pen = QPen(self.palette().color(QPalette.ColorRole.Highlight), WIDTH_PX)
        pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        painter.setPen(pen)
        half = WIDTH_PX / 2
        painter.drawRect(QRectF(self.rect()).adjusted(half, half, -half, -half))


class FocusRing(QObject):
    """Keeps the ring on the focused item view or text area of the application."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._window = window
        self._ring: _Ring | None = None
        self._on: QWidget | None = None
        #: Whether the keyboard moved the focus last (Qt's mark on the window), as of the last change.
        self._keyboard = False
        QApplication.instance().focusChanged.connect(self._focus_changed)

    @property
    def ring(self) -> _Ring:
        if self._ring is None or not shiboken6.isValid(self._ring):  # deleted with the widget it was on
            self._ring = _Ring(self._window)
        return self._ring

    @property
    def on(self) -> QWidget | None:
        """The widget the ring is shown on, if any."""
        ring = self.ring
        return ring.parentWidget() if ring.isVisible() else None

    def _mine(self, widget: QWidget) -> bool:
        """Whether ``widget`` is in this ring's window or one of its dialogs (another window, one closed
        and not yet deleted, say, keeps its own ring out of this one's widgets)."""
        while widget is not None:
            if widget is self._window:
                return True
            widget = widget.parentWidget()
        return False

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if not shiboken6.isValid(self._window):
            return
        self._keep_keyboard_mark(new)
        if self._on is not None and shiboken6.isValid(self._on):
            self._on.removeEventFilter(self)
        self._on = new if rings(new) and self._mine(new) else None
        if self._on is None:
            self.ring.hide()
            return
        self._on.installEventFilter(self)
        self.ring.cover(self._on)

    def _keep_keyboard_mark(self, new: QWidget | None) -> None:
        if new is None or not self._mine(new):
            return
        mark, window = Qt.WidgetAttribute.WA_KeyboardFocusChange, new.window()  # this window or its dialog
        if self._keyboard and QApplication.mouseButtons() == Qt.MouseButton.NoButton:
            window.setAttribute(mark)
        self._keyboard = window.testAttribute(mark)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self._on and event.type() == QEvent.Type.Resize:
            self.ring.cover(self._on)
        return False


__all__ = ["FocusRing", "rings"]
