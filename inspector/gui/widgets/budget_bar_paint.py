"""How the budget bar is painted: its colours, and a painter that keeps what frames share.

A live bar is painted about 60 times a second. Making a Qt object (a rectangle, a pen, a font, its
metrics) costs the GUI thread little alone, but while the network engine's thread runs Python each
one waits for the interpreter lock (35-90 us apiece, against 1 us or less for a call that uses an
object). So the fonts, metrics and pens are made once per style, the track once per size, and the
rectangles, label and marks of a leg that has ended once per layout of it (:func:`budget_bar_layout.layout`
keeps those legs' geometry until the state changes); a frame makes objects for the running leg only.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QLineF, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_seconds
from inspector.runs.ending import UNRECORDED

from .budget_bar_layout import BarGeometry, SegmentGeometry
from .budget_bar_waiting import WAITING_TEXT, paint_waiting
from .budget_state import ERA_FOUND, BarState
from .budget_waits import WAITING, waiting_words
from .hints import readable_grey
from .outcome_colours import (
    CANCELLED_FILL,
    ERA_FOUND_EDGE,
    ERA_FOUND_FILL,
    FAILED_FILL,
    OK_FILL,
    OK_FILL_SHADE,
    TIMED_OUT_FILL,
    is_dark,
    label_colour,
    text_colour,
)

#: The outcome colours (Okabe–Ito hues, one lightness each: see :mod:`.outcome_colours`, where they are defined).
OK, OK_SHADE = OK_FILL, OK_FILL_SHADE
FAILED, TIMED_OUT, CANCELLED = FAILED_FILL, TIMED_OUT_FILL, CANCELLED_FILL
#: A running leg is spending like an ok one (green, as in the sketch); its grant band and the
#: countdown tell it apart. Blue stays reserved for "cancelled".
RUNNING, RUNNING_SHADE = OK, OK_SHADE
BAND = QColor("#C8E6DC")
TRACK = QColor("#F0F0F0")
TRACK_EDGE = QColor("#D0D0D0")
DEADLINE = QColor("#333333")
TEXT = QColor("#1A1A1A")
#: The end mark of a leg that ended the operation: near black, on a white halo.
END_MARK = QColor("#111111")
#: The progress marks above the track.
TICK = QColor("#555555")
TICK_AREA_PX = 14
TRACK_PX = 24

_WHITE = QColor("white")
_DEADLINE_TEXT = QColor("#444444")
_FILLS = {"running": (RUNNING, RUNNING_SHADE), "ok": (OK, OK_SHADE), "failed": (FAILED, FAILED),
          "timed_out": (TIMED_OUT, TIMED_OUT), "cancelled": (CANCELLED, CANCELLED),
          ERA_FOUND: (ERA_FOUND_FILL, ERA_FOUND_FILL)}
#: A leg's label: white on the dark fills, near black on the light ones (each reaches 4.5:1).
_LABELS = {kind: tuple(label_colour(fill) for fill in fills) for kind, fills in _FILLS.items()}
_TRACK_PEN = QPen(TRACK_EDGE, 1)
_NOT_SENT_PEN = QPen(FAILED, 1.5, Qt.PenStyle.DashLine)
_GRANT_HIT_PEN = QPen(TEXT, 3)
#: The outline of a probe that found the era: its light neutral fill stays apart from the track.
_ERA_FOUND_PEN = QPen(ERA_FOUND_EDGE, 1)
_DEADLINE_PEN = QPen(DEADLINE, 2)
_HATCH_PEN = QPen(QColor(255, 255, 255, 190), 2)
_HATCH_STEP_PX = 7.0


def _flat_pen(colour: QColor, width: float) -> QPen:
    pen = QPen(colour, width)
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return pen


#: A dark end mark on a light halo: it reads in greyscale.
_END_MARK_PENS = (_flat_pen(_WHITE, 4.5), _flat_pen(END_MARK, 2.0))
_LABEL_FLAGS = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft


@dataclass(frozen=True)
class _Style:
    """What every frame paints with, made again when the widget's font or palette changes."""

    font: QFont
    small: QFont
    bold: QFont
    metrics: QFontMetricsF
    small_metrics: QFontMetricsF
    bold_metrics: QFontMetricsF
    header_px: int
    window: QColor
    #: The header's text and the deadline's label: near black and dark grey on a light window, the
    #: palette's text and a grey that reaches 4.5:1 on a dark one.
    text: QColor
    muted: QColor

    @classmethod
    def of(cls, widget: QWidget) -> _Style:
        font = widget.font()
        small = QFont(font)
        small.setPointSizeF(max(6.5, small.pointSizeF() * 0.82))
        bold = QFont(font)
        bold.setBold(True)
        window = widget.palette().color(QPalette.ColorRole.Window)
        text, muted = TEXT, _DEADLINE_TEXT
        if is_dark(window):
            text = widget.palette().color(QPalette.ColorRole.WindowText)
            muted = readable_grey(text, window)
        return cls(font, small, bold, QFontMetricsF(font), QFontMetricsF(small), QFontMetricsF(bold),
                   widget.fontMetrics().height() + 2, window, text, muted)


