"""Whose time is shown: a developer in Los Angeles records a run at 6:22 AM, the support engineer in
Berlin opens the export and reads 3:22 PM, and nothing said which zone either time was in. The Runs
list's start and the timeline's times now say in their tooltip that they are this computer's (and its
offset) and give the same instant in UTC, the time both can compare. A real file, a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from inspector.gui.runs import runs_model, timeline_model
from inspector.gui.widgets.plain_text import plain_tooltip
from tests.gui.test_runs_zone_marks import imported_run, in_berlin  # noqa: F401 - in_berlin: the fixture


def developers_run(tmp_path: Path) -> int:
    """A run the developer recorded at 6:22:27 AM in Los Angeles (14:22:27 UTC), as an export holds it."""
    steps = [{"sequence": 1, "started_at": "2026-12-05T14:22:27.643Z",
              "payload": {"kind": "tool", "round": 0, "durationMs": 94.0, "toolName": "fail",
                          "toolOutcome": "failed", "toolIsError": True}}]
    run = {"uid": "from-los-angeles", "title": "tools/call fail", "source": "live",
           "server": "http://127.0.0.1:8765/mcp", "status": "failed",
           "started_at": "2026-12-05T14:22:27.600Z", "finished_at": "2026-12-05T14:22:27.740Z", "steps": steps}
    return imported_run(tmp_path / "from-the-developer.json", run)


def said(tab, run_id: int, role: Qt.ItemDataRole) -> tuple[str, str]:
    """The run list's start of ``run_id`` and its timeline's first time, in ``role`` (the cell, its tooltip)."""
    row = tab.runs.row_of(run_id)
    return (tab.runs.data(tab.runs.index(row, runs_model.COLUMNS.index("started")), role),
            tab.timeline.data(tab.timeline.index(0, timeline_model.COLUMNS.index("time")), role))


@pytest.mark.parametrize(("language", "started", "step_time"), [
    ("en", "Dec 5, 2026, 3:22:27\u202fPM in this computer's time zone (UTC+1) · Dec 5, 2026, 2:22:27\u202fPM UTC",
     "Dec 5, 2026, 3:22:27.643\u202fPM in this computer's time zone (UTC+1) · Dec 5, 2026, 2:22:27.643\u202fPM UTC"),
    ("de", "05.12.2026, 15:22:27 in der Zeitzone dieses Computers (UTC+1) · 05.12.2026, 14:22:27 UTC",
     "05.12.2026, 15:22:27,643 in der Zeitzone dieses Computers (UTC+1) · 05.12.2026, 14:22:27,643 UTC"),
])
def test_a_time_says_whose_it_is_and_the_same_in_utc(qtbot, runs_tab_showing, tmp_path, in_berlin,  # noqa: F811
                                                     language, started, step_time) -> None:
    run_id = developers_run(tmp_path)
    tab = runs_tab_showing(run_id, language=language, steps=1).tab
    assert said(tab, run_id, Qt.ItemDataRole.ToolTipRole) == (plain_tooltip(started), plain_tooltip(step_time))
    # The tooltip is as precise as its cell: the list's start to the second, the timeline's time to the millisecond.
    start_cell, time_cell = said(tab, run_id, Qt.ItemDataRole.DisplayRole)
    assert f"{start_cell} in" in started and f"{time_cell} in" in step_time


@pytest.mark.parametrize(("language", "started", "step_time"), [
    ("en", "Dec 31, 9999, 11:59:58\u202fPM UTC: this computer's time zone cannot show it",
     "Dec 31, 9999, 11:59:58.500\u202fPM UTC: this computer's time zone cannot show it"),
    ("de", "31.12.9999, 23:59:58 UTC: die Zeitzone dieses Computers kann sie nicht zeigen",
     "31.12.9999, 23:59:58,500 UTC: die Zeitzone dieses Computers kann sie nicht zeigen"),
])
def test_a_time_past_the_zones_calendar_says_why_it_is_in_utc(qtbot, runs_tab_showing, tmp_path, in_berlin,  # noqa: F811
                                                             language, started, step_time) -> None:
    """9999-12-31 23:59 UTC is in the year 10000 in Berlin: shown in UTC, marked "(UTC)", and the tooltip
    said "… (UTC) in this computer's time zone (UTC) · … UTC", which Berlin's is not."""
    steps = [{"sequence": 1, "started_at": "9999-12-31T23:59:58.5Z",
              "payload": {"kind": "llm", "round": 0, "durationMs": 5.0, "content": "late"}}]
    run = {"uid": "at-the-edge", "title": "the last second", "source": "live", "server": None, "status": "ok",
           "started_at": "9999-12-31T23:59:58Z", "finished_at": None, "steps": steps}
    run_id = imported_run(tmp_path / "edge.json", run)
    tab = runs_tab_showing(run_id, language=language, steps=1).tab
    assert said(tab, run_id, Qt.ItemDataRole.ToolTipRole) == (plain_tooltip(started), plain_tooltip(step_time))
