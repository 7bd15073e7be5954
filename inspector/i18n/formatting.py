"""Numbers, sizes, durations and dates for the current language, formatted with Babel at call time.

Stored values stay plain: seconds and byte counts as numbers, instants as UTC. These functions
only make the text a person reads, so call them where a value is shown (each call reads the
current language, so a switch of language shows on the next repaint).

Durations read like a person would say them, most significant unit first and never more than
two units, and in seconds below a minute (never milliseconds beside seconds): "0.012 s",
"0.35 s", "1.5 s" ("1,5 s" in German), "8.0 s", "12.3 s", "2 min", "2 min 5 s", "1 h 5 min",
"2 d 3 h"; a time measured that rounds to no thousandth (half a millisecond or less) is "< 0.001 s",
never "0 s". The unit and digits are chosen on the number as written (:func:`shown_rounded`). The
units' symbols come from the catalogue, so a language may spell them its way.
"""

from __future__ import annotations

import math
import re
import time
from datetime import UTC, datetime, timedelta, tzinfo
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from functools import cache, lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

from inspector.i18n import _, current_language, current_locale

if TYPE_CHECKING:
    from babel.core import Locale
    from babel.numbers import NumberPattern

UNKNOWN = "–"
"""What a missing value shows as (an en dash, the same in every language)."""

_SIZE_UNITS = ("kB", "MB", "GB", "TB", "PB")

Instant = datetime | str | float | int

#: The longest duration said in days (about 27,000 years); a longer one is "more than" it.
MOST_DAYS_SAID = 10_000_000

_DAY = timedelta(days=1)


def _babel_dates() -> ModuleType:
    from babel import dates  # on demand: a command that writes no date never loads Babel's calendars

    return dates


def _babel_numbers() -> ModuleType:
    from babel import numbers

    return numbers


@cache
def _number_pattern(pattern: str) -> NumberPattern:
    # Parsed once: a timeline's repaint formats a few numbers for every row it shows.
    from babel.numbers import parse_pattern  # Babel loads only for what the plain signs do not say

    return parse_pattern(pattern)


def _decimal(value: float, pattern: str) -> str:
    return _decimal_in(value, pattern, current_language())


#: The decimal and group signs of the languages the application speaks, as Babel's CLDR data has
#: them (tests/unit/i18n/test_number_signs.py checks that they still agree, number by number):
#: reading Babel's locale data costs a command-line call about 40 ms of its start.
PLAIN_SIGNS = {"en": (".", ","), "de": (",", ".")}
#: The patterns said without Babel: ``0`` or ``#,##0``, then maybe a point with zeros (the least
#: fraction digits) and hashes (the more there may be).
_PLAIN_PATTERN = re.compile(r"(#,##)?0(?:\.(0*)(#*))?")


@cache
def plain_shape(pattern: str) -> tuple[bool, int, int] | None:
    """Whether ``pattern`` groups thousands, its least and most fraction digits; ``None`` for a
    pattern :func:`plain_decimal` does not say (Babel then does)."""
    match = _PLAIN_PATTERN.fullmatch(pattern)
    if match is None:
        return None
    least, more = len(match.group(2) or ""), len(match.group(3) or "")
    return match.group(1) is not None, least, least + more


@lru_cache(maxsize=4096)
def _decimal_in(value: float, pattern: str, language: str) -> str:
    # The live bars and rows say the same few numbers many times a second: Babel's formatting of
    # one number costs more than painting a row, so the text of a recent value is kept.
    signs, shape = PLAIN_SIGNS.get(language), plain_shape(pattern)
    if signs is not None and shape is not None and _plain(value):
        return plain_decimal(value, shape, *signs)
    return _number_pattern(pattern).apply(value, current_locale())


def _plain(value: object) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool) and value >= 0) or (
        isinstance(value, float) and math.isfinite(value) and value >= 0)


def shown_rounded(value: float, places: int) -> Decimal:
    """``value`` (0 or more) rounded to ``places`` decimals as :func:`plain_decimal` writes its digits
    (half to even from its shortest decimal form): a duration's unit and digits are chosen on the number
    shown. Python's ``round`` rounds the binary value instead: 0.0005 s is a hair over half a millisecond
    there (0.001) and exactly half, rounded to 0.000, in the digits: it read "0 s"."""
    number = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
    # Precision for every digit: a value of a file may be as large as 1e308 (the default 28 digits
    # would make quantize refuse it, and the whole page that shows it fail).
    with localcontext() as context:
        context.prec = max(context.prec, number.adjusted() + places + 2)
        return number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)


