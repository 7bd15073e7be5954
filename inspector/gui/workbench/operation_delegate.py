"""Paints one operation on one line: title, a mini budget bar, state, and a Cancel button while it runs.

The Cancel button is painted (an item view has no widgets per row: one Tab stop for the whole
list); a click on it is caught in :meth:`OperationDelegate.editorEvent`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QMouseEvent, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionButton, QStyleOptionViewItem, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_duration
from inspector.i18n.words import marked_outcome_text, outcome_word
from inspector.runs.ending import UNRECORDED

from ..language import on_language_changed
from ..widgets.budget_bar_layout import AFTER_DEADLINE_SHARE
from ..widgets.mini_bar import paint_spans, spans
from ..widgets.outcome_colours import is_dark, text_colour
from ..widgets.static_texts import StaticTexts
from .operation_task import OperationTask
from .operations_model import TASK_ROLE, countdown_text, left_tenths, now_s, short_state_text, state_text, title_text

#: A selected row: a light tint, so the outcome colours keep their contrast (a dark palette gets a
#: dark tint of its own: :func:`selected_tint`).
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
class _Shape:
    """Where a row of one size puts its parts, at the origin; made once per size."""

    parts: RowParts
    #: The mini bar's rectangle (a few pixels high, centred).
    bar: QRectF
    #: The state's room once the Cancel button has gone.
    state_wide: QRect
    metrics: QFontMetrics
    # The list's font and colours, copied once (asking the option for them makes new objects):
    # a change of palette, font or style forgets every shape (RowsView.changeEvent).
    font: QFont
    base: QColor
    text: QColor
    highlight: QColor
    #: A selected row's background.
    selected: QColor


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
        self._shapes: dict[tuple[int, int], _Shape] = {}
        self._focus_pens: dict[int, QPen] = {}
        self._painter = QPainter()  # reused for every row's picture
        #: The titles and states, laid out once each (a row is drawn again at each pixel of its bar).
        self.texts = StaticTexts()
        #: The task of a row of the list's model, by row (set by the list), else each index's TASK_ROLE.
        self.task_at: Callable[[int], OperationTask | None] | None = None
        self._titles: dict[tuple[OperationTask, int], str] = {}
        self._fits: dict[tuple[str, int], str] = {}
        #: The state each row's picture showed last, as fitted to its room (what a reader saw).
        self.states_shown: dict[OperationTask, str] = {}
        # Numbers are formatted for the language (Babel), which costs more than painting a row: a
        # finished row's state and each tenth of a countdown are formatted once.
        self._ended: dict[OperationTask, str] = {}
        self._countdowns: dict[tuple[int, bool], str] = {}
        self._buttons: dict[tuple[int, int], QPixmap] = {}
        #: Each row's picture, with the key of what it shows and the shape (size) it was drawn in.
        self._pictures: dict[OperationTask, tuple[tuple[object, ...], _Shape, QPixmap]] = {}
        #: Rows painted, and pictures of rows made: let tests and benchmarks see what the list costs.
        self.frames = 0
        self.pictures_made = 0
        on_language_changed(self, self._forget_widths)

    def _forget_widths(self) -> None:
        self._state_px = None
        self._parts.clear()
        self._shapes.clear()
        self._titles.clear()
        self._buttons.clear()
        self._ended.clear()
        self._countdowns.clear()
        self._pictures.clear()
        self._fits.clear()
        self.states_shown.clear()
        self.texts.forget()

    @staticmethod
    def row_height(metrics: QFontMetrics) -> int:
        return metrics.height() + 4

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        return QSize(240, self.row_height(option.fontMetrics))

    def parts(self, rect: QRect, metrics: QFontMetrics) -> RowParts:
        """The row's title, mini bar, state and Cancel areas, left to right."""
        inner = rect.adjusted(4, 1, -3, -1)
        cancel_w = metrics.horizontalAdvance(_("Cancel")) + 16
        if self._state_px is None:
            # As wide as the longest a running row says (its countdown), in the language in use; and
            # with the Cancel button's room (gone once it ended), as a failure's words and time.
            left = max((_("{seconds} s left").format(seconds="88.8"), _("{seconds} s over").format(seconds="0.8")),
                       key=metrics.horizontalAdvance)  # past the deadline: "0.3 s over"
            long = _("{state} · {time}").format(state=outcome_word("running"), time=left)
            cancelling = max(metrics.horizontalAdvance(_("cancelling…")),
                             metrics.horizontalAdvance(_("waiting for sign-in")))
            ended = max(metrics.horizontalAdvance(_("{state} · {time}").format(
                state=marked_outcome_text("failed", kind), time=format_duration(0.0144)))
                for kind in ("tool_error", "unreachable", "timed_out")) - cancel_w - GAP_PX
            self._state_px = (max(metrics.horizontalAdvance(long), cancelling, ended) + 4,
                              max(metrics.horizontalAdvance(left), cancelling) + 4)
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
        return _remembered(self._parts, key, lambda: self.parts(rect, metrics))

    def _title(self, task: OperationTask, metrics: QFontMetrics, width: int) -> str:
        return _remembered(self._titles, (task, width),
                           lambda: metrics.elidedText(title_text(task), _ELIDE, width))

    def _fitted(self, task: OperationTask, text: str, metrics: QFontMetrics, width: int) -> str:
        """``text``, the state of ``task``, fitted to ``width``, worked out once per text and width: an ended
        failure too wide says its kind alone beside the failed mark (:func:`short_state_text`: "✗
        Zeitüberschreitung · 2,0 s", not "✗ fehlgeschlagen: Zeitüberschreitu…"); what still does not fit
        is elided."""
        def fit() -> str:
            short = short_state_text(task) if metrics.horizontalAdvance(text) > width else None
            return metrics.elidedText(short or text, _ELIDE, width)

        return _remembered(self._fits, (text, width), fit)

    def _state_text(self, task: OperationTask, now: float, compact: bool) -> str:
        """:func:`state_text`, formatted once for a finished row and once per tenth of a countdown."""
        if task.running:
            if task.cancel_signal.fired or task.waiting_for_signin:
                return state_text(task, now)
            tenths = left_tenths(task, now)
            return _remembered(self._countdowns, (tenths, compact), lambda: countdown_text(tenths, compact=compact))
        return _remembered(self._ended, task, lambda: state_text(task, now))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        """The row's picture, drawn again only when what it shows changed.

        A new operation goes in at the top and moves every row under it: the list repaints them
        all. Each row is kept as a picture, so a row that only moved costs one copy instead of its
        texts and rectangles again. And nothing of Qt's is made while painting that can be made
        once: with the network engine's thread running Python, making a rectangle, pen, pixmap or
        painter cost the GUI thread 35-90 µs each, using one about 1 µs (measured)."""
        # The list's own model is asked directly (``index.data`` calls back into Python through Qt).
        task = self.task_at(index.row()) if self.task_at is not None else index.data(TASK_ROLE)
        if not isinstance(task, OperationTask):
            return
        self.frames += 1
        rect = option.rect
        width, height = rect.width(), rect.height()
        now = self._clock()
        shape = self._shapes.get((width, height))
        if shape is None:
            shape = self._shape(width, height, option)
        state = option.state  # a flag's test is a Python call each: made once per row
        row = (width, height, bool(state & _SELECTED), bool(state & _HAS_FOCUS))
        key = _picture_key(task, now, shape.parts.bar.width(), row[2], row[3])
        kept = self._pictures.get(task)
        if kept is None or kept[0] != key or kept[1] is not shape:
            if len(self._pictures) > CACHE_LIMIT:
                self._pictures.clear()
            pixmap = kept[2] if kept is not None and kept[1] is shape else None  # the same size: reused
            kept = self._pictures[task] = (key, shape, self._picture(option, task, shape, now, pixmap, row))
            self.pictures_made += 1
        painter.drawPixmap(rect.x(), rect.y(), kept[2])

    def moment(self, task: OperationTask, bar_px: int) -> tuple[int, int] | None:
        """:func:`row_moment` now, by this delegate's clock."""
        return row_moment(task, bar_px, self._clock())

    def forget_pictures(self) -> None:
        """Draw every row anew (the palette, the font or the style changed)."""
        self._pictures.clear()
        self._shapes.clear()
        self.texts.forget()

    def _shape(self, width: int, height: int, option: QStyleOptionViewItem) -> _Shape:
        """Where a row of this size puts its parts, at the origin (where its picture is drawn)."""
        metrics = option.fontMetrics
        parts = self.parts(QRect(0, 0, width, height), metrics)
        bar_height = max(6, min(12, parts.bar.height() - 6))
        bar = QRectF(parts.bar.left(), parts.bar.center().y() - bar_height / 2 + 1, parts.bar.width(), bar_height)
        if len(self._shapes) > CACHE_LIMIT:
            self._shapes.clear()
        # A copy: the option's own lives only as long as the paint that gave it.
        palette = option.palette
        base, highlight = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Highlight)
        shape = self._shapes[(width, height)] = _Shape(
            parts, bar, parts.state.united(parts.cancel), QFontMetrics(metrics), QFont(option.font),
            base, palette.color(QPalette.ColorRole.Text), highlight, selected_tint(base, highlight))
        return shape

    def _picture(self, option: QStyleOptionViewItem, task: OperationTask, shape: _Shape, now: float,
                 pixmap: QPixmap | None, row: tuple[int, int, bool, bool]) -> QPixmap:
        """The row drawn into a picture of its own (on the list's background, or the selection's);
        ``row``: its width, height, and whether it is selected and has the focus."""
        width, height, selected, _focused = row
        if pixmap is None:
            widget = option.widget if isinstance(option.widget, QWidget) else None
            ratio = widget.devicePixelRatioF() if widget is not None else 1.0
            pixmap = QPixmap(round(width * ratio), round(height * ratio))
            pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(shape.selected if selected else shape.base)
        painter = self._painter
        painter.begin(pixmap)
        try:
            self._draw(painter, option, task, shape, now, row)
        finally:
            painter.end()
        return pixmap

    def _draw(self, painter: QPainter, option: QStyleOptionViewItem, task: OperationTask, shape: _Shape,
              now: float, row: tuple[int, int, bool, bool]) -> None:
        """Paint the row into ``painter`` at the origin; ``row`` as :meth:`_picture` has it."""
        parts, metrics = shape.parts, shape.metrics
        width, height, selected, focused = row
        painter.setFont(shape.font)
        if selected:
            painter.fillRect(0, 0, 3, height, SELECTED_EDGE)
        if focused:
            painter.setPen(self._focus_pen(shape.highlight))
            painter.drawRect(0, 0, width - 1, height - 1)
        painter.setPen(shape.text)
        self.texts.draw(painter, parts.title, self._title(task, metrics, parts.title.width()), metrics)
        deadline_x, legs = spans(task.state, now_s(task, now), shape.bar.width() - 2)
        paint_spans(painter, shape.bar, deadline_x, legs)
        cancellable = task.running and not task.cancel_signal.fired
        state_rect = parts.state if cancellable else shape.state_wide
        painter.setPen(_state_colour(task, shape.selected if selected else shape.base, shape.text))
        text = self._state_text(task, now, parts.compact)
        shown = self._fitted(task, text, metrics, state_rect.width())
        _keep(self.states_shown, task, shown)
        self.texts.draw(painter, state_rect, shown, metrics)
        if cancellable:
            cancel = parts.cancel
            painter.drawPixmap(cancel.x(), cancel.y(), self._button(option, cancel.width(), cancel.height()))

    def _focus_pen(self, colour: QColor) -> QPen:
        pen = self._focus_pens.get(colour.rgba())
        if pen is None:
            pen = self._focus_pens[colour.rgba()] = QPen(colour, 1, Qt.PenStyle.DotLine)
        return pen

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