@dataclass(frozen=True)
class _Track:
    """The widget's rectangle, the track's and the track's outline, for one size and style."""

    size: tuple[int, int, int]
    widget: QRect
    rect: QRectF
    outline: QRectF
    header: QRectF


@dataclass(frozen=True)
class _Leg:
    """One segment's rectangles, label and marks, ready to draw."""

    segment: SegmentGeometry
    rect: QRectF
    band: QRectF | None
    label_rect: QRectF
    text: str
    text_rect: QRectF
    #: A cancelled leg's stripes, and the part of the leg they are clipped to.
    hatch: tuple[QRectF, tuple[QLineF, ...]] | None
    grant_hit: QLineF | None
    overrun: QRectF | None
    end_mark: tuple[QLineF, ...]
    #: The label runs on over the grant band (dark there): where that part is clipped.
    run_on: QRectF | None


class BarPainter:
    """Paints a :class:`BarGeometry` into a widget (see the module's docstring for what it keeps)."""

    def __init__(self) -> None:
        self._style: _Style | None = None
        self._track: _Track | None = None
        self._legs: dict[int, _Leg] = {}
        self._deadline: tuple[tuple[float, float, float, str], QLineF, QPointF, QRectF] | None = None
        self._tick_path: tuple[tuple[object, float, float], QPainterPath] | None = None
        #: The header's two texts as the last paint showed them (left, right): tests read them.
        self.header_shown: tuple[str, str] = ("", "")
        #: The same two texts whole (the first title given, nothing cut): the header's tooltip where it is cut.
        self.header_whole: tuple[str, str] = ("", "")

    def restyle(self) -> None:
        """The widget's font or palette changed: make the fonts, metrics and rectangles again."""
        self._style = self._track = self._deadline = None
        self._legs = {}

    def style(self, widget: QWidget) -> _Style:
        if self._style is None:
            self._style = _Style.of(widget)
        return self._style

    def track(self, widget: QWidget) -> _Track:
        style = self.style(widget)
        size = (widget.width(), widget.height(), style.header_px)
        if self._track is None or self._track.size != size:
            width, height, header_px = size
            top = header_px + TICK_AREA_PX
            rect = QRectF(1, top, max(10.0, width - 2), height - top - 2)
            self._track = _Track(size, QRect(0, 0, width, height), rect, rect.adjusted(0, 0, -1, -1),
                                 QRectF(2, 0, width - 4, header_px))
            self._legs, self._deadline = {}, None
        return self._track

    def paint(self, widget: QWidget, state: BarState | None, geometry: BarGeometry | None,
              titles: tuple[str, ...] = ()) -> list[str]:
        """Paint the whole widget; returns the legs' labels shown. ``titles``: the header's title, then
        shorter ones for when it does not fit."""
        style, track = self.style(widget), self.track(widget)
        painter = QPainter(widget)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.fillRect(track.widget, style.window)
        painter.fillRect(track.rect, TRACK)
        painter.setPen(_TRACK_PEN)
        painter.drawRect(track.outline)
        labels: list[str] = []
        if geometry is None or state is None:
            painter.end()
            return labels
        painter.setFont(style.small)
        legs: dict[int, _Leg] = {}
        for segment in geometry.segments:
            leg = self._legs.get(id(segment))
            if leg is None or leg.segment is not segment:
                leg = self._leg(style, track.rect, segment)
            legs[id(segment)] = leg
            self._paint_leg(painter, leg)
            if leg.text:
                labels.append(leg.text)
        # What this frame drew is what the next one may reuse: a running leg's segment is new each
        # frame and drops out; an ended leg's stays while the layout keeps it.
        self._legs = legs
        self._paint_ticks(painter, track.rect, geometry)
        if state.no_deadline is None:  # none set (the agent's own call): the header says so, no line
            self._paint_deadline(painter, style, track.rect, state, geometry)  # its label over the marks
        self._paint_header(painter, style, track.header, state, geometry, titles)
        painter.end()
        return labels

    # -- a leg -----------------------------------------------------------------------------------

    def _leg(self, style: _Style, track: QRectF, segment: SegmentGeometry) -> _Leg:
        top, height = track.top() + 1, track.height() - 2
        rect = QRectF(track.left() + segment.x, top, segment.width, height)
        kind = segment.kind
        band = (QRectF(track.left() + segment.band_x, top + height * 0.2, segment.band_width, height * 0.6)
                if segment.band_width > 0 and kind != "not_sent" else None)
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
        text = "" if kind == "not_sent" else _label_text(style.small_metrics, label_rect, choices)
        hatch = None
        if kind == "cancelled":
            # The hatching stops where the label starts: the label sits on solid colour and reads. A
            # label that would take half the leg goes: solid blue prints the grey of failed's orange.
            text_width = style.small_metrics.horizontalAdvance(text) + 8 if text else 0.0
            if text_width > rect.width() / 2:
                text, text_width = "", 0.0
            striped = rect.adjusted(text_width, 0, 0, 0)
            hatch = (striped, _hatch_lines(striped))
        grant_hit = (QLineF(rect.right(), top - 3, rect.right(), top + height + 3) if kind == "timed_out" else None)
        # Past the deadline line: the overrun whole-second rounding admitted, underlined.
        overrun = (QRectF(track.left() + segment.overrun_x, top + height - 4, segment.overrun_width, 4)
                   if segment.overrun_width > 0 else None)
        end_mark = (_end_mark_lines(QRectF(rect.right() - mark_width, top, mark_width, height), segment.end_mark)
                    if segment.end_mark else ())
        run_on = (QRectF(rect.right(), top, label_rect.right() - rect.right(), height)
                  if label_rect.width() > rect.width() else None)
        return _Leg(segment, rect, band, label_rect, text, label_rect.adjusted(4, 0, -4, 0), hatch, grant_hit,
                    overrun, end_mark, run_on)

    @staticmethod
    def _paint_leg(painter: QPainter, leg: _Leg) -> None:
        segment, rect, kind = leg.segment, leg.rect, leg.segment.kind
        if kind == "not_sent":
            painter.setPen(_NOT_SENT_PEN)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect.adjusted(0.5, 1.5, -0.5, -1.5))
            return
        if leg.band is not None:
            painter.fillRect(leg.band, BAND)
        if kind == WAITING:
            paint_waiting(painter, rect, segment.shade)
        else:
            painter.fillRect(rect, _FILLS[kind][1 if segment.shade else 0])
            if kind == ERA_FOUND:
                painter.setPen(_ERA_FOUND_PEN)
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect.adjusted(0, 0, -1, -1))
        if leg.hatch is not None:
            painter.save()
            painter.setClipRect(leg.hatch[0])
            painter.setPen(_HATCH_PEN)
            painter.drawLines(list(leg.hatch[1]))
            painter.restore()
        if leg.grant_hit is not None:
            painter.setPen(_GRANT_HIT_PEN)
            painter.drawLine(leg.grant_hit)
        if leg.overrun is not None:
            painter.fillRect(leg.overrun, FAILED)
        if leg.end_mark:
            painter.save()
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            for pen in _END_MARK_PENS:
                painter.setPen(pen)
                painter.drawLines(list(leg.end_mark))
            painter.restore()
        if leg.text:
            # White on a dark fill, near black on a light one; dark where it runs on over the light grant band.
            painter.save()
            painter.setClipRect(rect)
            painter.setPen(WAITING_TEXT if kind == WAITING else _LABELS[kind][1 if segment.shade else 0])
            painter.drawText(leg.text_rect, _LABEL_FLAGS, leg.text)
            if leg.run_on is not None:
                painter.setClipRect(leg.run_on)
                painter.setPen(TEXT)
                painter.drawText(leg.text_rect, _LABEL_FLAGS, leg.text)
            painter.restore()

    # -- the rest --------------------------------------------------------------------------------

    def _paint_deadline(self, painter: QPainter, style: _Style, track: QRectF, state: BarState,
                        geometry: BarGeometry) -> None:
        label = _("deadline {seconds} s").format(seconds=format_seconds(state.budget_s))
        key = (geometry.deadline_x, track.left(), track.top(), label)
        if self._deadline is None or self._deadline[0] != key:
            x = track.left() + geometry.deadline_x
            metrics = style.small_metrics
            text_width = metrics.horizontalAdvance(label)
            at = QPointF(max(0.0, x - text_width - 3), track.top() - 4)
            self._deadline = (key, QLineF(x, track.top() - 3, x, track.bottom() + 1), at,
                              QRectF(at.x() - 1, at.y() - metrics.ascent(), text_width + 2,
                                     metrics.ascent() + metrics.descent()))
        painter.setPen(_DEADLINE_PEN)
        painter.drawLine(self._deadline[1])
        # On the window's colour: progress marks near the deadline (a chatty tool) are under it, not through it.
        painter.fillRect(self._deadline[3], style.window)
        painter.setPen(style.muted)
        painter.drawText(self._deadline[2], label)

    def _paint_ticks(self, painter: QPainter, track: QRectF, geometry: BarGeometry) -> None:
        if not geometry.ticks:
            return
        # One path for every mark, made again only when the marks or the track moved.
        key = (geometry.ticks, track.left(), track.top())
        if self._tick_path is None or self._tick_path[0][0] is not geometry.ticks or self._tick_path[0] != key:
            path = QPainterPath()
            for tick in geometry.ticks:
                x = track.left() + tick.x
                path.moveTo(x - 4, track.top() - 8)
                path.lineTo(x + 4, track.top() - 8)
                path.lineTo(x, track.top() - 2)
                path.closeSubpath()
            self._tick_path = (key, path)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(TICK)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.drawPath(self._tick_path[1])
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)

    def _paint_header(self, painter: QPainter, style: _Style, area: QRectF, state: BarState, geometry: BarGeometry,
                      titles: tuple[str, ...]) -> None:
        """The header line: [title — ]spent of the budget at the left; the countdown or ending, bold, at the right."""
        flags = Qt.AlignmentFlag.AlignVCenter
        colour = style.text if state.ending in (None, UNRECORDED) else text_colour(state.ending, style.window)
        metrics, plain = style.bold_metrics, style.metrics
        text = geometry.spent_text
        titles = tuple(title for title in titles if title)
        whole = _("{title} — {spent}").format(title=titles[0], spent=text) if titles else text
        title = titles[-1] if titles else ""
        # The ending ("✗ fehlgeschlagen: Zeitüberschreitung") is what happened: it takes what the
        # numbers leave, and at least half the line; the title gives way first.
        numbers = plain.horizontalAdvance(_("{title} — {spent}").format(title="…", spent=text) if title else text)
        end_room = max(area.width() / 2, area.width() - numbers - 12)
        end = metrics.elidedText(geometry.end_text, Qt.TextElideMode.ElideRight, end_room)
        painter.setFont(style.bold)
        painter.setPen(colour)
        painter.drawText(area, flags | Qt.AlignmentFlag.AlignRight, end)
        painter.setFont(style.font)
        painter.setPen(style.text)
        room = area.width() - metrics.horizontalAdvance(end) - 12
        if title:
            # The title gives way first: the numbers are what the header is for. The first title that fits
            # whole, else none: a cut one ("to…", "tool…" at 1,024 px in German) named nothing; the tooltip
            # says it whole.
            rest = _("{title} — {spent}").format(title="", spent=text)
            left = max(0.0, room - plain.horizontalAdvance(rest))
            title = next((each for each in titles if plain.horizontalAdvance(each) <= left), "")
            if title:
                text = _("{title} — {spent}").format(title=title, spent=text)
        text = plain.elidedText(text, Qt.TextElideMode.ElideRight, max(0.0, room))
        painter.drawText(area, flags | Qt.AlignmentFlag.AlignLeft, text)
        self.header_shown = (text, end)
        self.header_whole = (whole, geometry.end_text)