def plain_decimal(value: float, shape: tuple[bool, int, int], decimal_sign: str, group_sign: str) -> str:
    """A number 0 or more as Babel writes it in a pattern of ``shape`` (grouped by thousands or
    not, the least and most fraction digits): rounded half to even from its shortest decimal form."""
    grouped, least, most = shape
    whole, _, fraction = f"{shown_rounded(value, most):f}".partition(".")
    fraction = fraction.rstrip("0").ljust(least, "0")
    if grouped:
        whole = f"{int(whole):,}".replace(",", group_sign)
    return f"{whole}{decimal_sign}{fraction}" if fraction else whole


def format_pattern(value: float, pattern: str) -> str:
    """``value`` in a Babel number ``pattern`` (e.g. ``#,##0.00``), in the current language."""
    return _decimal(value, pattern)


def format_number(n: float | int | None) -> str:
    """A number with the locale's grouping and decimal sign ("12,345.5" / "12.345,5")."""
    if n is None:
        return UNKNOWN
    if isinstance(n, int):
        return _decimal(n, "#,##0")
    return _decimal(n, "#,##0.###")


#: Seconds from which a number is said in scientific notation ("1E308"): over 30 million years.
HUGE_SECONDS = 1e15


def format_seconds(value: float | None) -> str:
    """A number of seconds as a locale number without unit, for sentences like "a budget of {seconds} s"."""
    if value is None:
        return UNKNOWN
    if math.isfinite(value) and abs(value) >= HUGE_SECONDS:
        # A budget of 1e308 s is allowed: 309 digits made a label wider than any screen.
        return _number_pattern("0.###E0").apply(value, current_locale())
    return _decimal(value, "#,##0.###")


def format_duration(seconds: float | None) -> str:
    """A duration as a person reads it: "0.35 s", "8.0 s", "2 min 5 s", "1 h 5 min" (see the module doc).

    The one format of a duration in the window: a column, a label and a sentence all say it so."""
    if seconds is None or (isinstance(seconds, float) and math.isnan(seconds)):
        return UNKNOWN
    if seconds < 0:
        return "-" + format_duration(-seconds)
    if math.isinf(seconds):
        return "∞"
    if seconds == 0:
        return _("{seconds} s").format(seconds="0")
    if shown_rounded(seconds, 3) == 0:
        # A time that was measured is never "0 s" (a scripted model answers in a tenth of a millisecond;
        # one stored as 0.50 ms, written to the thousandth half to even, read "answered in 0 s").
        # Translators: a duration shorter than the one shown, e.g. "< 0.001 s".
        return _("< {seconds} s").format(seconds=_decimal(0.001, "0.###"))
    if shown_rounded(seconds, 2) < Decimal("0.1"):
        # Translators: a duration in seconds; {seconds} is a number such as "1.5" or "0.012".
        return _("{seconds} s").format(seconds=_decimal(seconds, "0.###"))
    if shown_rounded(seconds, 2) < 1:
        return _("{seconds} s").format(seconds=_decimal(seconds, "0.##"))
    if shown_rounded(seconds, 1) < 60:
        return _("{seconds} s").format(seconds=_decimal(seconds, "0.0"))
    if round(seconds) < 3600:
        minutes, rest = divmod(round(seconds), 60)
        if rest == 0:
            # Translators: a duration in whole minutes.
            return _("{minutes} min").format(minutes=_decimal(minutes, "0"))
        # Translators: a duration in minutes and seconds, e.g. "2 min 5 s".
        return _("{minutes} min {seconds} s").format(minutes=_decimal(minutes, "0"), seconds=_decimal(rest, "0"))
    if round(seconds / 60) < 24 * 60:
        hours, minutes = divmod(round(seconds / 60), 60)
        if minutes == 0:
            # Translators: a duration in whole hours ("h" is the hour's symbol).
            return _("{hours} h").format(hours=_decimal(hours, "0"))
        # Translators: a duration in hours and minutes, e.g. "1 h 5 min".
        return _("{hours} h {minutes} min").format(hours=_decimal(hours, "0"), minutes=_decimal(minutes, "0"))
    days, hours = divmod(round(seconds / 3600), 24)
    if days > MOST_DAYS_SAID:
        # Longer than any calendar a run is dated in (a file's duration of 1e300 ms): not 300 digits.
        # Translators: a duration too long to say ("d" is the day's symbol), e.g. "more than 10,000,000 d".
        return _("more than {days} d").format(days=_decimal(MOST_DAYS_SAID, "#,##0"))
    if hours == 0:
        # Translators: a duration in whole days ("d" is the day's symbol).
        return _("{days} d").format(days=_decimal(days, "#,##0"))
    # Translators: a duration in days and hours, e.g. "2 d 3 h".
    return _("{days} d {hours} h").format(days=_decimal(days, "#,##0"), hours=_decimal(hours, "0"))


