"""Stored times: UTC, ISO 8601, one fixed width, so that text order is time order.

The run model, the store and the trace files all use this one form
(``YYYY-MM-DDTHH:MM:SS.ffffffZ``, the year always four digits, ``0001`` to ``9999``); it is
formatted for a reader only at display time.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

__all__ = ["UnstorableTimeError", "from_stored_time", "to_stored_time", "utc_now"]

# Also reads the unpadded years ("1-01-01T...") that an older version wrote for years before 1000.
_STORED = re.compile(r"(\d{1,4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?Z")


class UnstorableTimeError(ValueError):
    """A time outside what the store can hold (UTC years 1 to 9999)."""


def utc_now() -> datetime:
    """Now, in UTC."""
    return datetime.now(timezone.utc)


def to_stored_time(moment: datetime | None) -> str:
    """UTC, ISO 8601, fixed width (so text order is time order). '' means unknown.

    Raises :class:`UnstorableTimeError` for a moment whose UTC year is outside 1 to 9999
    (e.g. ``0001-01-01T00:00:00+14:00``, which is in year 0 in UTC).
    """
    if moment is None:
        return ""
    if moment.tzinfo is None:
        raise ValueError("stored times must be timezone-aware")
    try:
        utc = moment.astimezone(timezone.utc)
    except OverflowError:
        raise UnstorableTimeError(f"{moment.isoformat()} is outside the times that can be stored "
                                  "(years 1 to 9999 in UTC)") from None
    # Formatted by hand: strftime("%Y") drops the leading zeros of years before 1000 on some systems.
    return (f"{utc.year:04d}-{utc.month:02d}-{utc.day:02d}T{utc.hour:02d}:{utc.minute:02d}:"
            f"{utc.second:02d}.{utc.microsecond:06d}Z")


def from_stored_time(text: str | None) -> datetime | None:
    """The moment a stored time names; ``None`` for '' (unknown) and for text that names no
    time (a damaged row must not make a whole list unreadable)."""
    if not text:
        return None
    found = _STORED.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        return None
    year, month, day, hour, minute, second, fraction = found.groups()
    try:
        return datetime(int(year), int(month), int(day), int(hour), int(minute), int(second),
                        int((fraction or "0").ljust(6, "0")), tzinfo=timezone.utc)
    except ValueError:  # month 13, year 0, ...
        return None
