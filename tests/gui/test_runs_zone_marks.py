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
    steps = [{"sequence": number, "started_at": started,
              "payload": {"kind": "llm", "round": 0, "durationMs": 999.6, "content": "step"}}
             for number, started in ((1, "2026-10-25T00:59:59Z"), (2, "2026-10-25T01:00:00.5Z"))]
    run = {"uid": "set-back", "title": "across the set-back", "source": "live", "server": None, "status": "ok",
           "started_at": "2026-10-25T00:59:59Z", "finished_at": "2026-10-25T01:00:01.5Z", "steps": steps}
    return imported_run(tmp_path / "set-back.json", run)


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