def _label_text(metrics: QFontMetricsF, rect: QRectF, choices: tuple[str, ...]) -> str:
    """The first label of ``choices`` that fits in ``rect``, else the last one elided ("" if none fits)."""
    room = rect.width() - 8
    if room < metrics.horizontalAdvance("…") * 3:
        return ""
    texts = [text for text in choices if text]
    if not texts:
        return ""
    text = next((text for text in texts if metrics.horizontalAdvance(text) <= room), texts[-1])
    shown = metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)
    return "" if shown == "…" else shown


def _end_mark_width(rect: QRectF) -> float:
    """Room at a leg's right end for its end mark (the whole leg when the leg is narrow)."""
    return min(rect.width(), max(10.0, rect.height() * 0.6))


def _end_mark_lines(area: QRectF, mark: str) -> tuple[QLineF, ...]:
    """A cross (failed, timed out) or a stop bar (cancelled), centred in ``area``."""
    size = min(area.width(), area.height()) - 3
    cx, cy = area.center().x(), area.center().y()
    half = max(2.0, size / 2)
    if mark == "cross":
        return (QLineF(cx - half, cy - half, cx + half, cy + half), QLineF(cx - half, cy + half, cx + half, cy - half))
    return (QLineF(cx, cy - half, cx, cy + half),)


def _hatch_lines(rect: QRectF) -> tuple[QLineF, ...]:
    """White diagonal stripes over ``rect``: "cancelled" survives a greyscale print."""
    lines = []
    x = rect.left() - rect.height()
    while x < rect.right():
        lines.append(QLineF(x, rect.bottom(), x + rect.height(), rect.top()))
        x += _HATCH_STEP_PX
    return tuple(lines)
