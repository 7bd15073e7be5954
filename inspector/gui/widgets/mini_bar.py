"""The budget bar in one line of a list: the budget's track, the legs as they spend it, the deadline.

No labels, ticks or tooltips (the full :class:`~inspector.gui.widgets.budget_bar.BudgetBar` of the
selected operation has them): painting one costs a few rectangles per leg, whatever the
operation's history (its progress notes are not drawn here).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen

from .budget_bar_layout import AFTER_DEADLINE_SHARE, ended_history
from .budget_bar_paint import (
    BAND,
    CANCELLED,
    DEADLINE,
    END_MARK,
    FAILED,
    OK,
    OK_SHADE,
    RUNNING,
    RUNNING_SHADE,
    TIMED_OUT,
    TRACK,
    TRACK_EDGE,
)
from .budget_bar_waiting import paint_waiting
from .budget_state import ERA_FOUND, BarState, LegState, leg_kind
from .budget_waits import WAITING
from .outcome_colours import ERA_FOUND_EDGE, ERA_FOUND_FILL
from .outcomes import hatch_brush

#: A leg is at least this wide, so that a quick one still shows.
MIN_SPAN_PX = 2.0
#: A probe that found the era is at least this wide: its light fill shows inside its outline.
MIN_ERA_FOUND_PX = 6.0
#: The outline of a leg never sent (budget used up) is this wide.
NOT_SENT_PX = 12.0


@dataclass(frozen=True)
class Span:
    """Where one leg goes in the mini bar (pixels from the track's left). ``kind`` as in the full bar."""

    kind: str
    x: float
    width: float
    #: The running leg's grant, from its end to the grant's end (0 otherwise).
    band_width: float = 0.0


def spans(state: BarState, now_s: float, width: float) -> tuple[float, list[Span]]:
    """The deadline's x and each leg's span for an operation ``now_s`` seconds after it started.

    The spans of the legs that have ended are made once per change of the state (kept with the
    full bar's layout in ``state.kept``); a frame places the running leg(s) after them. With more
    legs than the line can show one by one, neighbouring ended legs of the same kind that overlap
    on the line are drawn as one span."""
    budget = max(state.budget_s, 1e-9)
    at = state.ended_s if state.finished and state.ended_s is not None else now_s
    history = ended_history(state)
    first_running = history["first_running"]
    tail = state.legs[first_running:]
    shown = max(budget * (1 + AFTER_DEADLINE_SHARE), history["far"])
    for leg in tail:
        end = leg.start_s + (leg.elapsed_s if leg.elapsed_s is not None else max(0.0, at - leg.start_s))
        if leg.running and leg.granted_s:
            end = max(end, leg.start_s + leg.granted_s)
        shown = max(shown, end)
    # A leg never sent gets an outline of its own after all that was spent: keep room for it.
    px = max(1.0, width - (NOT_SENT_PX + 2 if history["refused"] else 0.0)) / shown
    placed = history.get(("mini", width, shown))
    if placed is None:
        crowded = len(state.legs) * 2 * MIN_SPAN_PX > width
        placed = history[("mini", width, shown)] = _place(state, 0, first_running, at, px, budget, width,
                                                          [], crowded, 0.0)
    result, floor = placed
    if tail:
        result, _floor = _place(state, first_running, len(state.legs), at, px, budget, width, result, False, floor)
    return budget * px, list(result)


def _place(state: BarState, first: int, last: int, at: float, px: float, budget: float, width: float,
           result: list[Span], crowded: bool, floor: float) -> tuple[list[Span], float]:
    """Spans for ``state.legs[first:last]`` after ``result``; ``floor``: where the spans after a probe
    drawn wider than it took (:data:`MIN_ERA_FOUND_PX`) may start, 0 before one. Returns the spans
    and the floor after them."""
    result = list(result)
    for index in range(first, last):
        leg = state.legs[index]
        kind = _kind(leg, state, index)
        if kind == "not_sent":
            # After the deadline and after whatever was spent: it was never sent.
            x = max([budget * px] + [span.x + span.width for span in result]) + 2
            result.append(Span(kind, x, max(4.0, min(NOT_SENT_PX, width - x))))
            continue
        spent = leg.elapsed_s if leg.elapsed_s is not None else max(0.0, at - leg.start_s)
        x = leg.start_s * px
        span = max(MIN_ERA_FOUND_PX if kind == ERA_FOUND else MIN_SPAN_PX, spent * px)
        previous = result[-1] if result else None
        if floor:
            x = max(x, floor)  # after the probe, which may be drawn wider than it took, and what follows it
            floor = x + span
        elif kind == ERA_FOUND:
            floor = x + span
        if (crowded and previous is not None and previous.kind == kind and not leg.running
                and x <= previous.x + previous.width):
            # Overlapping on the line with its neighbour of the same kind: one span for both.
            result[-1] = Span(kind, previous.x, max(previous.width, x + span - previous.x))
            continue
        band = 0.0
        if leg.running and leg.granted_s:
            band = max(0.0, (leg.start_s + leg.granted_s) * px - x - span)
        result.append(Span(kind, x, span, band))
    return result, floor


def _kind(leg: LegState, state: BarState, index: int) -> str:
    kind = leg_kind(leg)
    if kind == "ok" and state.ending == "failed" and index == len(state.legs) - 1:
        return "failed"  # the tool said it failed: the work leg shows it, as in the full bar
    return kind


def paint_mini_bar(painter: QPainter, rect: QRectF, state: BarState, now_s: float) -> None:
    """Paint ``state`` at ``now_s`` into ``rect`` (a line's height, a few pixels)."""
    deadline_x, legs = spans(state, now_s, rect.width() - 2)
    paint_spans(painter, rect, deadline_x, legs)


def paint_spans(painter: QPainter, rect: QRectF, deadline_x: float, legs: list[Span]) -> None:
    """Paint what :func:`spans` placed (for ``rect.width() - 2`` pixels) into ``rect``.

    Nothing Qt's is made here (pens, brushes and rectangles are made once and reused): with the
    network engine's thread running Python, making one costs 35-90 µs on the GUI thread against
    1 µs or less for a call that uses it (``QRectF()`` against ``fillRect``, measured)."""
    painter.fillRect(rect, TRACK)
    painter.setPen(_TRACK_PEN)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    frame = _FRAME
    frame.setRect(rect.x(), rect.y(), rect.width() - 1, rect.height() - 1)
    painter.drawRect(frame)
    left, top, height = rect.left() + 1, rect.top() + 1, rect.height() - 2
    area, band = _AREA, _BAND
    for number, span in enumerate(legs):
        area.setRect(left + span.x, top, span.width, height)
        if span.kind == "not_sent":
            painter.setPen(_NOT_SENT_PEN)
            frame.setRect(area.x() + 0.5, top + 0.5, span.width - 1, height - 1)
            painter.drawRect(frame)
            continue
        if span.band_width > 0:
            band.setRect(area.right(), top + height * 0.25, span.band_width, height * 0.5)
            painter.fillRect(band, BAND)
        shade = number % 2 == 1
        if span.kind == WAITING:
            paint_waiting(painter, area, int(shade), outline=False)
            continue
        # One lightness per outcome (ok light, failed dark, timed out darker); cancelled hatched.
        colour = {"running": RUNNING_SHADE if shade else RUNNING, "ok": OK_SHADE if shade else OK, "failed": FAILED,
                  "timed_out": TIMED_OUT, "cancelled": CANCELLED, ERA_FOUND: ERA_FOUND_FILL}.get(span.kind, OK)
        painter.fillRect(area, colour)
        if span.kind == ERA_FOUND:
            # A probe that found the era: light and neutral, outlined (apart from the track in greyscale).
            painter.setPen(_ERA_FOUND_PEN)
            frame.setRect(area.x(), area.y(), span.width - 1, height - 1)
            painter.drawRect(frame)
        elif span.kind == "cancelled":
            painter.fillRect(area, _HATCH)
        elif span.kind == "timed_out" and span.width >= 3:
            # It ran into its grant: a dark wall at its end, as the full bar marks it.
            _LINE.setLine(area.right() - 1, area.top(), area.right() - 1, area.bottom())
            painter.setPen(_WALL_PEN)
            painter.drawLine(_LINE)
    painter.setPen(_DEADLINE_PEN)
    x = left + deadline_x
    _LINE.setLine(x, rect.top(), x, rect.bottom())
    painter.drawLine(_LINE)


# Made once and reused by every paint (the GUI thread's alone): see paint_spans.
_TRACK_PEN = QPen(TRACK_EDGE, 1)
_NOT_SENT_PEN = QPen(FAILED, 1, Qt.PenStyle.DashLine)
_DEADLINE_PEN = QPen(DEADLINE, 2)
_WALL_PEN = QPen(END_MARK, 2)
_ERA_FOUND_PEN = QPen(ERA_FOUND_EDGE, 1)
_HATCH = hatch_brush(QColor("white"))
_FRAME, _AREA, _BAND = QRectF(), QRectF(), QRectF()
_LINE = QLineF()


__all__ = ["Span", "paint_mini_bar", "paint_spans", "spans"]
