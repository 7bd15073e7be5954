"""Babel formatting of durations, numbers, sizes and dates in English and German."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone

import pytest

from inspector import i18n
from inspector.i18n.formatting import (
    UNKNOWN,
    format_date,
    format_datetime,
    format_duration,
    format_number,
    format_seconds,
    format_size,
    format_time,
)


@pytest.fixture(params=["en", "de"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    used = i18n.set_language(request.param)
    if used != request.param:  # no compiled catalogue: formatting still follows the locale
        i18n._language = request.param
    yield request.param
    i18n.set_language("en")


DURATIONS = [
    (None, UNKNOWN, UNKNOWN),
    (0, "0 s", "0 s"),
    (0.0004, "< 0.001 s", "< 0,001 s"),  # measured: never "0 s" (a scripted model's answer)
    (0.0000001, "< 0.001 s", "< 0,001 s"),
    # Half a millisecond: 0.000 in the digits (half to even), so under the smallest shown, not "0 s".
    (0.0005, "< 0.001 s", "< 0,001 s"),
    (0.00051, "0.001 s", "0,001 s"),
    (0.0025, "0.002 s", "0,002 s"),
    (0.012, "0.012 s", "0,012 s"),
    (0.35, "0.35 s", "0,35 s"),
    (0.995, "1.0 s", "1,0 s"),  # 1.00 in the digits: said as a second is ("1 s" beside "1.0 s" before)
    (0.9996, "1.0 s", "1,0 s"),
    (1.5, "1.5 s", "1,5 s"),
    (6.012, "6.0 s", "6,0 s"),
    (8.041, "8.0 s", "8,0 s"),
    (12.34, "12.3 s", "12,3 s"),
    (59.97, "1 min", "1 min"),
    (120, "2 min", "2 min"),
    (125.4, "2 min 5 s", "2 min 5 s"),
    (3900, "1 h 5 min", "1 h 5 min"),
    (7200, "2 h", "2 h"),
    (3 * 86400 + 4 * 3600, "3 d 4 h", "3 d 4 h"),
    (-1.5, "-1.5 s", "-1,5 s"),
]


@pytest.mark.parametrize(("seconds", "english", "german"), DURATIONS)
def test_durations(language: str, seconds: float | None, english: str, german: str) -> None:
    assert format_duration(seconds) == (english if language == "en" else german)


def test_a_duration_is_never_said_in_milliseconds(language: str) -> None:
    """One format: "8.0 s", never "8,041 ms" beside it (a reader compares at a glance)."""
    for milliseconds in (0, 1, 4, 12, 99, 100, 350, 999, 1000, 8041, 59_999):
        assert "ms" not in format_duration(milliseconds / 1000), milliseconds


def test_numbers_sizes_and_seconds(language: str) -> None:
    german = language == "de"
    assert format_number(1234567) == ("1.234.567" if german else "1,234,567")
    assert format_number(1234.5) == ("1.234,5" if german else "1,234.5")
    assert format_seconds(2.5) == ("2,5" if german else "2.5")
    assert format_seconds(30) == "30"
    assert format_size(512) == "512 B"
    assert format_size(1500) == ("1,5 kB" if german else "1.5 kB")
    assert format_size(230_000_000) == "230 MB"
    assert format_number(None) == UNKNOWN


def test_a_huge_budget_is_said_in_a_few_characters(language: str) -> None:
    """A budget has no upper clamp: 1e308 s was said in 309 digits and grouping signs, and the
    workbench's "Budget: … s" line made the window 3547 pixels wide."""
    german = language == "de"
    assert format_seconds(1e308) == "1E308"
    assert format_seconds(2.5e15) == ("2,5E15" if german else "2.5E15")
    assert format_seconds(1e14) == ("100.000.000.000.000" if german else "100,000,000,000,000")


def test_dates_and_times_from_utc(language: str) -> None:
    german = language == "de"
    utc = "2025-01-05T15:04:05Z"
    assert format_datetime(utc, zone=UTC) == ("05.01.2025, 15:04:05" if german else "Jan 5, 2025, 3:04:05\u202fPM")
    assert format_time(utc, zone=UTC) == ("15:04:05" if german else "3:04:05\u202fPM")
    assert format_date(utc, zone=UTC) == ("05.01.2025" if german else "Jan 5, 2025")
    # Shown in the viewer's zone; stored values are UTC (a naive datetime and epoch seconds are UTC too).
    berlin = timezone(timedelta(hours=1))
    assert format_time(datetime(2025, 1, 5, 15, 4, 5), zone=berlin) == ("16:04:05" if german else "4:04:05\u202fPM")
    assert format_time(1736089445, zone=UTC) == ("15:04:05" if german else "3:04:05\u202fPM")