def _remembered(cache: dict[Any, Any], key: object, make: Callable[[], Any]) -> Any:
    """``cache[key]``, made by ``make`` the first time; a cache past :data:`CACHE_LIMIT` starts over."""
    value = cache.get(key)
    if value is None:
        if len(cache) > CACHE_LIMIT:
            cache.clear()
        value = cache[key] = make()
    return value


def _keep(shown: dict[OperationTask, str], task: OperationTask, text: str) -> None:
    """Remember what ``task``'s row shows; past :data:`CACHE_LIMIT` rows the record starts over."""
    if len(shown) > CACHE_LIMIT:
        shown.clear()
    shown[task] = text


def row_moment(task: OperationTask, bar_px: int, now: float) -> tuple[int, int] | None:
    """What a running row shows that moves with the clock: the countdown's tenth and the mini bar's
    length in pixels (``None`` once it ended). The list repaints a running row when this moves, and
    the row's picture is drawn again when it does: the two agree."""
    if not task.running:
        return None
    per_s = bar_px / max(task.budget_s * (1 + AFTER_DEADLINE_SHARE), 1e-9)
    return left_tenths(task, now), int(task.elapsed_s(now) * per_s + 0.5)


def _picture_key(task: OperationTask, now: float, bar_px: int, selected: bool, focused: bool) -> tuple[object, ...]:
    """What tells two pictures of a row of one size apart: its legs and ending (each change bumps
    the state's ``legs_version``; a progress note does not, a row does not show it), and while it
    runs its :func:`row_moment`."""
    return (task.state.legs_version, row_moment(task, bar_px, now), task.running, task.cancel_signal.fired,
            task.waiting_for_signin, selected, focused)


def _state_colour(task: OperationTask, background: QColor, plain: QColor) -> QColor:
    """The ending's word colour on the row's ``background`` (its hue, at 4.5:1 or more); ``plain`` while it runs."""
    ending = task.state.ending
    if ending is None or ending == UNRECORDED:
        return plain
    return text_colour(ending if ending in ("ok", "cancelled") else "failed", background) or plain


def selected_tint(base: QColor, highlight: QColor) -> QColor:
    """A selected row's background: :data:`SELECTED` on a light base, the base a third of the way to the
    highlight on a dark one (where a light tint would hide the palette's light text)."""
    if not is_dark(base):
        return SELECTED
    return QColor(*(round(a * 2 / 3 + b / 3) for a, b in zip(base.getRgb()[:3], highlight.getRgb()[:3], strict=True)))
