"""Paints one operation on one line: title, a mini budget bar, state, and a Cancel button while it runs.

The Cancel button is painted (an item view has no widgets per row: one Tab stop for the whole
list); a click on it is caught in :meth:`OperationDelegate.editorEvent`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFontMetrics, QMouseEvent, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionButton, QStyleOptionViewItem, QWidget

from inspector.i18n import _
from inspector.i18n.words import outcome_word

from ..language import on_language_changed
from ..widgets.budget_bar import CANCELLED, FAILED_DARK, OK_DARK, TEXT
from ..widgets.budget_state import AFTER_DEADLINE_SHARE
from ..widgets.mini_bar import Span, paint_spans, spans
from .engine import OperationTask
from .operations_model import TASK_ROLE, countdown_text, left_tenths, now_s, state_text, title_text

#: A selected row: a light tint, so the outcome colours keep their contrast.
SELECTED = QColor("#D2E5F5")
SELECTED_EDGE = QColor("#0072B2")
GAP_PX = 8
#: Cached texts and shapes are forgotten past this many (rows come and go; widths change).
CACHE_LIMIT = 400
# Looked up once: an enum member's lookup costs a Python call, and rows are painted often.
_SELECTED = QStyle.StateFlag.State_Selected
_HAS_FOCUS = QStyle.StateFlag.State_HasFocus
_LEFT = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
_ELIDE = Qt.TextElideMode.ElideRight


@dataclass(frozen=True)
class _Look:
    """What one row shows at one moment, made ready to paint."""

    parts: RowParts
    title: str
    bar: QRectF
    deadline_x: float
    legs: list[Span]
    state_rect: QRect
    text: str
    colour: QColor
    cancellable: bool


@dataclass(frozen=True)
class RowParts:
    """Where each part of a row goes."""

    title: QRect
    bar: QRect
    state: QRect
    cancel: QRect
    #: A narrow row says only the countdown while it runs ("17.3 s left"), to leave the title room.
    compact: bool = False


class OperationDelegate(QStyledItemDelegate):
    """Draws the rows of the operations list; :attr:`cancel_clicked` when a row's Cancel is clicked."""

    cancel_clicked = Signal(object)

    def __init__(self, parent: QObject | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(parent)
        self._clock = clock
        self._state_px: tuple[int, int] | None = None
        # What does not change from frame to frame, made once: a row's parts, its elided title,
        # the Cancel button's picture.
        self._parts: dict[tuple[int, int, int, int], RowParts] = {}
        self._origin_parts: dict[tuple[int, int], RowParts] = {}
        self._titles: dict[tuple[OperationTask, int], str] = {}
        # Numbers are formatted for the language (Babel), which costs more than painting a row: a
        # finished row's state and each tenth of a countdown are formatted once.
        self._ended: dict[OperationTask, str] = {}
        self._countdowns: dict[tuple[int, bool], str] = {}
        self._buttons: dict[tuple[int, int], QPixmap] = {}
        #: Each row's picture, with the key of what it shows (see :meth:`paint`).
        self._pictures: dict[OperationTask, tuple[tuple[object, ...], QPixmap]] = {}
        #: Rows painted, and pictures of rows made: let tests and benchmarks see what the list costs.
        self.frames = 0
        self.pictures_made = 0
        on_language_changed(self, self._forget_widths)

    def _forget_widths(self) -> None:
        self._state_px = None
        self._parts.clear()
        self._origin_parts.clear()
        self._titles.clear()
        self._buttons.clear()
        self._ended.clear()
        self._countdowns.clear()
        self._pictures.clear()

    @staticmethod
    def row_height(metrics: QFontMetrics) -> int:
        return metrics.height() + 4

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        return QSize(240, self.row_height(option.fontMetrics))

    def parts(self, rect: QRect, metrics: QFontMetrics) -> RowParts:
        """The row's title, mini bar, state and Cancel areas, left to right."""
        if self._state_px is None:
            # As wide as the longest a running row says (its countdown), in the language in use.
            left = _("{seconds} s left").format(seconds="88.8")
            long = _("{state} · {time}").format(state=outcome_word("running"), time=left)
            cancelling = max(metrics.horizontalAdvance(_("cancelling…")),
                             metrics.horizontalAdvance(_("waiting for sign-in")))
            self._state_px = (max(metrics.horizontalAdvance(long), cancelling) + 4,
                              max(metrics.horizontalAdvance(left), cancelling) + 4)
        inner = rect.adjusted(4, 1, -3, -1)
        cancel_w = metrics.horizontalAdvance(_("Cancel")) + 16
        cancel = QRect(inner.right() - cancel_w + 1, inner.top(), cancel_w, inner.height())
        # The title keeps room for about 30 characters: the state says less before the title is cut.
        rest = inner.width() - cancel_w - 3 * GAP_PX
        compact = (rest - self._state_px[0]) * 0.7 < metrics.averageCharWidth() * 30
        state_w = min(self._state_px[1 if compact else 0], max(40, inner.width() // 3))
        state = QRect(cancel.left() - GAP_PX - state_w, inner.top(), state_w, inner.height())
        bar_w = max(40, min(220, int((rest - state_w) * 0.3)))
        bar = QRect(state.left() - GAP_PX - bar_w, inner.top(), bar_w, inner.height())
        title = QRect(inner.left(), inner.top(), max(0, bar.left() - GAP_PX - inner.left()), inner.height())
        return RowParts(title, bar, state, cancel, compact)

    def cached_parts(self, rect: QRect, metrics: QFontMetrics) -> RowParts:
        """:meth:`parts`, remembered for the rectangle."""
        key = (rect.x(), rect.y(), rect.width(), rect.height())
        parts = self._parts.get(key)
        if parts is None:
            if len(self._parts) > CACHE_LIMIT:
                self._parts.clear()
            parts = self._parts[key] = self.parts(rect, metrics)
        return parts

    def _title(self, task: OperationTask, metrics: QFontMetrics, width: int) -> str:
        key = (task, width)
        title = self._titles.get(key)
        if title is None:
            if len(self._titles) > CACHE_LIMIT:
                self._titles.clear()
            title = self._titles[key] = metrics.elidedText(title_text(task), _ELIDE, width)
        return title

    def _state_text(self, task: OperationTask, now: float, compact: bool) -> str:
        """:func:`state_text`, formatted once for a finished row and once per tenth of a countdown."""
        if task.running:
            if task.cancel_signal.fired or task.waiting_for_signin:
                return state_text(task, now)
            key = (left_tenths(task, now), compact)
            text = self._countdowns.get(key)
            if text is None:
                if len(self._countdowns) > CACHE_LIMIT:
                    self._countdowns.clear()
                text = self._countdowns[key] = countdown_text(key[0], compact=compact)
            return text
        text = self._ended.get(task)
        if text is None:
            if len(self._ended) > CACHE_LIMIT:
                self._ended.clear()
            text = self._ended[task] = state_text(task, now)
        return text

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        """The row's picture, drawn again only when what it shows changed.

        A new operation goes in at the top and moves every row under it: the list repaints them
        all. Each row is kept as a picture, so a row that only moved costs one copy instead of its
        texts and rectangles again (each call into Qt gives up the interpreter lock, and waits to
        get it back while the network engine's thread runs Python)."""
        task = index.data(TASK_ROLE)
        if not isinstance(task, OperationTask):
            return
        self.frames += 1
        rect = option.rect
        width, height = rect.width(), rect.height()
        now = self._clock()
        parts = self._parts_at(width, height, option.fontMetrics)
        state = option.state
        key = _picture_key(task, now, parts.bar.width(), bool(state & _SELECTED), bool(state & _HAS_FOCUS),
                           width, height, option.palette.cacheKey())
        kept = self._pictures.get(task)
        if kept is None or kept[0] != key:
            if len(self._pictures) > CACHE_LIMIT:
                self._pictures.clear()
            kept = self._pictures[task] = (key, self._picture(option, self._look(task, option, parts, now)))
            self.pictures_made += 1
        painter.drawPixmap(rect.topLeft(), kept[1])

    def _parts_at(self, width: int, height: int, metrics: QFontMetrics) -> RowParts:
        """:meth:`parts` of a row at the origin (where its picture is drawn), remembered by size."""
        parts = self._origin_parts.get((width, height))
        if parts is None:
            parts = self._origin_parts[(width, height)] = self.parts(QRect(0, 0, width, height), metrics)
        return parts

    def _look(self, task: OperationTask, option: QStyleOptionViewItem, parts: RowParts, now: float) -> _Look:
        """Everything the row's picture shows, made from the task without painting anything."""
        metrics = option.fontMetrics
        title = self._title(task, metrics, parts.title.width())
        bar_height = max(6, min(12, parts.bar.height() - 6))
        bar = QRectF(parts.bar.left(), parts.bar.center().y() - bar_height / 2 + 1, parts.bar.width(), bar_height)
        deadline_x, legs = spans(task.state, now_s(task, now), bar.width() - 2)
        cancellable = task.running and not task.cancel_signal.fired
        state_rect = parts.state if cancellable else parts.state.united(parts.cancel)
        text = metrics.elidedText(self._state_text(task, now, parts.compact), _ELIDE, state_rect.width())
        return _Look(parts, title, bar, deadline_x, legs, state_rect, text, _state_colour(task), cancellable)

    def _picture(self, option: QStyleOptionViewItem, look: _Look) -> QPixmap:
        """The row drawn into a picture of its own (on the list's background, or the selection's)."""
        rect = option.rect
        widget = option.widget if isinstance(option.widget, QWidget) else None
        ratio = widget.devicePixelRatioF() if widget is not None else 1.0
        pixmap = QPixmap(round(rect.width() * ratio), round(rect.height() * ratio))
        pixmap.setDevicePixelRatio(ratio)
        whole = QRect(0, 0, rect.width(), rect.height())
        selected = option.state & _SELECTED
        pixmap.fill(SELECTED if selected else option.palette.color(QPalette.ColorRole.Base))
        painter = QPainter(pixmap)
        painter.setFont(option.font)
        if selected:
            painter.fillRect(QRect(0, 0, 3, rect.height()), SELECTED_EDGE)
        if option.state & _HAS_FOCUS:
            painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Highlight), 1, Qt.PenStyle.DotLine))
            painter.drawRect(whole.adjusted(0, 0, -1, -1))
        painter.setPen(option.palette.color(QPalette.ColorRole.Text))
        painter.drawText(look.parts.title, _LEFT, look.title)
        paint_spans(painter, look.bar, look.deadline_x, look.legs)
        painter.setPen(look.colour)
        painter.drawText(look.state_rect, _LEFT, look.text)
        if look.cancellable:
            cancel = look.parts.cancel
            painter.drawPixmap(cancel.topLeft(), self._button(option, cancel.width(), cancel.height()))
        painter.end()
        return pixmap

    def _button(self, option: QStyleOptionViewItem, width: int, height: int) -> QPixmap:
        """The Cancel button as the style draws a push button, painted once per size and language."""
        pixmap = self._buttons.get((width, height))
        if pixmap is not None:
            return pixmap
        widget = option.widget if isinstance(option.widget, QWidget) else None
        ratio = widget.devicePixelRatioF() if widget is not None else 1.0
        pixmap = QPixmap(round(width * ratio), round(height * ratio))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        button = QStyleOptionButton()
        button.rect = QRect(0, 0, width, height)
        button.text = _("Cancel")
        button.palette = option.palette
        button.fontMetrics = option.fontMetrics
        button.state = QStyle.StateFlag.State_Enabled | QStyle.StateFlag.State_Raised
        if widget is not None:
            painter = QPainter(pixmap)
            painter.setFont(option.font)
            widget.style().drawControl(QStyle.ControlElement.CE_PushButton, button, painter, widget)
            painter.end()
        self._buttons[(width, height)] = pixmap
        return pixmap

    def editorEvent(self, event: QEvent, model: object, option: QStyleOptionViewItem,  # noqa: N802
                    index: QModelIndex | QPersistentModelIndex) -> bool:
        """A click on a running row's Cancel cancels that operation (the press is the button's too)."""
        if event.type() not in (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease,
                                QEvent.Type.MouseButtonDblClick) or not isinstance(event, QMouseEvent):
            return super().editorEvent(event, model, option, index)  # type: ignore[arg-type]
        task = index.data(TASK_ROLE)
        if not isinstance(task, OperationTask) or not task.running or task.cancel_signal.fired:
            return super().editorEvent(event, model, option, index)  # type: ignore[arg-type]
        if not self.cached_parts(option.rect, option.fontMetrics).cancel.contains(event.position().toPoint()):
            return super().editorEvent(event, model, option, index)  # type: ignore[arg-type]
        if event.type() == QEvent.Type.MouseButtonRelease and event.button() == Qt.MouseButton.LeftButton:
            self.cancel_clicked.emit(task)
        return True


def _picture_key(task: OperationTask, now: float, bar_px: int, selected: bool, focused: bool, width: int,
                 height: int, palette: int) -> tuple[object, ...]:
    """What tells two pictures of a row apart: its legs and ending (each change bumps the state's
    ``legs_version``; a progress note does not, a row does not show it), and while it runs the
    countdown's tenth and its mini bar's length in pixels."""
    moving = None
    if task.running:
        per_s = bar_px / max(task.budget_s * (1 + AFTER_DEADLINE_SHARE), 1e-9)
        moving = (left_tenths(task, now), int(task.elapsed_s(now) * per_s + 0.5))
    return (task.state.legs_version, moving, task.running, task.cancel_signal.fired, task.waiting_for_signin,
            selected, focused, width, height, palette)


def _state_colour(task: OperationTask) -> QColor:
    """The ending's colour (darker shades of the vocabulary's, to read as text); plain while it runs."""
    ending = task.state.ending
    if ending is None:
        return TEXT
    return {"ok": OK_DARK, "cancelled": CANCELLED}.get(ending, FAILED_DARK)
