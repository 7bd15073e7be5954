"""What a budget bar shows, and where each part of it goes: pure Python, no Qt.

The live operation (fed by the client's reports) and a replay (from the stored legs of a step)
both become a :class:`BarState`; :func:`layout` turns a state at a moment into geometry, so the
drawing can be tested on a fake clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from inspector.i18n import _
from inspector.i18n.formatting import format_duration, format_fixed, format_number
from inspector.i18n.formatting import format_seconds as format_seconds_number
from inspector.i18n.words import marked_outcome_text
from inspector.runs import Leg

from .budget_waits import WAITING, is_input_leg, waiting_label, waiting_state, waiting_words

#: How one operation ended, as the bar draws and names it.
ENDINGS = ("ok", "failed", "timed_out", "refused", "cancelled")
#: Room after the deadline line, as a share of the budget, for an overrun or a refused leg.
AFTER_DEADLINE_SHARE = 0.10
#: Pixels between neighbouring legs.
LEG_GAP_PX = 1.0
#: The narrowest a leg is drawn, however short it was.
MIN_LEG_PX = 3.0
#: The narrowest a leg that ended the operation (failed, timed out, cancelled) is drawn: wide
#: enough to carry its end mark, so a 55 ms failure in a 20 s budget still shows.
MIN_ENDING_LEG_PX = 12.0
#: Leg kinds that end an operation early, and the mark drawn at their end (greyscale-safe).
END_MARKS = {"failed": "cross", "timed_out": "cross", "cancelled": "bar"}
#: The empty outline of a leg that was never sent is this wide (pixels, at most).
NOT_SENT_WIDTH_PX = 56.0
#: A finished leg this close to its grant (seconds) is taken to have run into it.
GRANT_REACHED_TOLERANCE_S = 0.05


@dataclass
class LegState:
    """One leg as the bar knows it: ``elapsed_s`` is ``None`` while it runs."""

    method: str
    start_s: float
    granted_s: int | None
    elapsed_s: float | None = None
    outcome: str | None = None  # ok, failed, not_sent, cancelled; None while running
    http_status: int | None = None
    bytes_received: int = 0
    error_kind: str | None = None

    @property
    def running(self) -> bool:
        return self.outcome is None

    @property
    def timed_out(self) -> bool:
        if self.error_kind is not None:
            return self.error_kind == "timed_out"
        # A replayed leg has no error kind: a failed leg that used its whole grant hit it.
        return (self.outcome == Leg.FAILED and self.granted_s is not None and self.elapsed_s is not None
                and self.elapsed_s >= self.granted_s - GRANT_REACHED_TOLERANCE_S)


@dataclass(frozen=True)
class ProgressMark:
    """A progress notification and when (seconds into the operation) it arrived."""

    at_s: float
    progress: float
    total: float | None
    message: str | None


@dataclass
class BarState:
    """An operation's budget and legs; ``ended_s`` and ``ending`` are set when it is over."""

    budget_s: float
    legs: list[LegState] = field(default_factory=list)
    marks: list[ProgressMark] = field(default_factory=list)
    ended_s: float | None = None
    ending: str | None = None  # one of ENDINGS
    #: The kind of failure (a key of :func:`inspector.i18n.words.failure_word`: "tool_error",
    #: "unreachable", ...), said in the language of the moment it is shown.
    reason: str | None = None

    @property
    def finished(self) -> bool:
        return self.ending is not None

    def leg_started(self, method: str, granted_s: int, start_s: float) -> None:
        self.legs.append(LegState(method, start_s, granted_s))

    def leg_finished(self, method: str, granted_s: int | None, elapsed_s: float | None, outcome: str,
                     http_status: int | None = None, bytes_received: int = 0,
                     error_kind: str | None = None, now_s: float | None = None) -> None:
        """Close the running leg of that method, or add a leg that never started (not sent)."""
        for leg in reversed(self.legs):
            if leg.method == method and leg.running:
                leg.elapsed_s, leg.outcome = elapsed_s, outcome
                leg.http_status, leg.bytes_received, leg.error_kind = http_status, bytes_received, error_kind
                return
        start = now_s if now_s is not None else self.spent_until()
        self.legs.append(LegState(method, start, granted_s, elapsed_s if elapsed_s is not None else 0.0
                                  if outcome != Leg.NOT_SENT else None, outcome, http_status,
                                  bytes_received, error_kind))

    def spent_until(self) -> float:
        """Where the last finished leg ended (seconds into the operation)."""
        ends = [leg.start_s + (leg.elapsed_s or 0.0) for leg in self.legs if not leg.running]
        return max(ends, default=0.0)

    def finish(self, ended_s: float, ending: str, reason: str | None = None) -> None:
        if ending not in ENDINGS:
            raise ValueError(f"unknown ending {ending!r}")
        self.ended_s, self.ending, self.reason = ended_s, ending, reason

    @classmethod
    def replay(cls, legs: Sequence[Leg], budget_s: float, status: str) -> BarState:
        """A finished operation from its stored legs; legs ran one after another from 0."""
        state = cls(budget_s)
        at = 0.0
        for leg in legs:
            elapsed = None if leg.elapsed_ms is None else leg.elapsed_ms / 1000
            state.legs.append(LegState(leg.method, at, leg.granted_s, elapsed, leg.outcome, leg.http_status))
            at += elapsed or 0.0
        state.finish(at, ending_for(status, state.legs))
        return state


