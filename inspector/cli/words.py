"""Words and numbers the readable output shares: outcomes and run statuses, seconds, counts."""

from __future__ import annotations

from datetime import UTC, datetime

from inspector.i18n import words
from inspector.i18n.formatting import (
    format_column_datetime,
    format_number,
    format_pattern,
    zone_marks_between,
    zoned_width,
)
from inspector.i18n.words import OUTCOMES


def outcome_word(outcome: str | None) -> str:
    """The word for an outcome or run status in the current language ("-" for none); the same
    words as the window's, so "cancelled" never reads as "failed" in any language."""
    return words.outcome_word(outcome) if outcome else "-"


def leg_outcome_word(outcome: str | None, method: str = "", http_status: int | None = None,
                     exchange: object = None, next_method: str | None = None) -> str:
    """The word for a leg's outcome ("not sent" for a leg the budget never let go; "-" for none; a
    ``server/discover`` probe the server refused, or never answered, in words, as the window says it)."""
    return words.leg_outcome_word(outcome, method, http_status, exchange, next_method) if outcome else "-"


def outcome_width() -> int:
    """The width of a column of outcome words in the current language ("fehlgeschlagen" is long)."""
    return max(len(outcome_word(outcome)) for outcome in OUTCOMES)


def when(moment: datetime | None) -> str:
    """A stored UTC instant in local time, the locale's way, at one width per language ("-" if none)."""
    return "-" if moment is None else format_column_datetime(moment)


def when_width() -> int:
    """The width of :func:`when`'s text in the current language."""
    return len(when(datetime(2000, 12, 31, 23, 59, 59, tzinfo=UTC)))


def when_width_between(start: datetime | None, end: datetime | None) -> int:
    """The width of a column of :func:`when` for instants from ``start`` to ``end``: wider where one
    of them is said with its zone (a clock set back between them, an end said in UTC)."""
    if start is None or end is None:
        return when_width()
    return when_width() + max((zoned_width(mark) for mark in zone_marks_between(start, end)), default=0)


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