def test_a_text_that_is_no_date_is_shown_as_it_is() -> None:
    assert format_datetime("yesterday") == "yesterday"
    assert format_datetime(None) == UNKNOWN


def test_a_column_of_dates_has_one_width_per_language(language: str) -> None:
    from inspector.i18n.formatting import format_column_datetime

    instants = [datetime(2026, 1, 5, 3, 4, 5, tzinfo=UTC), datetime(2026, 12, 31, 23, 59, 59, tzinfo=UTC),
                datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)]
    shown = [format_column_datetime(moment, UTC) for moment in instants]
    assert len({len(text) for text in shown}) == 1, shown
    assert shown[0] == {"en": "01/05/2026, 03:04:05 AM", "de": "05.01.2026, 03:04:05"}[language]
    assert format_column_datetime(None) == UNKNOWN


def test_numbers_and_durations_of_any_size_are_said(language: str) -> None:
    """A file may hold 1e308 (a duration, a count): said, never a decimal.InvalidOperation."""
    german = language == "de"
    assert format_number(10**40) == ("10" + ".000" * 13 if german else "10" + ",000" * 13)
    assert format_number(1e300).replace(".", "").replace(",", "") == "1" + "0" * 300
    longest = "mehr als 10.000.000 d" if german else "more than 10,000,000 d"
    assert format_duration(1e305) == longest
    assert format_duration(10_000_001 * 86400) == longest
    assert format_duration(10_000_000 * 86400) == ("10.000.000 d" if german else "10,000,000 d")


def test_the_hour_a_clock_is_set_back_says_which_of_its_two_times(language: str) -> None:
    """Berlin sets its clock back at 01:00 UTC on 2026-10-25: 00:59:59 and 01:00:01 UTC are both
    "2:59:59"/"2:00:01" there, and without the zone the later instant reads as the earlier one."""
    from zoneinfo import ZoneInfo

    from inspector.i18n.formatting import format_column_datetime

    german = language == "de"
    berlin = ZoneInfo("Europe/Berlin")
    before, after = datetime(2026, 10, 25, 0, 59, 59, tzinfo=UTC), datetime(2026, 10, 25, 1, 0, 1, tzinfo=UTC)
    assert format_time(before, zone=berlin) == ("02:59:59 (UTC+2)" if german else "2:59:59\u202fAM (UTC+2)")
    assert format_time(after, zone=berlin) == ("02:00:01 (UTC+1)" if german else "2:00:01\u202fAM (UTC+1)")
    assert format_column_datetime(after, berlin) == ("25.10.2026, 02:00:01 (UTC+1)" if german
                                                     else "10/25/2026, 02:00:01 AM (UTC+1)")
    assert format_datetime(after, zone=berlin).endswith(" (UTC+1)")
    assert format_date(after, zone=berlin) == ("25.10.2026" if german else "Oct 25, 2026")  # a date is one date
    # An hour later the wall time is unique again, and so is the hour before the change.
    assert format_time(datetime(2026, 10, 25, 2, 0, 1, tzinfo=UTC), zone=berlin) == (
        "03:00:01" if german else "3:00:01\u202fAM")
    assert format_time(datetime(2026, 10, 24, 23, 59, 59, tzinfo=UTC), zone=berlin) == (
        "01:59:59" if german else "1:59:59\u202fAM")
    # St. John's sets back by an hour from UTC-2:30 to UTC-3:30 (2026-11-01 04:30 UTC).
    st_johns = ZoneInfo("America/St_Johns")
    assert format_time(datetime(2026, 11, 1, 4, 29, tzinfo=UTC), zone=st_johns).endswith(" (UTC-2:30)")
    assert format_time(datetime(2026, 11, 1, 4, 31, tzinfo=UTC), zone=st_johns).endswith(" (UTC-3:30)")


