"""Whose time a shown time is: the tooltip of a run's start and a step's time. Times are shown in the
reader's time zone, and a run recorded in Los Angeles and read in Berlin shows another hour there than
where it was made; the tooltip names the reader's offset and the same instant in UTC, the one time both
people can compare (an export keeps UTC times)."""

from __future__ import annotations

from datetime import UTC, tzinfo

from inspector.i18n import _
from inspector.i18n.formatting import Instant, format_datetime, offset_said


def time_in_zones(value: Instant | None, zone: tzinfo | None = None, *, milliseconds: bool = False) -> str:
    """"Dec 5, 2026, 3:22:27 PM in this computer's time zone (UTC+1) · Dec 5, 2026, 2:22:27 PM UTC"
    ('' for no time): ``value`` in ``zone`` (default: the computer's), its offset, and in UTC; with
    ``milliseconds`` both times to the millisecond (3:22:27.643 PM), as a timeline's cell shows it."""
    if value is None or value == "":
        return ""
    offset, utc = offset_said(value, zone), format_datetime(value, zone=UTC, milliseconds=milliseconds)
    if offset == "UTC":  # said so only for a time the zone cannot hold (a zone of UTC itself is "UTC+0")
        # Translators: the tooltip of a time at the calendar's edge (9999-12-31 in Berlin is in the year
        # 10000 there), shown in UTC: the time, and why it is not in this computer's zone.
        return _("{utc} UTC: this computer's time zone cannot show it").format(utc=utc)
    here = format_datetime(value, zone=zone, milliseconds=milliseconds)
    # Translators: the tooltip of a shown time: it in this computer's zone, that zone's offset from UTC
    # ("UTC+1"), and the same instant in UTC, the time a colleague in another zone can compare.
    return _("{time} in this computer's time zone ({offset}) · {utc} UTC").format(
        time=here, offset=offset, utc=utc)
