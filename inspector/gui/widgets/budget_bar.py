"""The budget bar: one operation's budget, its legs as they spend it, and how it ended.

Live, it repaints at least 20 times a second from a timer and the monotonic clock (never from
network events); replayed (:meth:`BudgetBar.show_legs`) it draws stored legs the same way.
A header line above the track says how much of the budget is spent and, at its right, the
countdown or the ending; the track below takes the widget's whole width.
Where each part goes is computed by :func:`budget_state.layout`, a pure function.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QHelpEvent, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_seconds
from inspector.runs import Leg

from ..language import on_language_changed, translated
from .budget_bar_waiting import WAITING_TEXT, paint_waiting
from .budget_state import BarGeometry, BarState, SegmentGeometry, layout
from .budget_waits import WAITING, waiting_words
from .plain_text import plain_tooltip

#: Okabe–Ito colours: safe for colour-blind readers; the hatching carries "cancelled" in grey.
OK = QColor("#009E73")
OK_DARK = QColor("#00785A")
FAILED = QColor("#D55E00")
FAILED_DARK = QColor("#A64A00")
CANCELLED = QColor("#0072B2")
#: A running leg is spending like an ok one (green, as in the sketch); its grant band and the
#: countdown tell it apart. Blue stays reserved for "cancelled".
RUNNING = OK
RUNNING_DARK = OK_DARK
BAND = QColor("#C8E6DC")
TRACK = QColor("#F0F0F0")
TRACK_EDGE = QColor("#D0D0D0")
DEADLINE = QColor("#333333")
TEXT = QColor("#1A1A1A")
#: The end mark of a leg that ended the operation: near black, on a white halo.
END_MARK = QColor("#111111")
#: The progress marks above the track.
TICK = QColor("#555555")
#: Repaint interval while running: about 60 a second (issue 27 asks at least 50 of the live bars).
FRAME_MS = 16
TICK_AREA_PX = 14
TRACK_PX = 24


class _Animator(QObject):
    """One timer for every live bar: all of them repaint in the same turn of the event loop
    (one paint pass for the window) instead of each on its own timer's phase."""

    def __init__(self) -> None:
        super().__init__()
        self._bars: set[BudgetBar] = set()
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.timeout.connect(self._tick)

    def add(self, bar: BudgetBar) -> None:
        self._bars.add(bar)
        if not self._timer.isActive():
            self._timer.start()

    def discard(self, bar: BudgetBar) -> None:
        self._bars.discard(bar)
        if not self._bars:
            self._timer.stop()

    def has(self, bar: BudgetBar) -> bool:
        return bar in self._bars

    def _tick(self) -> None:
        for bar in list(self._bars):
            try:
                bar.update()
            except RuntimeError:  # its widget is gone (a row removed from the list)
                self.discard(bar)


_animator: _Animator | None = None


def _the_animator() -> _Animator:
    global _animator
    if _animator is None:
        _animator = _Animator()
    return _animator


