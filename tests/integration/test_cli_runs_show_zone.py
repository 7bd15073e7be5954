"""Whose time `runs show` says: a customer in Los Angeles sends a trace, support reads it in Berlin or
Kolkata. Each prints the times in its own zone, so the same output read by the other names other hours;
the heading says the zone they are in and the start in UTC, the one time both can compare (the window
says it in a time's tooltip). Real trace files, real SQLite, the command line as a user runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_process import cli_here

STEP = {"sequence": 1, "started_at": "", "payload": {"kind": "tool", "round": 0, "durationMs": 2000.0,
                                                      "toolName": "hang", "toolIsError": True,
                                                      "toolOutcome": "cancelled"}}


def _shown(tmp_path: Path, started_at: str, finished_at: str, tz: str, *options: str,
           starts: tuple[str, ...] = ()) -> list[str]:
    """``runs show``'s lines of a run from ``started_at`` to ``finished_at`` read in ``tz``: one step at its
    start, or one at each of ``starts``."""
    steps = [{**STEP, "sequence": number, "started_at": started} for number, started in enumerate(starts or
                                                                                             (started_at,), 1)]
    run = {"uid": "a0" * 16, "title": "tools/call hang", "source": "live", "server": None, "status": "cancelled",
           "started_at": started_at, "finished_at": finished_at, "steps": steps}
    trace = tmp_path / "customer.json"
    trace.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [run]}), encoding="utf-8")
    db = str(tmp_path / "support.db")
    assert cli_here("import", str(trace), "--db", db, env={"TZ": tz}).returncode == 0
    shown = cli_here("runs", "show", "1", "--db", db, *options, env={"TZ": tz})
    assert shown.returncode == 0, shown.stderr
    return shown.stdout.splitlines()


@pytest.mark.parametrize(("tz", "started", "zone", "utc"), [
    ("Europe/Berlin", "started Dec 5, 2026, 7:51:46 PM, finished Dec 5, 2026, 7:51:48 PM", "UTC+1",
     "Dec 5, 2026, 6:51:46 PM"),
    ("Asia/Kolkata", "started Dec 6, 2026, 12:21:46 AM, finished Dec 6, 2026, 12:21:48 AM", "UTC+5:30",
     "Dec 5, 2026, 6:51:46 PM"),
    ("America/Los_Angeles", "started Dec 5, 2026, 10:51:46 AM, finished Dec 5, 2026, 10:51:48 AM", "UTC-8",
     "Dec 5, 2026, 6:51:46 PM"),
])
def test_the_heading_says_the_zone_of_its_times_and_the_start_in_utc(tmp_path: Path, tz: str, started: str,
                                                                      zone: str, utc: str) -> None:
    lines = _shown(tmp_path, "2026-12-05T18:51:46.412Z", "2026-12-05T18:51:48.117Z", tz)

    at = lines.index(f"  {started}, 1 step")
    assert lines[at + 1] == f"  times in this computer's time zone ({zone}); the run started {utc} UTC"


def test_a_run_across_a_clock_set_back_says_both_offsets_in_german(tmp_path: Path) -> None:
    # Berlin sets its clocks back at 01:00 UTC on 25 October 2026: the run starts in summer time and ends in
    # winter time, an hour earlier on the clock, two seconds later.
    lines = _shown(tmp_path, "2026-10-25T00:59:58.500Z", "2026-10-25T01:00:00.504Z", "Europe/Berlin", "--lang", "de")

    at = lines.index("  gestartet 25.10.2026, 02:59:58 (UTC+2), beendet 25.10.2026, 02:00:00 (UTC+1), 1 Schritt")
    assert lines[at + 1] == ("  Zeiten in der Zeitzone dieses Computers (UTC+2, dann UTC+1); "
                             "der Lauf begann 25.10.2026, 00:59:58 UTC")


@pytest.mark.parametrize(("language", "said"), [
    ("en", "  times in UTC: this computer's time zone cannot show them"),
    ("de", "  Zeiten in UTC: die Zeitzone dieses Computers kann sie nicht zeigen")])
def test_a_run_past_the_zones_calendar_says_its_times_are_in_utc(tmp_path: Path, language: str, said: str) -> None:
    """9999-12-31 23:59 UTC is in the year 10000 in Berlin: the times are said in UTC, and the line under
    them said "times in this computer's time zone (UTC)", which Berlin's is not."""
    lines = _shown(tmp_path, "9999-12-31T23:59:58Z", "9999-12-31T23:59:59Z", "Europe/Berlin", "--lang", language)

    at = next(index for index, line in enumerate(lines) if "9999" in line and "(UTC)" in line)
    assert lines[at + 1] == said


def _steps_shown(tmp_path: Path, starts: list[str], tz: str, *options: str) -> list[str]:
    """``runs show``'s rows of a run whose steps start at ``starts``: its heading row and the lines under it."""
    lines = _shown(tmp_path, starts[0], starts[-1], tz, *options, starts=tuple(starts))
    heading = next(index for index, line in enumerate(lines) if line.startswith("#  "))
    return lines[heading:]


@pytest.mark.parametrize(("language", "times"), [
    ("en", ["Time", "Dec 1, 2026, 11:00:00.000 AM", "Dec 3, 2026, 11:00:00.000 AM", "Dec 4, 2026, 12:30:00.250 AM"]),
    ("de", ["Zeit", "01.12.2026, 11:00:00,000", "03.12.2026, 11:00:00,000", "04.12.2026, 00:30:00,250"]),
])
def test_the_steps_of_a_run_over_days_say_their_date(tmp_path: Path, language: str, times: list[str]) -> None:
    """Steps two days apart read "11:00:00.000 AM" both, and one after midnight earlier than the ones before it."""
    rows = _steps_shown(tmp_path, ["2026-12-01T10:00:00Z", "2026-12-03T10:00:00Z", "2026-12-03T23:30:00.25Z"],
                        "Europe/Berlin", "--lang", language)
    at = len("#  ")
    assert [row[at:at + len(text)] for row, text in zip(rows, times, strict=False)] == times
    # The next column begins at one place on every row and the heading, past the widest date and time.
    assert len({len(row) - len(row[at:].split("  ", 1)[1].lstrip()) for row in rows[:4]}) == 1


def test_the_steps_of_a_run_within_one_day_say_the_time_alone(tmp_path: Path) -> None:
    """In UTC the same run's last steps are 13.5 hours apart on one day: their times of day tell them apart."""
    rows = _steps_shown(tmp_path, ["2026-12-03T10:00:00Z", "2026-12-03T23:30:00.25Z"], "UTC")
    assert [row[3:20] for row in rows[1:3]] == ["10:00:00.000 AM  ", "11:30:00.250 PM  "]