def format_size(size: int | float | None) -> str:
    """A size in bytes: "512 B", "1.5 kB", "230 MB" (decimal units, as file managers show them)."""
    if size is None:
        return UNKNOWN
    if abs(size) < 1000:
        # Translators: a size in bytes; "B" is the byte's symbol.
        return _("{size} B").format(size=_decimal(size, "#,##0"))
    value = float(size)
    for unit in _SIZE_UNITS:
        value /= 1000
        if abs(round(value, 1)) < 1000 or unit == _SIZE_UNITS[-1]:
            break
    pattern = "0.#" if abs(value) < 100 else "#,##0"
    # Translators: a size with its unit, e.g. "1.5 MB"; {unit} is kB, MB, GB, TB or PB.
    return _("{size} {unit}").format(size=_decimal(value, pattern), unit=unit)


def as_utc(value: Instant) -> datetime:
    """``value`` as an aware UTC datetime: a datetime (naive means UTC), an ISO 8601 text or epoch seconds."""
    if isinstance(value, datetime):
        moment = value
    elif isinstance(value, str):
        moment = datetime.fromisoformat(value.strip())
    else:
        moment = datetime.fromtimestamp(float(value), UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def _local(value: Instant, zone: tzinfo | None) -> tuple[datetime, str] | None:
    """``value`` in ``zone`` (default: the computer's) and the zone to say beside it ('' for none);
    ``None`` when it is no date.

    An instant the zone cannot hold (year 1 west of Greenwich, 9999-12-31 east of it) is given in
    UTC, marked "UTC"; a wall time the zone has twice (the hour a clock is set back) is marked with
    its offset ("UTC+2" then "UTC+1"), so that no two instants read alike."""
    try:
        moment = as_utc(value)
    except (ValueError, OverflowError, OSError):
        return None
    try:
        local = moment.astimezone(zone) if zone is not None else moment.astimezone()
    except (ValueError, OverflowError, OSError):
        return moment, "UTC"
    return local, (_offset_said(local) if _twice(moment, local, zone) else "")


def _offset_in(zone: tzinfo | None, instant: datetime) -> timedelta | None:
    return (instant.astimezone(zone) if zone is not None else instant.astimezone()).utcoffset()


def _twice(moment: datetime, local: datetime, zone: tzinfo | None) -> bool:
    """Whether another instant has ``local``'s wall time in ``zone`` (the hour a clock is set back)."""
    # Asked for every time shown: the days with no change of clock (nearly all) are answered once.
    computer = (time.timezone, time.altzone, time.tzname) if zone is None else None
    if not _clock_changes_near(zone, computer, moment.toordinal()):
        return False

    def offset_at(instant: datetime) -> object:
        return _offset_in(zone, instant)

    own = local.utcoffset()
    try:
        around = {offset_at(moment - _DAY), offset_at(moment + _DAY)} - {own}
        return any(offset_at(moment + own - other) == other for other in around)  # type: ignore[operator]
    except (ValueError, OverflowError, OSError, TypeError):
        return False


@lru_cache(maxsize=1024)
def _clock_changes_near(zone: tzinfo | None, computer: object, day: int) -> bool:
    """Whether ``zone`` (``None``: the computer's, named by ``computer``) changes its offset from UTC
    between the day before the UTC day ``day`` (an ordinal) and the end of the day after it."""
    try:
        first = datetime.fromordinal(day - 1).replace(tzinfo=UTC)
        return len({_offset_in(zone, first + _DAY * days) for days in range(4)}) > 1
    except (ValueError, OverflowError, OSError):
        return True  # at the calendar's edges: asked the long way, which knows them


def _offset_said(local: datetime) -> str:
    """The zone of ``local`` as its offset from UTC: "UTC+2", "UTC-2:30", "UTC+5:45"; to the second
    where it has seconds ("UTC+0:53:28", Berlin's local mean time before 1893): rounded to the minute,
    a time said beside it was 28 seconds off the UTC time said with it."""
    offset = local.utcoffset()
    seconds = round(offset.total_seconds()) if offset is not None else 0
    hours, rest = divmod(abs(seconds), 3600)
    minutes, rest = divmod(rest, 60)
    said = f":{minutes:02d}:{rest:02d}" if rest else (f":{minutes:02d}" if minutes else "")
    return f"UTC{'-' if seconds < 0 else '+'}{hours}{said}"


def offset_said(value: Instant, zone: tzinfo | None = None) -> str:
    """The offset from UTC of ``zone`` (default: the computer's) at ``value``: "UTC+1", "UTC-8";
    "UTC" for an instant the zone cannot hold (it is said in UTC then)."""
    placed = _local(value, zone)
    if placed is None or placed[1] == "UTC":
        return "UTC"
    return _offset_said(placed[0])


def zone_mark(value: Instant | None, zone: tzinfo | None = None) -> str:
    """The zone the date and time functions here say beside ``value`` in ``zone`` ("UTC+2", "UTC"),
    '' for none (nearly every instant)."""
    placed = _local(value, zone) if value not in (None, "") else None
    return "" if placed is None else placed[1]


def with_zone(text: str, mark: str) -> str:
    """``text``, a date or time, with ``mark`` said beside it as the functions here say it."""
    return _zoned(text, mark)


def zone_marks_between(start: Instant, end: Instant, zone: tzinfo | None = None) -> list[str]:
    """The marks a time from ``start`` to ``end`` may carry in ``zone`` (default: the computer's):
    their offsets when a clock is set between them or at either end ("UTC+2", "UTC+1"), "UTC" for
    an end the zone cannot hold; none for the usual run (for the width of a column of times)."""
    marks = []
    offsets = []
    for value in (start, end):
        placed = _local(value, zone)
        if placed is not None:
            marks.append(placed[1])
            offsets.append(placed[0])
    if len(offsets) == 2 and "UTC" not in marks and offsets[0].utcoffset() != offsets[1].utcoffset():
        marks.extend(_offset_said(moment) for moment in offsets)
    return sorted({mark for mark in marks if mark})


def one_day(start: Instant | None, end: Instant | None, zone: tzinfo | None = None) -> bool:
    """Whether ``start`` and ``end`` fall on one calendar day as they are said in ``zone`` (default: the
    computer's): then a time of day names an instant between them, else only a date with it does. True
    when either is unknown."""
    placed = [_local(value, zone) for value in (start, end) if value is not None and value != ""]
    days = {moment.date() for moment, _mark in filter(None, placed)}
    return len(days) <= 1


def zoned_width(mark: str) -> int:
    """How many characters ``mark`` adds to a time it is said beside."""
    return len(_zoned("", mark))


def _zoned(text: str, zone: str) -> str:
    if not zone:
        return text
    # Translators: a date or time with the zone it is said in, where the local time alone would not
    # name one instant, e.g. "2:30:00 AM (UTC+2)" in the hour a clock is set back, or "Dec 31,
    # 9999, 11:59:58 PM (UTC)" for a time the computer's zone cannot hold.
    return _("{time} ({zone})").format(time=text, zone=zone)


def format_datetime(value: Instant | None, format: str = "medium", zone: tzinfo | None = None, *,
                    milliseconds: bool = False) -> str:
    """A UTC instant as the locale writes a date and time ("Jan 5, 2025, 3:04:05 PM" / "05.01.2025, 15:04:05").

    Shown in ``zone`` (default: the computer's time zone). ``format`` is Babel's "short",
    "medium", "long" or a pattern. A text that is no date is shown as it is. With ``milliseconds``
    the seconds carry three decimals as :func:`format_time` writes them ("3:04:05.123 PM").
    """
    if value is None or value == "":
        return UNKNOWN
    placed = _local(value, zone)
    if placed is None:
        return str(value)
    moment, said_zone = placed
    from babel.dates import format_datetime as babel_datetime

    locale = current_locale()
    if (moment.year < 1000 or milliseconds) and format in locale.datetime_formats and format in locale.date_formats:
        date = locale.date_formats[format].pattern
        format = (str(locale.datetime_formats[format]).replace("{1}", _full_year(date) if moment.year < 1000 else date)
                  .replace("{0}", _time_pattern(locale, format, milliseconds)))
    return _zoned(babel_datetime(moment, format=format, tzinfo=moment.tzinfo, locale=locale), said_zone)


def _full_year(pattern: str) -> str:
    """A date ``pattern`` whose year is written with four digits at least: CLDR's "y" writes year 1
    as "1" ("01.01.1"), which reads as no year at all; the command line's column says "0001"."""
    return re.sub(r"(?<![y'])y(?![y'])", "yyyy", pattern)


def column_datetime_pattern() -> str:
    """The locale's short date and medium time with every field at full width ("MM/dd/yyyy, hh:mm:ss a" /
    "dd.MM.yyyy, HH:mm:ss"), so a column of them lines up in a terminal."""
    locale = current_locale()
    date = locale.date_formats["short"].pattern
    date = re.sub(r"y+", "yyyy", re.sub(r"M+", "MM", re.sub(r"d+", "dd", date)))
    time = re.sub(r"H+", "HH", re.sub(r"h+", "hh", locale.time_formats["medium"].pattern))
    joined = str(locale.datetime_formats.get("short", "{1} {0}"))
    return joined.replace("{1}", date).replace("{0}", time)


def format_column_datetime(value: Instant | None, zone: tzinfo | None = None) -> str:
    """A UTC instant in local time as :func:`column_datetime_pattern` writes it; every instant of a
    locale has the same width, but for one marked with its zone (see :func:`_local`)."""
    if value is None or value == "":
        return UNKNOWN
    placed = _local(value, zone)
    if placed is None:
        return str(value)
    moment, said_zone = placed
    text = _babel_dates().format_datetime(moment, format=column_datetime_pattern(), tzinfo=moment.tzinfo,
                                       locale=current_locale())
    # CLDR's narrow space before AM/PM: not every terminal font has it
    return _zoned(text.replace("\u202f", " "), said_zone)


def format_time(value: Instant | None, format: str = "medium", zone: tzinfo | None = None, *,
                milliseconds: bool = False) -> str:
    """A UTC instant's time of day as the locale writes it ("3:04:05 PM" / "15:04:05").

    With ``milliseconds`` the seconds carry three decimals in the locale's decimal sign
    ("3:04:05.123 PM" / "15:04:05,123"), for a timeline of steps a few milliseconds apart.
    """
    if value is None or value == "":
        return UNKNOWN
    placed = _local(value, zone)
    if placed is None:
        return str(value)
    moment, said_zone = placed
    locale = current_locale()
    if milliseconds:
        format = _time_pattern(locale, format, milliseconds)
    return _zoned(_babel_dates().format_time(moment, format=format, tzinfo=moment.tzinfo, locale=locale), said_zone)


def _time_pattern(locale: Locale, format: str, milliseconds: bool) -> str:
    """The locale's ``format`` of a time of day as a pattern; with ``milliseconds``, its seconds with
    three decimals in the locale's decimal sign ("h:mm:ss.SSS a" / "HH:mm:ss,SSS")."""
    pattern = locale.time_formats[format].pattern if format in locale.time_formats else format
    if not milliseconds:
        return pattern
    decimal = _babel_numbers().get_decimal_symbol(locale)
    return pattern.replace("ss", f"ss'{decimal}'SSS", 1)


def format_date(value: Instant | None, format: str = "medium", zone: tzinfo | None = None) -> str:
    """A UTC instant's calendar date as the locale writes it ("Jan 5, 2025" / "05.01.2025")."""
    if value is None or value == "":
        return UNKNOWN
    placed = _local(value, zone)
    if placed is None:
        return str(value)
    moment, said_zone = placed
    locale = current_locale()
    if moment.year < 1000 and format in locale.date_formats:
        format = _full_year(locale.date_formats[format].pattern)
    # A date is the same either side of a clock set back: only a date in UTC is marked.
    return _zoned(_babel_dates().format_date(moment.date(), format=format, locale=locale),
                  "UTC" if said_zone == "UTC" else "")


def format_fixed(value: float | None, decimals: int = 1) -> str:
    """A number with exactly ``decimals`` decimals in the locale's writing ("2.0" / "2,0"), for live counters."""
    if value is None:
        return UNKNOWN
    pattern = "#,##0" + ("." + "0" * decimals if decimals > 0 else "")
    return _decimal(value, pattern)


def joined(parts: list[str]) -> str:
    """Phrases joined as the language lists them ("A, B, and C" / "A, B und C")."""
    if len(parts) < 2:
        return "".join(parts)
    from babel.lists import format_list  # Babel's lists load only when a list is said

    return format_list(parts, style="standard", locale=current_locale())


__all__ = [
    "UNKNOWN",
    "as_utc",
    "column_datetime_pattern",
    "format_column_datetime",
    "format_date",
    "format_datetime",
    "format_duration",
    "format_fixed",
    "format_number",
    "format_seconds",
    "format_size",
    "format_time",
    "joined",
    "one_day",
    "with_zone",
    "zone_mark",
    "zone_marks_between",
    "zoned_width",
]
