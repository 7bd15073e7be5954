"""Words and numbers the readable output shares: outcomes and run statuses, seconds, counts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from inspector.i18n import _, words
from inspector.i18n.formatting import (
    format_datetime,
    format_number,
    format_pattern,
    format_time,
    offset_said,
    zone_marks_between,
    zoned_width,
)
from inspector.i18n.messages import translate
from inspector.i18n.refused_probe import LegSeen
from inspector.i18n.words import OUTCOMES
from inspector.mcp.leg_names import leg_name
from inspector.runs import Leg


def leg_said(method: str) -> str:
    """A leg's name in the current language ("tools/call (Runde 2)"); it is kept in English."""
    return translate(leg_name(method))


def outcome_word(outcome: str | None) -> str:
    """The word for an outcome or run status in the current language ("-" for none); the same
    words as the window's, so "cancelled" never reads as "failed" in any language."""
    return words.outcome_word(outcome) if outcome else "-"


def step_outcome_text(kind: str, outcome: str | None, legs: Sequence[Leg] = (),
                      payload: Mapping[str, Any] | None = None) -> str:
    """A stored step's outcome in the words of the window's bar over its legs: a failed call says its
    kind of failure where its legs tell it ("failed: timed out", "failed: not sent"), or, imported from
    a trace, where the importer found it timed out (:func:`inspector.i18n.words.stored_outcome_text`,
    by the bar's own rule); "" for a step that has none by nature."""
    return words.stored_outcome_text(kind, outcome, legs, payload)


def step_outcome_width(failed_legs: bool = True) -> int:
    """The width of a column of step outcomes; ``failed_legs``: whether a failed step has legs, whose
    kind of failure :func:`step_outcome_text` says too."""
    kinds = ("timed_out", "refused") if failed_legs else ()
    return max(outcome_width(), len(words.step_outcome_word("tool", None)),
               *(len(words.outcome_text("failed", kind)) for kind in kinds))


def leg_outcome_word(outcome: str | None, method: str = "", http_status: int | None = None,
                     exchange: object = None, next_method: str | None = None,
                     next_outcome: str | None = None, following: Sequence[LegSeen] = ()) -> str:
    """The word for a leg's outcome ("not sent" for a leg the budget never let go; "-" for none; a
    ``server/discover`` probe the server refused, or never answered, and the refused POST that found
    the older HTTP+SSE transport (given the leg after it), in words, as the window says it; given all the
    legs after it, a probe refused where no server answered says what it saw)."""
    return words.leg_outcome_word(outcome, method, http_status, exchange, next_method,
                                  next_outcome, following) if outcome else "-"


def outcome_width() -> int:
    """The width of a column of outcome words in the current language ("fehlgeschlagen" is long)."""
    return max(len(outcome_word(outcome)) for outcome in OUTCOMES)


def terminal_text(text: str) -> str:
    """``text`` as a terminal shows it whole."""
    # CLDR's narrow space before AM/PM: not every terminal font has it
    return text.replace("\u202f", " ")


def when(moment: datetime | None) -> str:
    """A stored UTC instant in local time as the window's runs list says it ("Dec 5, 2026, 12:31:45 AM" /
    "05.12.2026, 00:31:45"; "-" if none); a column of them is as wide as its widest."""
    return "-" if moment is None else terminal_text(format_datetime(moment))


def zone_line(started: datetime | None, finished: datetime | None) -> str:
    """Whose time ``runs show``'s times are ("" for a run with no start): this computer's zone, its
    offset (both, where a clock was set between the start and the end), and the start in UTC, the time
    a customer in another zone, who reads other hours in the same output, can compare (the window's
    tooltip of a time says the same)."""
    if started is None:
        return ""
    offsets = list(dict.fromkeys(offset_said(moment) for moment in (started, finished) if moment is not None))
    if offsets == ["UTC"]:  # said so only for times the zone cannot hold (a zone of UTC itself is "UTC+0")
        # Translators: under `runs show`'s start and end, for a run at the calendar's edge (9999-12-31
        # in Berlin is in the year 10000 there): its times are said in UTC, each marked "(UTC)".
        return _("  times in UTC: this computer's time zone cannot show them")
    # Translators: two offsets from UTC of one run's times, where a clock was set between its start
    # and its end, e.g. "UTC+2, then UTC+1".
    offset = offsets[0] if len(offsets) == 1 else _("{before}, then {after}").format(before=offsets[0],
                                                                                     after=offsets[1])
    # Translators: under `runs show`'s start and end: the zone they are said in, e.g. "(UTC+1)", and the
    # run's start in UTC, for someone in another zone (a customer who sent the trace) to compare.
    return _("  times in this computer's time zone ({offset}); the run started {utc} UTC").format(
        offset=offset, utc=terminal_text(format_datetime(started, zone=UTC)))


def when_width() -> int:
    """The least width of a column of :func:`when` in the current language (a wide date of the year)."""
    return len(when(datetime(2000, 12, 31, 23, 59, 59, tzinfo=UTC)))


def step_time(moment: datetime | None, dated: bool = False) -> str:
    """A step's start as the window's timeline says it: the time of day to the millisecond
    ("12:31:45.123 AM" / "00:31:45,123"), with its date where ``dated`` (a run over more than one day:
    steps two days apart read the same time of day); "-" if none."""
    if moment is None:
        return "-"
    said = format_datetime(moment, milliseconds=True) if dated else format_time(moment, milliseconds=True)
    return terminal_text(said)


def step_time_width_between(start: datetime | None, end: datetime | None, dated: bool = False) -> int:
    """The width of a column of :func:`step_time` (``dated`` as it says them) for instants from ``start``
    to ``end`` (``None``: the start alone): wider where one of them is said with its zone (a clock set
    back between them, an end said in UTC)."""
    say = format_datetime if dated else format_time
    widest = max(len(terminal_text(say(datetime(2000, 12, 31, hour, 59, 59, 999_000, tzinfo=UTC), zone=UTC,
                                   milliseconds=True))) for hour in (12, 23))
    if start is None:
        return widest
    # A run not finished (interrupted, or still running) is measured by its start: one at the zone's
    # edge still has its steps said in UTC, and marked so.
    marks = zone_marks_between(start, end or start)
    return widest + max((zoned_width(mark) for mark in marks), default=0)


def seconds(value: float, decimals: int | None = None) -> str:
    """A number of seconds for a sentence, in the locale's way; ``decimals``: exactly that many."""
    if decimals is None:
        return format_number(float(value)) if not float(value).is_integer() else format_number(int(value))
    return format_pattern(value, "#,##0." + "0" * decimals if decimals else "#,##0")


def whole(value: int) -> str:
    """A count in the locale's way ("1,234" / "1.234")."""
    return format_number(int(value))


def status_cell(http_status: int | None, transport: str | None) -> str:
    """A leg's HTTP status as its column shows it ("HTTP 200", "HTTP   -" when none came back); empty
    for a leg that travelled on a command's pipes or the older transport's event stream, where no
    HTTP status belongs to the leg."""
    if http_status is None and transport in ("stdio", "sse"):
        return ""
    return "HTTP " + ("-" if http_status is None else str(http_status)).rjust(3)