def ending_for(status: str, legs: Sequence[LegState], error_kind: str | None = None) -> str:
    """The ending to draw for an operation's status (ok/failed/cancelled) and its legs."""
    if status == "cancelled":
        return "cancelled"
    if status == "ok":
        return "ok"
    if error_kind == "exhausted_budget" or any(leg.outcome == Leg.NOT_SENT for leg in legs):
        return "refused"
    if error_kind == "timed_out" or any(leg.timed_out for leg in legs):
        return "timed_out"
    return "failed"


# -- geometry --------------------------------------------------------------------------------


@dataclass(frozen=True)
class SegmentGeometry:
    """Where one leg is drawn. ``kind``: running, ok, failed, timed_out, cancelled, not_sent, or
    waiting (a leg that waits on input between rounds, see :mod:`.budget_waits`)."""

    index: int
    method: str
    kind: str
    x: float
    width: float
    #: The light band from now to the end of the running leg's grant (width 0 otherwise).
    band_x: float
    band_width: float
    #: The part of the segment or band beyond the deadline line (the admitted overrun).
    overrun_x: float
    overrun_width: float
    label: str
    tooltip: str
    shade: int  # 0 or 1: neighbouring legs alternate
    #: The shape drawn at the leg's right end in a dark colour: "cross", "bar" or "" (none).
    end_mark: str = ""
    #: The label without the method ("6.3 s / grant 19 s"): what is shown where the whole one does not fit.
    short_label: str = ""
    #: The time spent alone ("6.3 s"): the last resort of a narrow leg whose kind its drawing says.
    spent_label: str = ""


@dataclass(frozen=True)
class TickGeometry:
    x: float
    tooltip: str


@dataclass(frozen=True)
class BarGeometry:
    width: float
    seconds_shown: float
    deadline_x: float
    segments: tuple[SegmentGeometry, ...]
    ticks: tuple[TickGeometry, ...]
    remaining_s: float
    #: Text at the bar's end: the countdown while running, the ending afterwards.
    end_text: str
    description: str
    #: The header's words: how much of the budget is spent ("6.3 s of 20 s spent").
    spent_text: str = ""

    def segment_at(self, x: float) -> SegmentGeometry | None:
        for segment in self.segments:
            right = max(segment.x + segment.width, segment.band_x + segment.band_width)
            if segment.x - 2 <= x <= right + 2:
                return segment
        return None


def format_seconds(seconds: float) -> str:
    """A time spent, for a label: the window's one duration format ("0.04 s", "6.3 s")."""
    return format_duration(max(0.0, seconds))


def _leg_kind(leg: LegState) -> str:
    if is_input_leg(leg.method) and (leg.running or leg.outcome == Leg.OK):
        return WAITING  # its end (failed, cancelled) is drawn as any leg's
    if leg.running:
        return "running"
    if leg.outcome == Leg.NOT_SENT:
        return "not_sent"
    if leg.outcome == Leg.CANCELLED:
        return "cancelled"
    if leg.outcome == Leg.FAILED:
        return "timed_out" if leg.timed_out else "failed"
    return "ok"


