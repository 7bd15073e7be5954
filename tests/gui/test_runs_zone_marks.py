"""A run across the hour a clock is set back, read in Berlin: its times say their zone in the Runs
list and the timeline, and the columns are wide enough to show it whole."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from inspector.gui.runs import runs_model, timeline_model
from inspector.store import RunStore, resolve_db_path
from inspector.transfer import import_trace


def in_zone(monkeypatch: pytest.MonkeyPatch, zone: str):
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def in_berlin(monkeypatch: pytest.MonkeyPatch):
    yield from in_zone(monkeypatch, "Europe/Berlin")


@pytest.fixture
def in_st_johns(monkeypatch: pytest.MonkeyPatch):
    yield from in_zone(monkeypatch, "America/St_Johns")


def set_back_run(tmp_path: Path) -> int:
    """Steps at 00:59:59 and 01:00:00.5 UTC on 2026-10-25: both "2:…" in Berlin, an hour apart on its walls."""
    return two_steps_run(tmp_path, "set-back", "across the set-back",
                         ("2026-10-25T00:59:59Z", "2026-10-25T01:00:00.5Z"), "2026-10-25T01:00:01.5Z")


def two_steps_run(tmp_path: Path, uid: str, title: str, starts: tuple[str, str], finished: str) -> int:
    """A run of two model steps starting at ``starts``, imported: its id."""
    steps = [{"sequence": number, "started_at": started,
              "payload": {"kind": "llm", "round": 0, "durationMs": 999.6, "content": "step"}}
             for number, started in enumerate(starts, 1)]
    run = {"uid": uid, "title": title, "source": "live", "server": None, "status": "ok",
           "started_at": starts[0], "finished_at": finished, "steps": steps}
    return imported_run(tmp_path / f"{uid}.json", run)


def imported_run(path: Path, run: dict) -> int:
    """``run`` written to ``path`` as our trace format holds it and imported into the test's database: its id."""
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [run]}))
    with RunStore.open(resolve_db_path()) as store:
        return import_trace(store, path).run_ids[0]


@pytest.mark.parametrize(("language", "started", "times"), [
    ("en", "Oct 25, 2026, 2:59:59\u202fAM (UTC+2)", ["2:59:59.000\u202fAM (UTC+2)", "2:00:00.500\u202fAM (UTC+1)"]),
    ("de", "25.10.2026, 02:59:59 (UTC+2)", ["02:59:59,000 (UTC+2)", "02:00:00,500 (UTC+1)"]),
])
def test_times_in_the_hour_set_back_say_their_zone_and_show_whole(qtbot, runs_tab_showing, tmp_path, in_berlin,
                                                                  language, started, times) -> None:
    shows_whole(qtbot, runs_tab_showing, set_back_run(tmp_path), language, started, times, f"runs-set-back-{language}")


def shows_whole(qtbot, runs_tab_showing, run_id: int, language: str, started: str, times: list[str], shot: str) -> None:
    """The run's start and its steps' times read as given, each in a column wide enough for it whole."""
    from inspector.gui.runs.columns import PADDING_PX

    tab = runs_tab_showing(run_id, language=language, steps=len(times)).tab
    started_column, time_column = runs_model.COLUMNS.index("started"), timeline_model.COLUMNS.index("time")
    row = tab.runs.row_of(run_id)
    assert tab.runs.data(tab.runs.index(row, started_column)) == started
    assert [tab.timeline.data(tab.timeline.index(r, time_column)) for r in range(len(times))] == times
    # Once painted, each column widens to what it shows: neither "PM" nor the zone is cut off by "…".
    run_view, steps_view = tab.run_view, tab.timeline_view
    qtbot.waitUntil(lambda: run_view.columnWidth(started_column)
                    >= run_view.fontMetrics().horizontalAdvance(started) + PADDING_PX)
    qtbot.waitUntil(lambda: steps_view.columnWidth(time_column)
                    >= max(steps_view.fontMetrics().horizontalAdvance(text) for text in times) + PADDING_PX)
    from tests.gui.test_screenshots import save

    assert save(tab, shot).exists()


def test_a_two_digit_hour_fits_where_the_computers_zone_put_the_sample_on_one(qtbot, runs_tab_showing, tmp_path,
                                                                             in_st_johns) -> None:
    """The columns were measured on a sample instant in the computer's zone: in St. John's it read
    "8:29:59.999 PM", so "10:29:59.000 PM" lost its "PM" to "…" (ten in the morning or at night?)."""
    steps = [{"sequence": 1, "started_at": "2026-10-25T01:59:59Z",
              "payload": {"kind": "llm", "round": 0, "durationMs": 999.6, "content": "step"}}]
    run = {"uid": "evening", "title": "an evening's run", "source": "live", "server": None, "status": "ok",
           "started_at": "2026-10-25T01:59:59Z", "finished_at": "2026-10-25T02:00:01Z", "steps": steps}
    path = tmp_path / "evening.json"
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [run]}))
    with RunStore.open(resolve_db_path()) as store:
        run_id = import_trace(store, path).run_ids[0]
    shows_whole(qtbot, runs_tab_showing, run_id, "en", "Oct 24, 2026, 11:29:59\u202fPM", ["11:29:59.000\u202fPM"],
                "runs-two-digit-hour-en")


def across_midnight_run(tmp_path: Path) -> int:
    """Steps at 22:59:50 and 23:00:10.5 UTC on 2026-12-04: 23:59:50 and 00:00:10.5 the next day in Berlin."""
    return two_steps_run(tmp_path, "midnight", "across midnight", ("2026-12-04T22:59:50Z", "2026-12-04T23:00:10.5Z"),
                         "2026-12-04T23:00:11.5Z")


@pytest.mark.parametrize(("language", "started", "times"), [
    ("en", "Dec 4, 2026, 11:59:50\u202fPM", ["Dec 4, 2026, 11:59:50.000\u202fPM", "Dec 5, 2026, 12:00:10.500\u202fAM"]),
    ("de", "04.12.2026, 23:59:50", ["04.12.2026, 23:59:50,000", "05.12.2026, 00:00:10,500"]),
])
def test_steps_of_a_run_across_midnight_say_their_date(qtbot, runs_tab_showing, tmp_path, in_berlin, language,
                                                       started, times) -> None:
    """A run over two days said its steps' times of day alone: a step of the next day read earlier than the
    one before it, and steps two days apart read the same time. Each says its date, in a column wide enough."""
    shows_whole(qtbot, runs_tab_showing, across_midnight_run(tmp_path), language, started, times,
                f"runs-across-midnight-{language}")


def test_a_run_of_one_day_after_one_over_two_says_times_alone_in_a_narrower_column(qtbot, runs_tab_showing, tmp_path,
                                                                                   in_berlin) -> None:
    across, one_day = across_midnight_run(tmp_path), set_back_run(tmp_path)
    shown = runs_tab_showing(across, steps=2)
    view, time_column = shown.tab.timeline_view, timeline_model.COLUMNS.index("time")
    dated_width = view.columnWidth(time_column)
    shown.select(one_day, steps=2)
    assert shown.tab.timeline.data(shown.tab.timeline.index(0, time_column)) == "2:59:59.000\u202fAM (UTC+2)"
    assert view.columnWidth(time_column) < dated_width
    shown.select(across, steps=2)  # wider still: the zones seen are kept (the set-back's "(UTC+2)")
    assert view.columnWidth(time_column) >= dated_width
