"""What a budget bar shows, and where each part of it goes: pure Python, no Qt.

The live operation (fed by the client's reports) and a replay (from the stored legs of a step)
both become a :class:`BarState`; :func:`layout` turns a state at a moment into geometry, so the
drawing can be tested on a fake clock.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from inspector.i18n import _, current_language, ngettext
from inspector.i18n.formatting import format_duration, format_fixed, format_number
from inspector.i18n.formatting import format_seconds as format_seconds_number
from inspector.i18n.refused_probe import (
    is_refused_probe,
    is_unanswered_probe,
    refused_probe_word,
    unanswered_probe_word,
)
from inspector.i18n.transport_probe import (
    CONNECT_METHOD,
    is_transport_found,
    is_transport_refusal,
    transport_found_word,
)
from inspector.i18n.words import leg_outcome_word, marked_outcome_text, step_outcome_word
from inspector.runs import Leg
from inspector.runs.ending import (
    ENDINGS,
    GRANT_REACHED_TOLERANCE_S,
    UNRECORDED,
    ending_of,
    ending_outcome,
    leg_timed_out,
)

from .budget_waits import WAITING, is_input_leg, waiting_label, waiting_state, waiting_words
from .leg_wire_words import exchange_sides, wire_words

#: Room after the deadline line, as a share of the budget, for an overrun or a refused leg.
AFTER_DEADLINE_SHARE = 0.10
#: Pixels between neighbouring legs.
LEG_GAP_PX = 1.0
#: The narrowest a leg is drawn, however short it was.
MIN_LEG_PX = 3.0
#: The narrowest a leg that ended the operation (failed, timed out, cancelled) is drawn: wide
#: enough to carry its end mark, so a 55 ms failure in a 20 s budget still shows. A probe that found
#: the era is drawn as wide: a few milliseconds' refusal still shows its light fill inside its outline.
MIN_ENDING_LEG_PX = 12.0
#: Leg kinds that end an operation early, and the mark drawn at their end (greyscale-safe).
END_MARKS = {"failed": "cross", "timed_out": "cross", "cancelled": "bar"}
#: The empty outline of a leg that was never sent is this wide (pixels, at most).
NOT_SENT_WIDTH_PX = 56.0
#: The kind of a ``server/discover`` probe whose refusal or silence found the handshake era, and of
#: the ``initialize`` POST whose 404 or 405 found the older HTTP+SSE transport: a finished leg,
#: neither ok nor failed (its stored outcome stays as it is), drawn neutral.
ERA_FOUND = "era_found"


@dataclass
class LegState:
    """One leg as the bar knows it: ``elapsed_s`` is ``None`` while it runs."""

    method: str
    start_s: float
    granted_s: int | None
    elapsed_s: float | None = None
    outcome: str | None = None  # ok, failed, not_sent, cancelled; None while running
    http_status: int | None = None
    #: ``None``: not known (a stored leg keeps no count of the bytes it received).
    bytes_received: int | None = 0
    error_kind: str | None = None
    #: A ``server/discover`` probe the server refused: stored ``ok`` (the refusal is its finding),
    #: said in words (:func:`inspector.i18n.refused_probe.refused_probe_word`), never a bare "ok".
    refused_probe: bool = False
    #: A ``server/discover`` probe a command server never answered, after which the operation
    #: opened with ``initialize``: stored ``failed``, said as what the silence found
    #: (:func:`inspector.i18n.refused_probe.unanswered_probe_word`).
    unanswered_probe: bool = False
    #: Live: the leg would be an unanswered probe if ``initialize`` came next.
    unanswered_if_initialize: bool = False
    #: The ``initialize`` POST refused with 404 or 405 after which the older HTTP+SSE transport's event
    #: stream opened (live: is being opened): stored ``failed``, said as the transport it found
    #: (:func:`inspector.i18n.transport_probe.transport_found_word`).
    transport_found: bool = False
    #: Whether its request went out and an answer came back, as its kept exchange tells (``None``:
    #: nothing kept): what a leg on a pipe can say of itself.
    sent: bool | None = None
    answered: bool | None = None

    @property
    def running(self) -> bool:
        return self.outcome is None

    @property
    def timed_out(self) -> bool:
        # A replayed leg has no error kind: a failed leg that used its whole grant hit it.
        return leg_timed_out(self.outcome, self.granted_s, self.elapsed_s, self.error_kind)


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
    #: Bumped by every change made through the methods: what :func:`layout` made of the legs that
    #: have ended is kept until it moves (a frame lays out the running leg, not the history).
    version: int = field(default=0, compare=False, repr=False)
    #: Bumped by every change but a progress note: what a line's mini bar shows (it draws no notes).
    legs_version: int = field(default=0, compare=False, repr=False)
    kept: dict = field(default_factory=dict, compare=False, repr=False)
    #: How the server is reached ("http", "sse" or "stdio"): how a leg's tooltip says what travelled.
    transport: str = "http"

    @property
    def finished(self) -> bool:
        return self.ending is not None

    def touch(self) -> None:
        """Say that something the bar shows changed (what was laid out is laid out again)."""
        self.version += 1
        self.legs_version += 1

    def reset(self) -> None:
        """Back to no legs, no marks, no ending (an operation that starts afresh)."""
        self.legs.clear()
        self.marks.clear()
        self.ended_s = self.ending = self.reason = None
        self.touch()

    def add_mark(self, mark: ProgressMark) -> None:
        self.marks.append(mark)
        self.version += 1  # the full bar draws it; a line's mini bar does not (legs_version stays)

    def leg_started(self, method: str, granted_s: int, start_s: float) -> None:
        if self.legs and method == "initialize":
            self.legs[-1].unanswered_probe = self.legs[-1].unanswered_if_initialize
        if self.legs and method == CONNECT_METHOD:  # the refused POST found the older transport, if it opens
            before = self.legs[-1]
            before.transport_found = is_transport_refusal(before.method, before.outcome, before.http_status)
        self.legs.append(LegState(method, start_s, granted_s))
        self.touch()

    def leg_finished(self, method: str, granted_s: int | None, elapsed_s: float | None, outcome: str,
                     http_status: int | None = None, bytes_received: int = 0,
                     error_kind: str | None = None, now_s: float | None = None, exchange: object = None) -> None:
        """Close the running leg of that method, or add a leg that never started (not sent).
        ``exchange``: what the leg kept of what travelled (it tells a probe refused with a JSON-RPC error)."""
        self.touch()
        for index in range(len(self.legs) - 1, -1, -1):
            leg = self.legs[index]
            if leg.method == method and leg.running:
                if method == CONNECT_METHOD and index and str(outcome) != Leg.OK:
                    self.legs[index - 1].transport_found = False  # no event stream: the refusal was the failure
                leg.elapsed_s, leg.outcome = elapsed_s, outcome
                leg.http_status, leg.bytes_received, leg.error_kind = http_status, bytes_received, error_kind
                leg.refused_probe = is_refused_probe(method, outcome, http_status, exchange)
                leg.unanswered_if_initialize = is_unanswered_probe(method, outcome, http_status, exchange,
                                                                   "initialize")
                leg.sent, leg.answered = exchange_sides(exchange)
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
        self.touch()

    @classmethod
    def replay(cls, legs: Sequence[Leg], budget_s: float, status: str, ended_s: float | None = None,
               transport: str | None = None) -> BarState:
        """A finished operation from its stored legs; legs ran one after another from 0.

        ``ended_s``: when the operation ended (its step's duration), as the live bar ends. The one
        deadline counts wall time from the operation's start, the time between and after the legs
        too, so the bar has spent that much, not only the sum of its legs (a stored leg keeps no
        start: that time is drawn after the last leg). ``transport``: the step's ("http" if none)."""
        state = cls(budget_s, transport=transport or "http")
        at = 0.0
        for index, leg in enumerate(legs):
            elapsed = None if leg.elapsed_ms is None else leg.elapsed_ms / 1000
            after = legs[index + 1] if index + 1 < len(legs) else None
            following = after.method if after is not None else None
            state.legs.append(LegState(leg.method, at, leg.granted_s, elapsed, leg.outcome, leg.http_status, None,
                                       refused_probe=is_refused_probe(leg.method, leg.outcome, leg.http_status,
                                                                      leg.exchange),
                                       unanswered_probe=is_unanswered_probe(leg.method, leg.outcome, leg.http_status,
                                                                            leg.exchange, following),
                                       transport_found=is_transport_found(
                                           leg.method, leg.outcome, leg.http_status, following,
                                           after.outcome if after is not None else None)))
            state.legs[-1].sent, state.legs[-1].answered = exchange_sides(leg.exchange)
            at += elapsed or 0.0
        state.finish(max(at, ended_s or 0.0), ending_for(status, state.legs))
        return state


def legs_status(legs: Sequence[Leg]) -> str:
    """How a stored step whose payload records no outcome (a request step: tools/list, ping...)
    ended, as its legs tell it: as its last leg did (ok, cancelled, else failed)."""
    last = legs[-1].outcome if legs else Leg.OK
    return last if last in (Leg.OK, Leg.CANCELLED) else Leg.FAILED


def ending_for(status: str, legs: Sequence[LegState], error_kind: str | None = None) -> str:
    """The ending to draw for an operation's status (ok/failed/cancelled) and its legs (the rule
    ``runs show`` says a stored step's outcome by: :mod:`inspector.runs.ending`)."""
    return ending_of(status, not_sent=any(leg.outcome == Leg.NOT_SENT for leg in legs),
                     timed_out=any(leg.timed_out for leg in legs), error_kind=error_kind)


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
    """A progress mark's place; its tooltip is worded when asked (on hover), not every frame."""

    x: float
    mark: ProgressMark

    @property
    def tooltip(self) -> str:
        return _progress_tooltip(self.mark)


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
    if leg.refused_probe or leg.unanswered_probe or leg.transport_found:
        return ERA_FOUND  # its finding, not a failure (nor a plain ok): whatever it is stored as
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
    if leg.refused_probe and leg.granted_s is not None:
        return _("{method}: not offered, {spent} / grant {grant} s").format(
            method=leg.method, spent=format_seconds(spent), grant=leg.granted_s)
    if leg.unanswered_probe and leg.granted_s is not None:
        return _("{method}: no answer, {spent} / grant {grant} s").format(
            method=leg.method, spent=format_seconds(spent), grant=leg.granted_s)
    if leg.transport_found and leg.granted_s is not None:
        return _("{method}: older transport found, {spent} / grant {grant} s").format(
            method=leg.method, spent=format_seconds(spent), grant=leg.granted_s)
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


def _rounded_up(leg: LegState, budget_s: float) -> bool:
    """Was the leg granted more than was left of the budget when it started (whole seconds, at least one)?"""
    return leg.granted_s is not None and leg.granted_s > budget_s - leg.start_s + GRANT_REACHED_TOLERANCE_S


def _leg_tooltip(leg: LegState, spent: float, budget_s: float | None = None, transport: str = "http") -> str:
    kind = _leg_kind(leg)
    if leg.refused_probe:
        words = refused_probe_word()
    elif leg.unanswered_probe:
        words = unanswered_probe_word()
    elif leg.transport_found:
        words = transport_found_word(leg.http_status)
    else:
        words = {
            "running": _("running"), "ok": _("ok"), "failed": _("failed"),
            "timed_out": _("failed: timed out at its grant"), "cancelled": _("cancelled"),
            "not_sent": _("not sent: the budget was used up"), WAITING: waiting_state(leg.method),
        }[kind]
    grant = _("none") if leg.granted_s is None else _("{seconds} s").format(
        seconds=format_seconds_number(leg.granted_s))
    if budget_s is not None and _rounded_up(leg, budget_s):
        grant = _("{grant} (the {left} left of the budget, rounded up to whole seconds)").format(
            grant=grant, left=format_seconds(budget_s - leg.start_s))
    lines = [_("{method}: {state}\ngrant {grant}, spent {spent}").format(
        method=leg.method, state=words, grant=grant, spent=format_seconds(spent))]
    if leg.transport_found:
        lines.append(_("how the transport was found, not a failure: the operation went on over the older "
                       "HTTP+SSE transport"))
    elif kind == ERA_FOUND:
        lines.append(_("the probe's finding, not a failure: the operation went on with the handshake"))
    if kind != WAITING:  # a wait on input: nothing travelled, no status, no bytes to speak of
        lines.append(wire_words(transport, leg.method, outcome=leg.outcome, http_status=leg.http_status,
                                bytes_received=leg.bytes_received, sent=leg.sent, answered=leg.answered))
    return "\n".join(line for line in lines if line)


def outcome_and_kind(state: BarState) -> tuple[str, str | None]:
    """The outcome of a finished operation and, for a failure, its kind (timed out and refused are
    kinds of failed)."""
    return ending_outcome(state.ending or "", state.reason)


def ending_text(state: BarState) -> str:
    """The word(s) for how the operation ended, with the mark that goes with them (the vocabulary of
    :mod:`inspector.i18n.words`: timed out and refused are kinds of failed)."""
    if state.ending == UNRECORDED:
        return step_outcome_word("tool", None)
    return marked_outcome_text(*outcome_and_kind(state))


def layout(state: BarState, now_s: float, width: float) -> BarGeometry:
    """Place every part of the bar for an operation ``now_s`` seconds after it started.

    The legs that have ended are laid out once per change of the state (and kept in
    ``state.kept``); a frame lays out only the running leg(s) after them. When the legs outnumber
    what the track can show one by one (a task polled a thousand times), neighbouring legs of the
    same kind narrower than a pixel are drawn as one segment ("40 legs")."""
    budget = max(state.budget_s, 1e-9)
    at = state.ended_s if state.finished and state.ended_s is not None else now_s
    history = _history(state)
    first_running = history["first_running"]
    tail = state.legs[first_running:]
    farthest = max([budget * (1 + AFTER_DEADLINE_SHARE), history["far"]]
                   + [leg.start_s + leg.granted_s for leg in tail if leg.running and leg.granted_s]
                   + [leg.start_s + (leg.elapsed_s or 0.0) for leg in tail])
    seconds_shown = farthest if math.isfinite(farthest) else budget
    refused = history["refused"]
    # A leg never sent is an outline of its own after everything that was spent: keep room for it.
    drawable = max(1.0, width - (NOT_SENT_WIDTH_PX + 4 if refused else 0.0))
    px = drawable / seconds_shown if seconds_shown > 0 else 0.0
    deadline_x = budget * px
    placed = history.get(("segments", width, seconds_shown))
    if placed is None:
        placed = history[("segments", width, seconds_shown)] = _place(
            state, 0, first_running, at, px, width, deadline_x, 0.0, 0, crowded=_crowded(state, drawable))
    segments, spent_end_x, finished_index = placed
    if tail:
        more, _end, _count = _place(state, first_running, len(state.legs), at, px, width, deadline_x,
                                    spent_end_x, finished_index, crowded=False)
        segments = segments + more
    ticks = history.get(("ticks", px))
    if ticks is None:
        ticks = history[("ticks", px)] = _ticks(state.marks, px)
    remaining = budget - at
    if state.finished:
        end_text = history.get("end_text")
        if end_text is None:
            end_text = history["end_text"] = ending_text(state)
        description = history.get("description")
        if description is None:
            description = history["description"] = describe(state, at)
    else:
        end_text = remaining_text(remaining)
        description = _describe_running(state, at, tail[0] if tail else None)
    return BarGeometry(width, seconds_shown, deadline_x, segments, ticks, remaining, end_text,
                       description, spent_text(state, at))


#: The track shows legs one by one while each can have this many pixels (its least width, a gap,
#: and as much again); past that the legs are crowded and the narrowest are merged.
CROWD_PX_PER_LEG = 2 * (MIN_LEG_PX + LEG_GAP_PX)
#: At most this many methods are named in a merged segment's tooltip.
MERGED_METHODS_NAMED = 4


def _crowded(state: BarState, drawable: float) -> bool:
    return len(state.legs) * CROWD_PX_PER_LEG > drawable


def _history(state: BarState) -> dict:
    """What does not move until the state changes: where the running legs begin, how far the
    ended ones reach, whether one was refused; and (filled by :func:`layout`) their segments."""
    key = (state.version, len(state.legs), len(state.marks), state.budget_s, state.ending, current_language())
    kept = state.kept
    if kept.get("key") != key:
        legs = state.legs
        first_running = next((index for index, leg in enumerate(legs) if leg.running), len(legs))
        kept.clear()
        kept.update(key=key, first_running=first_running,
                    far=max((leg.start_s + (leg.elapsed_s or 0.0) for leg in legs[:first_running]), default=0.0),
                    refused=any(leg.outcome == Leg.NOT_SENT for leg in legs))
    return kept


def _place(state: BarState, first: int, last: int, at: float, px: float, width: float, deadline_x: float,
           spent_end_x: float, finished_index: int, *, crowded: bool,
           ) -> tuple[tuple[SegmentGeometry, ...], float, int]:
    """Segments for ``state.legs[first:last]``, placed after ``spent_end_x``."""
    legs = state.legs
    count = len(legs)
    segments: list[SegmentGeometry] = []
    index = first
    # On the older transport the legs before its event stream opened were Streamable HTTP POSTs
    # (the probe, the refused handshake): their tooltips say HTTP, as their statuses do.
    opened = (next((number for number, one in enumerate(legs) if one.method == CONNECT_METHOD), 0)
              if state.transport == "sse" else 0)
    while index < last:
        leg = legs[index]
        kind = _leg_kind(leg)
        if kind == "ok" and state.ending == "failed" and index == count - 1:
            kind = "failed"  # the server answered, the tool said it failed: the work leg shows it
        spent = leg.elapsed_s if leg.elapsed_s is not None else max(0.0, at - leg.start_s)
        group = index + 1
        if crowded and kind in ("ok", WAITING) and spent * px < 1.0:
            # Neighbours of the same kind as narrow as this one go into its segment.
            while (group < last and group < count - 1 and not legs[group].running
                   and _leg_kind(legs[group]) == kind and (legs[group].elapsed_s or 0.0) * px < 1.0):
                group += 1
        # A leg too short to see still gets a few pixels: a reader must see that it happened.
        x = max(leg.start_s * px, spent_end_x)
        if group - index > 1:
            merged = legs[index:group]
            end = merged[-1].start_s + (merged[-1].elapsed_s or 0.0)
            spent = sum(one.elapsed_s or 0.0 for one in merged)
            seg_width = max(MIN_LEG_PX, (end - leg.start_s) * px - LEG_GAP_PX)
            spent_end_x = x + seg_width + LEG_GAP_PX
            segments.append(_merged_segment(index, merged, kind, x, seg_width, deadline_x, spent,
                                            finished_index % 2))
            finished_index += 1
            index = group
            continue
        if kind == "not_sent":
            x = max(x, deadline_x) + 3
            seg_width = min(NOT_SENT_WIDTH_PX, max(8.0, width - x))
        else:
            gap = LEG_GAP_PX if index < count - 1 else 0.0
            least = MIN_ENDING_LEG_PX if kind in END_MARKS or kind == ERA_FOUND else MIN_LEG_PX
            seg_width = max(least, spent * px - gap)
            spent_end_x = x + seg_width + LEG_GAP_PX
        band_x = band_width = 0.0
        if leg.running and leg.granted_s is not None:
            band_x = x + seg_width
            band_width = max(0.0, (leg.start_s + leg.granted_s) * px - band_x)
        right = max(x + seg_width, band_x + band_width) if kind != "not_sent" else deadline_x
        segments.append(SegmentGeometry(index, leg.method, kind, x, seg_width, band_x, band_width,
                                        deadline_x, max(0.0, right - deadline_x), _leg_label(leg, spent),
                                        _leg_tooltip(leg, spent, state.budget_s,
                                                     "http" if index < opened else state.transport),
                                        finished_index % 2,
                                        END_MARKS.get(kind, ""), _leg_short_label(leg, spent),
                                        format_seconds(spent)))
        finished_index += 1
        index += 1
    return tuple(segments), spent_end_x, finished_index


def _merged_segment(index: int, legs: list[LegState], kind: str, x: float, width: float, deadline_x: float,
                    spent: float, shade: int) -> SegmentGeometry:
    """Legs too narrow to draw one by one, as one segment that says how many they are."""
    count = len(legs)
    methods = list(dict.fromkeys(leg.method for leg in legs))
    named = ", ".join(methods[:MERGED_METHODS_NAMED]) + (", …" if len(methods) > MERGED_METHODS_NAMED else "")
    spent_text = format_seconds(spent)
    label = ngettext("{count} leg, {spent}", "{count} legs, {spent}", count).format(
        count=format_number(count), spent=spent_text)
    short = ngettext("{count} leg", "{count} legs", count).format(count=format_number(count))
    tooltip = ngettext("{count} leg ({methods}), each too short to draw alone\nspent {spent} in all",
                       "{count} legs ({methods}), each too short to draw alone\nspent {spent} in all",
                       count).format(count=format_number(count), methods=named, spent=spent_text)
    return SegmentGeometry(index, legs[0].method, kind, x, width, 0.0, 0.0, deadline_x,
                           max(0.0, x + width - deadline_x), label, tooltip, shade, "", short, spent_text)


#: Progress marks this close (pixels) are drawn as one: each is a triangle 8 pixels wide.
TICK_MERGE_PX = 4


def _ticks(marks: Sequence[ProgressMark], px: float) -> tuple[TickGeometry, ...]:
    """One tick per few pixels: marks closer than :data:`TICK_MERGE_PX` show as one (the latest,
    with its tooltip), so a thousand notes draw as many ticks as the track has room for."""
    ticks: dict[int, TickGeometry] = {}
    for mark in marks:
        x = mark.at_s * px
        ticks[int(x // TICK_MERGE_PX)] = TickGeometry(x, mark)
    return tuple(ticks.values())


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
    return _describe_running(state, at_s, next((leg for leg in state.legs if leg.running), None))


def remaining_text(remaining_s: float) -> str:
    """The bar's countdown: "12.6 s left", or past the deadline (a leg granted whole seconds runs on
    into the second the deadline allowed it) "0.3 s over", never "0.0 s left" while it still runs."""
    if remaining_s < -0.05:
        return _("{seconds} s over").format(seconds=format_fixed(-remaining_s, 1))
    return _("{seconds} s left").format(seconds=format_fixed(max(0.0, remaining_s), 1))


def _describe_running(state: BarState, at_s: float, running: LegState | None) -> str:
    budget = _("{seconds} s").format(seconds=format_seconds_number(state.budget_s))
    left = _("{seconds} s").format(seconds=format_fixed(max(0.0, state.budget_s - at_s), 1))
    if running is None:
        return _("running; {left} of {budget} left").format(left=left, budget=budget)
    spent, grant = format_seconds(max(0.0, at_s - running.start_s)), format_seconds_number(running.granted_s)
    if not _rounded_up(running, state.budget_s):
        return _("{method}: {spent} spent of a {grant} s grant; {left} of {budget} left").format(
            method=running.method, spent=spent, grant=grant, left=left, budget=budget)
    # Less than its grant was left when it started: the grant is that rest rounded up to whole seconds,
    # and the leg may run past the deadline (the grant is not what the budget still holds).
    granted_of = format_seconds(state.budget_s - running.start_s)
    if at_s <= state.budget_s:
        return _("{method}: {spent} spent of a {grant} s grant (the {granted_of} left of the budget, rounded up to "
                 "whole seconds); {left} of {budget} left").format(
            method=running.method, spent=spent, grant=grant, granted_of=granted_of, left=left, budget=budget)
    return _("{method}: {spent} spent of a {grant} s grant (the {granted_of} left of the budget, rounded up to "
             "whole seconds); {over} past the {budget} budget").format(
        method=running.method, spent=spent, grant=grant, granted_of=granted_of, budget=budget,
        over=format_seconds(at_s - state.budget_s))


def _leg_phrase(leg: LegState) -> str:
    spent = leg.elapsed_s or 0.0
    if _leg_kind(leg) == WAITING:
        return _("{waiting} for {spent}").format(waiting=waiting_words(leg.method), spent=format_seconds(spent))
    kind = _leg_kind(leg)
    if leg.refused_probe or leg.unanswered_probe or leg.transport_found:  # a sentence of its own
        finding = (refused_probe_word() if leg.refused_probe else unanswered_probe_word() if leg.unanswered_probe
                   else transport_found_word(leg.http_status))
        return _("{method} in {spent}, {finding}").format(method=leg.method, spent=format_seconds(spent),
                                                          finding=finding)
    kind = _("timed out") if kind == "timed_out" else leg_outcome_word(kind)  # the command line's words too
    return _("{method} {kind} in {spent}").format(method=leg.method, kind=kind, spent=format_seconds(spent))
