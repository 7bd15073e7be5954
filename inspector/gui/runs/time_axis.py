"""The timeline's column headings with a time axis over the waterfall: ticks at round times from the
run's start ("0", "20 ms", "40 ms", … or "0", "0.5 s", "1 s", …) in the reader's number format,
placed where the waterfall's bars put those times."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import QHeaderView, QStyle, QStyleOptionHeader, QWidget

from inspector.i18n import _, formatting

#: The waterfall's bars are drawn this far inside their cell (see :mod:`.waterfall`); so are the ticks.
CELL_MARGIN_PX = 4


#: Round steps of a clock from a minute to a day, in seconds: each tick's time is said exactly in the units
#: :func:`~inspector.i18n.formatting.format_duration` says (a step of 10,000 s put a tick at 2 h 46 min 40 s
#: labelled "2 h 47 min", and one of 100,000 s one at 1 d 3 h 46 min labelled "1 d 4 h").
_CLOCK_STEPS = (60, 120, 300, 600, 900, 1200, 1800, 3600, 7200, 10800, 21600, 43200, 86400)
_DAY_S = 86400


def tick_step(span_s: float, ticks: int) -> float:
    """A round step that puts at most ``ticks`` steps on ``span_s``: 1, 2 or 5 times a power of ten seconds
    below a minute, a clock's round step from a minute to a day (5 min, 15 min, 1 h, 6 h), and 1, 2 or 5 times
    a power of ten days beyond."""
    raw = max(span_s, 1e-9) / max(ticks, 1)
    step = _decimal_step(raw)
    if step < _CLOCK_STEPS[0]:
        return step
    if raw > _DAY_S:
        return _DAY_S * _decimal_step(raw / _DAY_S)
    return next(clock for clock in _CLOCK_STEPS if clock >= raw * (1 - 1e-9))


def _decimal_step(raw: float) -> float:
    """The least of 1, 2 or 5 times a power of ten that is ``raw`` or more."""
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw * (1 - 1e-9):
            return factor * power
    return 10 * power


def tick_label(seconds: float, step_s: float) -> str:
    """A tick's time in the reader's language, as precise as the step between ticks needs."""
    if seconds == 0:
        return formatting.format_number(0)
    if step_s < 0.1 - 1e-12:
        step_ms = step_s * 1000
        digits = 0 if step_ms >= 1 else math.ceil(-math.log10(step_ms) - 1e-9)
        milliseconds = round(seconds * 1000, digits)
        # Translators: a time on the waterfall's axis in milliseconds; {ms} is a number such as "250".
        return _("{ms} ms").format(ms=formatting.format_number(int(milliseconds) if digits == 0 else milliseconds))
    if step_s < 60:
        digits = 0 if step_s >= 1 else 1
        rounded = float(round(seconds, digits))
        return _("{seconds} s").format(seconds=formatting.format_number(int(rounded) if rounded.is_integer()
                                                                        else rounded))
    return formatting.format_duration(seconds)


def _ticks(span: float, count: int) -> tuple[float, list[tuple[float, float, str]]]:
    """The step for at most ``count`` steps on ``span`` seconds, and its ticks as :func:`axis_ticks` gives them
    (x as a share of the span: times the axis' width where used)."""
    step = tick_step(span, count)
    ticks, number = [], 0
    while number * step <= span * (1 + 1e-9):
        seconds = number * step
        ticks.append((seconds / span, seconds, tick_label(seconds, step)))
        number += 1
    return step, ticks


def axis_ticks(span_s: float, width: float, text_width: Callable[[str], float],
               gap_px: float = 10) -> list[tuple[float, float, str]]:
    """(x from the axis' start, seconds, label) of each tick on an axis ``width`` pixels long: the
    most ticks whose labels (``text_width`` measures one) do not run into each other; in a column too
    narrow for that, the ticks that show the most labels where drawn (:func:`label_places` leaves out
    a label that does not fit): never "0" alone where a scale can be shown."""
    if width <= 0:
        return []
    span = max(span_s, 1e-9)
    most = max(int(width // 24), 1)
    for count in range(most, 0, -1):
        step, shares = _ticks(span, count)
        ticks = [(share * width, seconds, label) for share, seconds, label in shares]
        room = step / span * width
        if len(ticks) >= 2 and all(text_width(label) + gap_px <= room for _x, _s, label in ticks) and \
                len(label_places(ticks, 0, math.floor(width) + CELL_MARGIN_PX, text_width)) >= 2:
            return ticks
    # No labels fit side by side: of every number of ticks (more too: two ticks can show one label, "0",
    # where the last label fits neither right nor left of its tick), the one showing the most labels,
    # among equals the fewest ticks.
    best: list[tuple[float, float, str]] = [(0.0, 0.0, tick_label(0, span))]
    best_shown = 0
    for count in range(1, max(int(width // 8), most) + 1):
        _step, shares = _ticks(span, count)
        ticks = [(share * width, seconds, label) for share, seconds, label in shares]
        if len(ticks) < 2:
            continue  # the step rounded past the span (0.05 s for a run of 0.049 s): "0" alone is no scale
        shown = len(label_places(ticks, 0, math.floor(width) + CELL_MARGIN_PX, text_width))
        if shown > best_shown:
            best, best_shown = ticks, shown
    return best


class TimeAxisHeader(QHeaderView):
    """Horizontal headings; the waterfall's section shows the run's time axis instead of its title."""

    def __init__(self, waterfall_column: int, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.waterfall_column = waterfall_column
        self.setSectionsClickable(False)

    def span_s(self) -> float | None:
        model = self.model()
        if model is None or getattr(model, "run", None) is None or not model.rowCount():
            return None
        return float(model.span_s)

    def paintSection(self, painter: QPainter, rect: QRect, logical_index: int) -> None:  # noqa: N802
        span = self.span_s() if logical_index == self.waterfall_column else None
        if span is None:
            super().paintSection(painter, rect, logical_index)
            return
        option = QStyleOptionHeader()
        self.initStyleOption(option)
        option.rect = rect
        option.section = logical_index
        option.text = ""
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)
        axis = rect.adjusted(CELL_MARGIN_PX, 0, -CELL_MARGIN_PX, 0)
        metrics = painter.fontMetrics()
        painter.save()
        painter.setClipRect(rect)
        painter.setPen(QPen(option.palette.windowText().color(), 1))
        bottom = rect.bottom()
        right = axis.left() + axis.width()
        ticks = axis_ticks(span, axis.width(), metrics.horizontalAdvance)
        for x, _seconds, _label in ticks:
            left = axis.left() + round(x)
            painter.drawLine(left, bottom - 4, left, bottom)
        for left, label in label_places(ticks, axis.left(), right + CELL_MARGIN_PX, metrics.horizontalAdvance):
            painter.drawText(QRect(left, rect.top(), metrics.horizontalAdvance(label) + 2, rect.height() - 3),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), label)
        painter.restore()

    def labels_shown(self) -> list[str]:
        """The tick labels the waterfall's heading shows now, left to right (none: no run, or no room)."""
        span = self.span_s()
        if span is None:
            return []
        axis_left = self.sectionViewportPosition(self.waterfall_column) + CELL_MARGIN_PX
        width = self.sectionSize(self.waterfall_column) - 2 * CELL_MARGIN_PX
        advance = self.fontMetrics().horizontalAdvance
        places = label_places(axis_ticks(span, width, advance), axis_left, axis_left + width + CELL_MARGIN_PX, advance)
        return [label for _left, label in places]


#: The least room between two labels: a digit and a space of the header's font, three word spaces.
#: Six pixels, hardly more than the space inside "50 ms", read "0 50 ms" as one label in a narrow column.
LABEL_GAP = "0 "


def label_gap(text_width: Callable[[str], float]) -> int:
    """The least room between two of the axis' labels, in pixels, at the font ``text_width`` measures."""
    return math.ceil(text_width(LABEL_GAP))


def label_places(ticks: list[tuple[float, float, str]], axis_left: int, limit: int,
                 text_width: Callable[[str], float]) -> list[tuple[int, str]]:
    """Where each tick's label starts: right of its tick, or, where it would run past ``limit`` (the
    column's end), ending at its tick (the last tick often stands at the very end: its label, "50 ms",
    was dropped, and a whole axis read "0"); a label that fits neither way at least :func:`label_gap`
    clear of the one before is left out rather than crowded against it."""
    places: list[tuple[int, str]] = []
    gap_px = label_gap(text_width)
    taken = axis_left - gap_px  # where the label before ends
    for x, _seconds, label in ticks:
        tick = axis_left + round(x)
        width = math.ceil(text_width(label))
        start = tick + 2 if tick + 2 + width <= limit else tick - 2 - width
        if start >= taken + gap_px and start + width <= limit:
            places.append((start, label))
            taken = start + width
    return places


__all__ = ["LABEL_GAP", "TimeAxisHeader", "axis_ticks", "label_gap", "label_places", "tick_label", "tick_step"]
