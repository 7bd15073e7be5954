"""The budget bar: one operation's budget, its legs as they spend it, and how it ended.

Live, it repaints at least 20 times a second from a timer and the monotonic clock (never from
network events); replayed (:meth:`BudgetBar.show_legs`) it draws stored legs the same way.
A header line above the track says how much of the budget is spent and, at its right, the
countdown or the ending; the track below takes the widget's whole width.
Where each part goes is computed by :func:`budget_bar_layout.layout`, a pure function; the parts are
painted by :class:`budget_bar_paint.BarPainter`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from inspector.i18n import _
from inspector.runs import Leg

from ..language import on_language_changed, translated
from .budget_bar_layout import BarGeometry, layout
from .budget_bar_paint import TICK_AREA_PX, TRACK_PX, BarPainter
from .budget_state import BarState
from .plain_text import plain_tooltip

#: Repaint interval while running: about 60 a second (issue 27 asks at least 50 of the live bars).
FRAME_MS = 16


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
        self._painter = BarPainter()
        self._description = ""
        self._title = ""
        #: Shorter titles, longest first, for where the title does not fit whole.
        self._shorter: tuple[str, ...] = ()
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

    def set_title(self, title: str, *shorter: str) -> None:
        """What the header names before the spent time (an operation's title); "" for none. ``shorter``:
        what it names when the title does not fit whole, longest first ("echo" for "Round 1: echo";
        "tools/call hang", then "hang", for "tools/call hang @ Demo server"), so a narrow header keeps the
        words that tell the operations apart rather than "Round 1: …" or "to…"."""
        if (title, shorter) != (self._title, self._shorter):
            self._title, self._shorter = title, shorter
            self.update()

    # -- what it shows ----------------------------------------------------------------------

    def show_live(self, state: BarState, started_at: float | None) -> None:
        """Follow a running operation; ``started_at`` is its start on the monotonic clock."""
        self._state, self._started_at = state, started_at
        self.refresh()

    def show_legs(self, legs: list[Leg], budget_s: float, status: str, ended_s: float | None = None,
                  transport: str | None = None, no_deadline: str | None = None) -> None:
        """Replay a stored step's legs (a finished operation that ended ``ended_s`` after its start;
        ``transport``: how it reached its server, "http", "sse" or "stdio"; ``no_deadline``: why it had
        none, see :attr:`BarState.no_deadline`)."""
        self._state, self._started_at = BarState.replay(legs, budget_s, status, ended_s, transport,
                                                        no_deadline), None
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
        return self._painter.track(self).rect

    @property
    def header_shown(self) -> tuple[str, str]:
        """The header's two texts as the last paint showed them: [title — ]spent, and the countdown or ending."""
        return self._painter.header_shown

    def paintEvent(self, event: object) -> None:  # noqa: N802
        self.frames += 1
        geometry = self.current_geometry()
        self._geometry = geometry
        self.labels_shown = self._painter.paint(self, self._state, geometry, (self._title, *self._shorter))
        if geometry is not None and self._state is not None:
            self._describe(geometry)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() in (QEvent.Type.FontChange, QEvent.Type.PaletteChange, QEvent.Type.StyleChange):
            self._painter.restyle()
        super().changeEvent(event)

    def _describe(self, geometry: BarGeometry | None) -> None:
        if geometry is not None and geometry.description != self._description:
            self._description = geometry.description
            self.setAccessibleDescription(geometry.description)

    # -- hover ----------------------------------------------------------------------------------

    def event(self, event: QEvent) -> bool:  # noqa: D102
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            text = self.tooltip_at(event.pos().x(), event.pos().y())  # a help event has no position()
            if text:
                QToolTip.showText(event.globalPos(), plain_tooltip(text), self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    def tooltip_at(self, x: float, y: float) -> str | None:
        """The tooltip for a point of the widget: the header whole where it is cut, a progress mark, a leg, or
        the bar's summary."""
        geometry = self.current_geometry()
        if geometry is None:
            return None
        track = self._track_rect()
        if y < self._header_px() and self.header_shown != self._painter.header_whole:
            return "\n".join(self._painter.header_whole)  # the header is cut: its words whole
        local = x - track.left()
        if y < track.top():
            near = [tick for tick in geometry.ticks if abs(tick.x - local) <= 5]
            if near:
                return near[-1].tooltip
        segment = geometry.segment_at(local)
        if segment is not None:
            return segment.tooltip
        return geometry.description