class BudgetBar(QWidget):
    """Draws a :class:`BarState`; live while a start time is set and the state is not finished."""

    def __init__(self, parent: QWidget | None = None, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(parent)
        self._clock = clock
        self._state: BarState | None = None
        self._started_at: float | None = None
        self._geometry: BarGeometry | None = None
        self._tick_path: tuple[tuple[int, float, float], object, QPainterPath] | None = None
        self._description = ""
        self._title = ""
        #: Frames painted: lets tests and benchmarks see the display rate.
        self.frames = 0
        #: The leg labels the last paint showed (tests read what a person would read).
        self.labels_shown: list[str] = []
        self.setMinimumHeight(self._header_px() + TICK_AREA_PX + TRACK_PX + 2)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)
        # It paints every pixel of itself (the window's colour under its header): a frame repaints
        # the bar alone, not the window, splitters and panels under it as well.
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        translated(self, "setAccessibleName", lambda: _("Budget bar"))
        # Its words are made while painting: a new language needs a new description and a repaint.
        on_language_changed(self, self.retranslate)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(520, self.minimumHeight())

    def _header_px(self) -> int:
        return self.fontMetrics().height() + 2

    @property
    def state(self) -> BarState | None:
        """What the bar shows (None before it was given anything)."""
        return self._state

    def set_title(self, title: str) -> None:
        """What the header names before the spent time (an operation's title); "" for none."""
        if title != self._title:
            self._title = title
            self.update()

    # -- what it shows ----------------------------------------------------------------------

    def show_live(self, state: BarState, started_at: float | None) -> None:
        """Follow a running operation; ``started_at`` is its start on the monotonic clock."""
        self._state, self._started_at = state, started_at
        self.refresh()

    def show_legs(self, legs: list[Leg], budget_s: float, status: str) -> None:
        """Replay a stored step's legs (a finished operation)."""
        self._state, self._started_at = BarState.replay(legs, budget_s, status), None
        self.refresh()

    def refresh(self) -> None:
        """Call when the state changed: starts or stops the animation and repaints."""
        live = self._state is not None and not self._state.finished and self._started_at is not None
        if live:
            _the_animator().add(self)
        else:
            _the_animator().discard(self)
        self._describe(self.current_geometry())
        self.update()

    def retranslate(self) -> None:
        self._description = ""
        self.refresh()

    @property
    def animating(self) -> bool:
        return _the_animator().has(self)

    def hideEvent(self, event: object) -> None:  # noqa: N802
        _the_animator().discard(self)  # nobody sees it: no frames for it
        super().hideEvent(event)  # type: ignore[arg-type]

    def showEvent(self, event: object) -> None:  # noqa: N802
        super().showEvent(event)  # type: ignore[arg-type]
        self.refresh()

    def now_s(self) -> float:
        if self._started_at is None:
            return 0.0
        return self._clock() - self._started_at

    def current_geometry(self) -> BarGeometry | None:
        if self._state is None:
            return None
        return layout(self._state, self.now_s(), self._track_rect().width())

    # -- painting ---------------------------------------------------------------------------

    def _track_rect(self) -> QRectF:
        top = self._header_px() + TICK_AREA_PX
        return QRectF(1, top, max(10.0, self.width() - 2), self.height() - top - 2)

    def paintEvent(self, event: object) -> None:  # noqa: N802
        self.frames += 1
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillRect(self.rect(), self.palette().color(QPalette.ColorRole.Window))
        track = self._track_rect()
        painter.fillRect(track, TRACK)
        painter.setPen(QPen(TRACK_EDGE, 1))
        painter.drawRect(track.adjusted(0, 0, -1, -1))
        geometry = self.current_geometry()
        self._geometry = geometry
        if geometry is None or self._state is None:
            painter.end()
            return
        small = QFont(self.font())
        small.setPointSizeF(max(6.5, small.pointSizeF() * 0.82))
        painter.setFont(small)
        self.labels_shown = []
        for segment in geometry.segments:
            self._paint_segment(painter, track, segment)
        self._paint_deadline(painter, track, geometry)
        self._paint_ticks(painter, track, geometry)
        self._paint_header(painter, geometry)
        painter.end()
        self._describe(geometry)

    def _describe(self, geometry: BarGeometry | None) -> None:
        if geometry is not None and geometry.description != self._description:
            self._description = geometry.description
            self.setAccessibleDescription(geometry.description)

    def _paint_segment(self, painter: QPainter, track: QRectF, segment: SegmentGeometry) -> None:
        top, height = track.top() + 1, track.height() - 2
        rect = QRectF(track.left() + segment.x, top, segment.width, height)
        kind = segment.kind
        if kind == "not_sent":
            painter.setPen(QPen(FAILED, 1.5, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(0.5, 1.5, -0.5, -1.5))
            return
        if segment.band_width > 0:
            painter.fillRect(QRectF(track.left() + segment.band_x, top + height * 0.2, segment.band_width,
                                    height * 0.6), BAND)
        if kind == WAITING:
            paint_waiting(painter, rect, segment.shade)
        else:
            fill = {
                "running": RUNNING_DARK if segment.shade else RUNNING,
                "ok": OK_DARK if segment.shade else OK,
                "failed": FAILED, "timed_out": FAILED_DARK, "cancelled": CANCELLED,
            }[kind]
            painter.fillRect(rect, fill)
        # The end mark takes the right end of the leg; the label gets what is left of it.
        mark_width = _end_mark_width(rect) if segment.end_mark else 0.0
        label_rect = rect.adjusted(0, 0, -mark_width, 0)
        if kind == "running" or (kind == WAITING and segment.band_width > 0):
            # The running leg's label may run on over its grant band: early on the leg is too
            # narrow for "6.3 s / grant 19 s", and that is when a reader wants it most.
            label_rect = QRectF(rect.left(), top, max(rect.width(), segment.band_x + segment.band_width
                                                      - segment.x), height)
        choices = (segment.method,) if kind == "cancelled" else (segment.label, segment.short_label, segment.method)
        if kind == WAITING:  # who it waited on says more than the leg's name; the pattern says it too
            choices = (segment.label, segment.short_label, waiting_words(segment.method), segment.spent_label)
        text = self._label_text(painter, label_rect, choices)
        if text:
            self.labels_shown.append(text)
        if kind == "cancelled":
            # The hatching stops where the label starts: the label sits on solid colour and reads.
            text_width = QFontMetricsF(painter.font()).horizontalAdvance(text) + 8 if text else 0.0
            _hatch(painter, rect.adjusted(text_width, 0, 0, 0))
        if kind == "timed_out":
            # The mark where the leg ran into its grant.
            painter.setPen(QPen(TEXT, 3))
            painter.drawLine(QPointF(rect.right(), top - 3), QPointF(rect.right(), top + height + 3))
        if segment.overrun_width > 0:
            # Past the deadline line: the overrun whole-second rounding admitted, underlined.
            over = QRectF(track.left() + segment.overrun_x, top + height - 4, segment.overrun_width, 4)
            painter.fillRect(over, FAILED)
        if segment.end_mark:
            _paint_end_mark(painter, QRectF(rect.right() - mark_width, top, mark_width, height), segment.end_mark)
        if text:
            flags = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
            text_rect = label_rect.adjusted(4, 0, -4, 0)
            # White on the leg's colour; dark where the label runs on over the light grant band.
            painter.save()
            painter.setClipRect(rect)
            painter.setPen(WAITING_TEXT if kind == WAITING else QColor("white"))
            painter.drawText(text_rect, flags, text)
            if label_rect.width() > rect.width():
                painter.setClipRect(QRectF(rect.right(), top, label_rect.right() - rect.right(), height))
                painter.setPen(TEXT)
                painter.drawText(text_rect, flags, text)
            painter.restore()

    @staticmethod
    def _label_text(painter: QPainter, rect: QRectF, choices: tuple[str, ...]) -> str:
        """The first label of ``choices`` that fits in ``rect``, else the last one elided ("" if none fits)."""
        metrics = QFontMetricsF(painter.font())
        room = rect.width() - 8
        if room < metrics.horizontalAdvance("…") * 3:
            return ""
        texts = [text for text in choices if text]
        if not texts:
            return ""
        text = next((text for text in texts if metrics.horizontalAdvance(text) <= room), texts[-1])
        shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
        return "" if shown == "…" else shown

    def _paint_deadline(self, painter: QPainter, track: QRectF, geometry: BarGeometry) -> None:
        x = track.left() + geometry.deadline_x
        painter.setPen(QPen(DEADLINE, 2))
        painter.drawLine(QPointF(x, track.top() - 3), QPointF(x, track.bottom() + 1))
        assert self._state is not None
        label = _("deadline {seconds} s").format(seconds=format_seconds(self._state.budget_s))
        metrics = QFontMetricsF(painter.font())
        text_width = metrics.horizontalAdvance(label)
        painter.setPen(QColor("#444444"))
        painter.drawText(QPointF(max(0.0, x - text_width - 3), track.top() - 4), label)

    def _paint_ticks(self, painter: QPainter, track: QRectF, geometry: BarGeometry) -> None:
        if not geometry.ticks:
            return
        # One path for every mark, made again only when the marks or the track moved.
        key = (id(geometry.ticks), track.left(), track.top())
        if self._tick_path is None or self._tick_path[0] != key or self._tick_path[1] is not geometry.ticks:
            path = QPainterPath()
            for tick in geometry.ticks:
                x = track.left() + tick.x
                path.moveTo(x - 4, track.top() - 8)
                path.lineTo(x + 4, track.top() - 8)
                path.lineTo(x, track.top() - 2)
                path.closeSubpath()
            self._tick_path = (key, geometry.ticks, path)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(TICK)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.drawPath(self._tick_path[2])
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)

    def _paint_header(self, painter: QPainter, geometry: BarGeometry) -> None:
        """The header line: [title — ]spent of the budget at the left; the countdown or ending, bold, at the right."""
        state = self._state
        assert state is not None
        area = QRectF(2, 0, self.width() - 4, self._header_px())
        flags = Qt.AlignmentFlag.AlignVCenter
        colour = {"ok": OK_DARK, "cancelled": CANCELLED, None: TEXT}.get(state.ending, FAILED_DARK)
        bold = QFont(self.font())
        bold.setBold(True)
        metrics = QFontMetricsF(bold)
        end = metrics.elidedText(geometry.end_text, Qt.TextElideMode.ElideRight, area.width() / 2)
        painter.setFont(bold)
        painter.setPen(colour)
        painter.drawText(area, flags | Qt.AlignmentFlag.AlignRight, end)
        painter.setFont(self.font())
        painter.setPen(TEXT)
        room = area.width() - metrics.horizontalAdvance(end) - 12
        plain = QFontMetricsF(self.font())
        text = geometry.spent_text
        if self._title:
            # The title gives way first: the numbers are what the header is for.
            rest = _("{title} — {spent}").format(title="", spent=text)
            title = plain.elidedText(self._title, Qt.TextElideMode.ElideRight,
                                     max(0.0, room - plain.horizontalAdvance(rest)))
            text = _("{title} — {spent}").format(title=title, spent=text)
        painter.drawText(area, flags | Qt.AlignmentFlag.AlignLeft,
                         plain.elidedText(text, Qt.TextElideMode.ElideRight, max(0.0, room)))

    # -- hover ----------------------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:  # noqa: D102
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(event.position().x(), event.position().y())
            if text:
                QToolTip.showText(event.globalPos(), plain_tooltip(text), self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_at(self, x: float, y: float) -> str | None:
        """The tooltip for a point of the widget: a progress mark, a leg, or the bar's summary."""
        geometry = self.current_geometry()
        if geometry is None:
            return None
        track = self._track_rect()
        local = x - track.left()
        if y < track.top():
            near = [tick for tick in geometry.ticks if abs(tick.x - local) <= 5]
            if near:
                return near[-1].tooltip
        segment = geometry.segment_at(local)
        if segment is not None:
            return segment.tooltip
        return geometry.description


def _end_mark_width(rect: QRectF) -> float:
    """Room at a leg's right end for its end mark (the whole leg when the leg is narrow)."""
    return min(rect.width(), max(10.0, rect.height() * 0.6))


def _paint_end_mark(painter: QPainter, area: QRectF, mark: str) -> None:
    """A dark cross (failed, timed out) or stop bar (cancelled) on a light halo: it reads in greyscale."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    size = min(area.width(), area.height()) - 3
    cx, cy = area.center().x(), area.center().y()
    half = max(2.0, size / 2)
    for colour, pen_width in ((QColor("white"), 4.5), (END_MARK, 2.0)):
        pen = QPen(colour, pen_width)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        if mark == "cross":
            painter.drawLine(QPointF(cx - half, cy - half), QPointF(cx + half, cy + half))
            painter.drawLine(QPointF(cx - half, cy + half), QPointF(cx + half, cy - half))
        else:
            painter.drawLine(QPointF(cx, cy - half), QPointF(cx, cy + half))
    painter.restore()


def _hatch(painter: QPainter, rect: QRectF) -> None:
    """White diagonal stripes: "cancelled" survives a greyscale print."""
    painter.save()
    painter.setClipRect(rect)
    painter.setPen(QPen(QColor(255, 255, 255, 190), 2))
    step = 7.0
    x = rect.left() - rect.height()
    while x < rect.right():
        painter.drawLine(QPointF(x, rect.bottom()), QPointF(x + rect.height(), rect.top()))
        x += step
    painter.restore()