def test_the_computers_zone_marks_the_hour_set_back_too(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a zone given, the computer's (TZ) is used: the same marks."""
    import time

    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:
        assert format_time(datetime(2026, 10, 25, 0, 59, 59, tzinfo=UTC)).endswith(" (UTC+2)")
        german = language == "de"
        later = format_time(datetime(2026, 10, 25, 1, 0, 1, tzinfo=UTC), milliseconds=True)
        assert later == ("02:00:01,000 (UTC+1)" if german else "2:00:01.000\u202fAM (UTC+1)")
        assert format_time(datetime(2026, 7, 1, 12, tzinfo=UTC)) == ("14:00:00" if german else "2:00:00\u202fPM")
    finally:
        monkeypatch.undo()
        time.tzset()


def test_an_instant_the_zone_cannot_hold_is_said_in_utc_the_locales_way(language: str) -> None:
    """9999-12-31 23:59:58 UTC is in year 10000 in Berlin and 0001-01-01 00:00 UTC in year 0 in
    St. John's: said in UTC, marked so, in the locale's words (never Python's "9999-12-31 23:59:58+00:00")."""
    from zoneinfo import ZoneInfo

    from inspector.i18n.formatting import format_column_datetime

    german = language == "de"
    last = datetime(9999, 12, 31, 23, 59, 58, tzinfo=UTC)
    berlin = ZoneInfo("Europe/Berlin")
    assert format_datetime(last, zone=berlin) == ("31.12.9999, 23:59:58 (UTC)" if german
                                                  else "Dec 31, 9999, 11:59:58\u202fPM (UTC)")
    assert format_time(last, zone=berlin, milliseconds=True) == ("23:59:58,000 (UTC)" if german
                                                                 else "11:59:58.000\u202fPM (UTC)")
    assert format_date(last, zone=berlin) == ("31.12.9999 (UTC)" if german else "Dec 31, 9999 (UTC)")
    assert format_column_datetime(last, berlin) == ("31.12.9999, 23:59:58 (UTC)" if german
                                                    else "12/31/9999, 11:59:58 PM (UTC)")
    first = datetime(1, 1, 1, tzinfo=UTC)
    assert format_time(first, zone=ZoneInfo("America/St_Johns")) == ("00:00:00 (UTC)" if german
                                                                     else "12:00:00\u202fAM (UTC)")


def test_a_year_before_1000_is_written_with_four_digits_as_the_command_line_does(language: str) -> None:
    """CLDR's "y" writes year 1 as "1": the window said "01.01.1" / "Jan 1, 1", the command line
    "01.01.0001". Both say "0001" now; years from 1000 on read as before."""
    from inspector.i18n.formatting import format_column_datetime

    german = language == "de"
    first = datetime(1, 1, 1, 0, 0, 7, tzinfo=UTC)
    assert format_datetime(first, zone=UTC) == ("01.01.0001, 00:00:07" if german else "Jan 1, 0001, 12:00:07\u202fAM")
    assert format_date(first, zone=UTC) == ("01.01.0001" if german else "Jan 1, 0001")
    assert format_date(datetime(999, 12, 31, tzinfo=UTC), zone=UTC) == ("31.12.0999" if german else "Dec 31, 0999")
    assert format_column_datetime(first, UTC).startswith("01.01.0001" if german else "01/01/0001")
    assert format_datetime(datetime(2026, 5, 1, tzinfo=UTC), zone=UTC) == (
        "01.05.2026, 00:00:00" if german else "May 1, 2026, 12:00:00\u202fAM")


def test_an_offset_with_seconds_is_said_to_the_second() -> None:
    """Before 1893 Berlin kept its local mean time, UTC+0:53:28: said "UTC+0:53", the time beside it
    (00:53:28) was 28 seconds off the UTC time it was said with (00:00:00)."""
    from zoneinfo import ZoneInfo

    from inspector.i18n.formatting import offset_said

    first = datetime(1, 1, 1, tzinfo=UTC)
    assert offset_said(first, ZoneInfo("Europe/Berlin")) == "UTC+0:53:28"
    assert offset_said(first, ZoneInfo("America/New_York")) == "UTC"  # year 0 there: said in UTC
    assert offset_said(datetime(1800, 1, 1, tzinfo=UTC), ZoneInfo("America/New_York")) == "UTC-4:56:02"
    assert offset_said(datetime(2026, 7, 1, tzinfo=UTC), ZoneInfo("Asia/Kathmandu")) == "UTC+5:45"
    assert offset_said(datetime(2026, 1, 1, tzinfo=UTC), ZoneInfo("America/St_Johns")) == "UTC-3:30"
    assert offset_said(datetime(2026, 1, 1, tzinfo=UTC), ZoneInfo("Europe/Berlin")) == "UTC+1"