def _leg_label(leg: LegState, spent: float) -> str:
    if _leg_kind(leg) == WAITING:
        return waiting_label(leg.method, format_seconds(spent), leg.granted_s)
    if leg.outcome == Leg.NOT_SENT:
        return _("{method}: not sent, budget used up").format(method=leg.method)
    if leg.granted_s is None:
        return _("{method} {spent}").format(method=leg.method, spent=format_seconds(spent))
    return _("{method} {spent} / grant {grant} s").format(method=leg.method, spent=format_seconds(spent),
                                                          grant=leg.granted_s)


def _leg_short_label(leg: LegState, spent: float) -> str:
    if _leg_kind(leg) == WAITING:
        return waiting_label(leg.method, format_seconds(spent), None)
    if leg.outcome == Leg.NOT_SENT or leg.granted_s is None:
        return ""
    return _("{spent} / grant {grant} s").format(spent=format_seconds(spent), grant=leg.granted_s)


def spent_text(state: BarState, at_s: float) -> str:
    """How much of the budget is spent, for the bar's header: "6.3 s of 20 s spent"."""
    return _("{spent} of {budget} s spent").format(spent=format_seconds(max(0.0, at_s)),
                                                   budget=format_seconds_number(state.budget_s))


def _leg_tooltip(leg: LegState, spent: float) -> str:
    kind = _leg_kind(leg)
    words = {
        "running": _("running"), "ok": _("ok"), "failed": _("failed"),
        "timed_out": _("failed: timed out at its grant"), "cancelled": _("cancelled"),
        "not_sent": _("not sent: the budget was used up"), WAITING: waiting_state(leg.method),
    }[kind]
    grant = _("none") if leg.granted_s is None else _("{seconds} s").format(
        seconds=format_seconds_number(leg.granted_s))
    if kind == WAITING:  # nothing travelled: no status, no bytes to speak of
        return _("{method}: {state}\ngrant {grant}, spent {spent}").format(
            method=leg.method, state=words, grant=grant, spent=format_seconds(spent))
    status = _("no answer") if leg.http_status is None else str(leg.http_status)
    return _("{method}: {state}\ngrant {grant}, spent {spent}\nHTTP {status}, {bytes} bytes received").format(
        method=leg.method, state=words, grant=grant, spent=format_seconds(spent), status=status,
        bytes=leg.bytes_received)


def outcome_and_kind(state: BarState) -> tuple[str, str | None]:
    """The outcome of a finished operation and, for a failure, its kind (timed out and refused are
    kinds of failed)."""
    ending = state.ending or ""
    if ending in ("timed_out", "refused"):
        return "failed", ending
    return ending, state.reason if ending == "failed" else None


def ending_text(state: BarState) -> str:
    """The word(s) for how the operation ended, with the mark that goes with them (the vocabulary of
    :mod:`inspector.i18n.words`: timed out and refused are kinds of failed)."""
    return marked_outcome_text(*outcome_and_kind(state))


