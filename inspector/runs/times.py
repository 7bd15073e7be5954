"""Stored times: UTC, ISO 8601, one fixed width, so that text order is time order.

The run model, the store and the trace files all use this one form
(``YYYY-MM-DDTHH:MM:SS.ffffffZ``, the year always four digits, ``0001`` to ``9999``); it is
formatted for a reader only at display time.
"""

from __future__ import annotations

from datetime import datetime, timezone

__all__ = ["UnstorableTimeError", "from_stored_time", "normal_stored_time", "to_stored_time", "utc_now"]

_DIGITS = frozenset("0123456789")


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
    if (len(text) == 27 and text[26] == "Z" and text[10] == "T" and text[19] == "."
            and text[20:26].isdigit() and text[20:26].isascii()):
        try:  # the stored form itself (nearly every call): the library's parser is the fast one
            return datetime.fromisoformat(text[:26]).replace(tzinfo=timezone.utc)
        except ValueError:
            return None
    fields = _stored_fields(text) if isinstance(text, str) else None
    if fields is None:
        return None
    try:
        return datetime(*fields, tzinfo=timezone.utc)
    except ValueError:  # month 13, year 0, ...
        return None


def _stored_fields(text: str) -> tuple[int, ...] | None:
    """The numbers of ``Y-MM-DDTHH:MM:SS[.ffffff]Z``; the year may lack its leading zeros (an
    older version wrote years before 1000 that way). ``None`` for anything else."""
    if not text.endswith("Z") or text.count("T") != 1:
        return None
    day, _, clock = text[:-1].partition("T")
    clock, _, fraction = clock.partition(".")
    parts = day.split("-") + clock.split(":")
    widths = (4, 2, 2, 2, 2, 2)
    if len(parts) != 6 or len(fraction) > 6 or not set(fraction) <= _DIGITS or (not fraction and "." in text):
        return None
    for part, width in zip(parts, widths, strict=True):
        if not part or len(part) > width or (width == 2 and len(part) != 2) or not set(part) <= _DIGITS:
            return None
    return (*map(int, parts), int(fraction.ljust(6, "0")))


def normal_stored_time(text: str | None) -> str:
    """``to_stored_time(from_stored_time(text))``: the stored form of the moment ``text`` names
    ('' for none), with text already in that form and naming a real moment given back as it is
    (an importer asks for two per run, of times that nearly always are)."""
    if (text and len(text) == 27 and text[4] == "-" and text[7] == "-" and text[10] == "T" and text[13] == ":"
            and text[16] == ":" and text[19] == "." and text[26] == "Z" and text.isascii()
            and (text[:4] + text[5:7] + text[8:10] + text[11:13] + text[14:16] + text[17:19] + text[20:26]).isdigit()):
        try:
            datetime.fromisoformat(text[:26])
        except ValueError:  # month 13, a 61st second, year 0
            return ""
        return text
    return to_stored_time(from_stored_time(text))
