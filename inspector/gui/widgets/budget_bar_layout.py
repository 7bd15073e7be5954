"""Where each part of a budget bar goes: :func:`layout` turns a :class:`~.budget_state.BarState`
at a moment into geometry (legs, bands, the deadline line, progress ticks) and its words
(:mod:`.budget_bar_words`). Pure Python, no Qt, so the drawing can be tested on a fake clock."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from inspector.i18n import current_language
from inspector.i18n.transport_probe import CONNECT_METHOD
from inspector.runs import Leg

from .budget_bar_words import (
    describe,
    describe_running,
    ending_text,
    format_seconds,
    leg_label,
    leg_short_label,
    leg_tooltip,
    merged_words,
    progress_tooltip,
    remaining_text,
    spent_text,
)
from .budget_state import ERA_FOUND, BarState, LegState, ProgressMark, leg_kind
from .budget_waits import WAITING

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
        return progress_tooltip(self.mark)


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


def layout(state: BarState, now_s: float, width: float) -> BarGeometry:
    """Place every part of the bar for an operation ``now_s`` seconds after it started.

    The legs that have ended are laid out once per change of the state (and kept in
    ``state.kept``); a frame lays out only the running leg(s) after them. When the legs outnumber
    what the track can show one by one (a task polled a thousand times), neighbouring legs of the
    same kind narrower than a pixel are drawn as one segment ("40 legs")."""
    budget = max(state.budget_s, 1e-9)
    at = state.ended_s if state.finished and state.ended_s is not None else now_s
    history = ended_history(state)
    first_running = history["first_running"]
    tail = state.legs[first_running:]
    # With no deadline (the agent's own call, passed through) the track is the operation's own time:
    # no deadline line, no room after one.
    deadline = state.no_deadline is None
    farthest = max([budget * (1 + AFTER_DEADLINE_SHARE) if deadline else max(at, 1e-9), history["far"]]
                   + [leg.start_s + leg.granted_s for leg in tail if leg.running and leg.granted_s]
                   + [leg.start_s + (leg.elapsed_s or 0.0) for leg in tail])
    seconds_shown = farthest if math.isfinite(farthest) else budget
    refused = history["refused"]
    # A leg never sent is an outline of its own after everything that was spent: keep room for it.
    drawable = max(1.0, width - (NOT_SENT_WIDTH_PX + 4 if refused else 0.0))
    px = drawable / seconds_shown if seconds_shown > 0 else 0.0
    deadline_x = budget * px if deadline else drawable  # none: nothing reaches past it
    placed = history.get(("segments", width, seconds_shown))
    if placed is None:
        placed = history[("segments", width, seconds_shown)] = _place(
            state, 0, first_running, at, px, width, deadline_x, 0.0, 0, crowded=_crowded(state, drawable))
    segments, spent_end_x, finished_index = placed
    if tail:
        more, _end, _count = _place(state, first_running, len(state.legs), at, px, width, deadline_x,
                                    spent_end_x, finished_index, crowded=False)
        segments = segments + more
    if not deadline:  # nothing to overrun: a leg reaching the track's end (by a float's last bit) is not past one
        segments = tuple(replace(segment, overrun_width=0.0) if segment.overrun_width else segment
                         for segment in segments)
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
        description = describe_running(state, at, tail[0] if tail else None)
    return BarGeometry(width, seconds_shown, deadline_x, segments, ticks, remaining, end_text,
                       description, spent_text(state, at))


#: The track shows legs one by one while each can have this many pixels (its least width, a gap,
#: and as much again); past that the legs are crowded and the narrowest are merged.
CROWD_PX_PER_LEG = 2 * (MIN_LEG_PX + LEG_GAP_PX)


def _crowded(state: BarState, drawable: float) -> bool:
    return len(state.legs) * CROWD_PX_PER_LEG > drawable


def ended_history(state: BarState) -> dict:
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
        kind = leg_kind(leg)
        if kind == "ok" and state.ending == "failed" and index == count - 1:
            kind = "failed"  # the server answered, the tool said it failed: the work leg shows it
        spent = leg.elapsed_s if leg.elapsed_s is not None else max(0.0, at - leg.start_s)
        group = index + 1
        if crowded and kind in ("ok", WAITING) and spent * px < 1.0:
            # Neighbours of the same kind as narrow as this one go into its segment.
            while (group < last and group < count - 1 and not legs[group].running
                   and leg_kind(legs[group]) == kind and (legs[group].elapsed_s or 0.0) * px < 1.0):
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
                                        deadline_x, max(0.0, right - deadline_x), leg_label(leg, spent),
                                        leg_tooltip(leg, spent, state.budget_s,
                                                     "http" if index < opened else state.transport),
                                        finished_index % 2,
                                        END_MARKS.get(kind, ""), leg_short_label(leg, spent),
                                        format_seconds(spent)))
        finished_index += 1
        index += 1
    return tuple(segments), spent_end_x, finished_index


def _merged_segment(index: int, legs: list[LegState], kind: str, x: float, width: float, deadline_x: float,
                    spent: float, shade: int) -> SegmentGeometry:
    """Legs too narrow to draw one by one, as one segment that says how many they are."""
    label, short, tooltip = merged_words(legs, spent)
    return SegmentGeometry(index, legs[0].method, kind, x, width, 0.0, 0.0, deadline_x,
                           max(0.0, x + width - deadline_x), label, tooltip, shade, "", short, format_seconds(spent))


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