def layout(state: BarState, now_s: float, width: float) -> BarGeometry:
    """Place every part of the bar for an operation ``now_s`` seconds after it started."""
    budget = max(state.budget_s, 1e-9)
    at = state.ended_s if state.finished and state.ended_s is not None else now_s
    farthest = max([budget * (1 + AFTER_DEADLINE_SHARE)]
                   + [leg.start_s + leg.granted_s for leg in state.legs if leg.running and leg.granted_s]
                   + [leg.start_s + (leg.elapsed_s or 0.0) for leg in state.legs])
    seconds_shown = farthest if math.isfinite(farthest) else budget
    refused = any(leg.outcome == Leg.NOT_SENT for leg in state.legs)
    # A leg never sent is an outline of its own after everything that was spent: keep room for it.
    drawable = max(1.0, width - (NOT_SENT_WIDTH_PX + 4 if refused else 0.0))
    px = drawable / seconds_shown if seconds_shown > 0 else 0.0
    deadline_x = budget * px
    segments = []
    finished_index = 0
    spent_end_x = 0.0
    for index, leg in enumerate(state.legs):
        kind = _leg_kind(leg)
        if kind == "ok" and state.ending == "failed" and index == len(state.legs) - 1:
            kind = "failed"  # the server answered, the tool said it failed: the work leg shows it
        spent = leg.elapsed_s if leg.elapsed_s is not None else max(0.0, at - leg.start_s)
        # A leg too short to see still gets a few pixels: a reader must see that it happened.
        x = max(leg.start_s * px, spent_end_x)
        if kind == "not_sent":
            x = max(x, deadline_x) + 3
            seg_width = min(NOT_SENT_WIDTH_PX, max(8.0, width - x))
        else:
            gap = LEG_GAP_PX if index < len(state.legs) - 1 else 0.0
            least = MIN_ENDING_LEG_PX if kind in END_MARKS else MIN_LEG_PX
            seg_width = max(least, spent * px - gap)
            spent_end_x = x + seg_width + LEG_GAP_PX
        band_x = band_width = 0.0
        if leg.running and leg.granted_s is not None:
            band_x = x + seg_width
            band_width = max(0.0, (leg.start_s + leg.granted_s) * px - band_x)
        right = max(x + seg_width, band_x + band_width) if kind != "not_sent" else deadline_x
        overrun_x = deadline_x
        overrun_width = max(0.0, right - deadline_x)
        segments.append(SegmentGeometry(index, leg.method, kind, x, seg_width, band_x, band_width,
                                        overrun_x, overrun_width, _leg_label(leg, spent),
                                        _leg_tooltip(leg, spent), finished_index % 2,
                                        END_MARKS.get(kind, ""), _leg_short_label(leg, spent),
                                        format_seconds(spent)))
        finished_index += 1
    ticks = tuple(TickGeometry(mark.at_s * px, _progress_tooltip(mark)) for mark in state.marks)
    remaining = budget - at
    if state.finished:
        end_text = ending_text(state)
    else:
        end_text = _("{seconds} s left").format(seconds=format_fixed(max(0.0, remaining), 1))
    return BarGeometry(width, seconds_shown, deadline_x, tuple(segments), ticks, remaining, end_text,
                       describe(state, at), spent_text(state, at))


def _progress_tooltip(mark: ProgressMark) -> str:
    amount = (_("{progress} of {total}").format(progress=format_number(mark.progress),
                                                total=format_number(mark.total))
              if mark.total is not None else format_number(mark.progress))
    text = _("progress {amount} at {time}").format(amount=amount, time=format_seconds(mark.at_s))
    return f"{text}\n{mark.message}" if mark.message else text


def describe(state: BarState, at_s: float) -> str:
    """What the bar shows, in words, for a screen reader."""
    budget = _("{seconds} s").format(seconds=format_seconds_number(state.budget_s))
    if state.finished:
        return _("{ending} after {spent} of a {budget} budget; {legs}").format(
            ending=ending_text(state).lstrip("✓⊘✗ "), spent=format_seconds(at_s), budget=budget,
            legs="; ".join(_leg_phrase(leg) for leg in state.legs) or _("no legs"))
    running = next((leg for leg in state.legs if leg.running), None)
    left = _("{seconds} s").format(seconds=format_fixed(max(0.0, state.budget_s - at_s), 1))
    if running is None:
        return _("running; {left} of {budget} left").format(left=left, budget=budget)
    return _("{method}: {spent} spent of a {grant} s grant; {left} of {budget} left").format(
        method=running.method, spent=format_seconds(max(0.0, at_s - running.start_s)),
        grant=format_seconds_number(running.granted_s), left=left, budget=budget)


def _leg_phrase(leg: LegState) -> str:
    spent = leg.elapsed_s or 0.0
    if _leg_kind(leg) == WAITING:
        return _("{waiting} for {spent}").format(waiting=waiting_words(leg.method), spent=format_seconds(spent))
    kind = {"running": _("running"), "ok": _("ok"), "failed": _("failed"), "timed_out": _("timed out"),
            "cancelled": _("cancelled"), "not_sent": _("not sent")}[_leg_kind(leg)]
    return _("{method} {kind} in {spent}").format(method=leg.method, kind=kind, spent=format_seconds(spent))
