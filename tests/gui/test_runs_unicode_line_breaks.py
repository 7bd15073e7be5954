"""A stranger's trace whose run title, service (the run's server) and tool name hold Unicode's own line breaks
(U+2028 LINE SEPARATOR, U+2029 PARAGRAPH SEPARATOR, U+0085 NEXT LINE), which Qt breaks a line at: each stays one
line, the break a space. The title "title\\u2028FAKE LINE TWO" showed as "title…" in the Runs list, and the run's
heading read "FAKE LINE TWO — ok, 1 step" as a line of its own. A real window on a real database."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.gui.runs.runs_model import COLUMNS
from inspector.gui.runs.timeline_model import COLUMNS as TIMELINE_COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_runs_screenshots import runs_window
from tests.support.runs_tab import RunsShown

BREAKS = ("\u2028", "\u2029", "\x85", "\n")


def _trace(path: Path) -> None:
    attributes = [{"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
                  {"key": "gen_ai.tool.name", "value": {"stringValue": "tool\u2029NEXT"}}]
    root = {"traceId": "ab" * 16, "spanId": "01" * 8, "name": "title\u2028FAKE LINE TWO", "kind": 1,
            "startTimeUnixNano": "1700000000000000000", "endTimeUnixNano": "1700000000123456789",
            "status": {"code": 0}, "attributes": attributes}
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": "srv\x85FAKE-SERVER"}}]}
    path.write_text(json.dumps({"resourceSpans": [{"resource": resource, "scopeSpans": [{"spans": [root]}]}]}) + "\n",
                    encoding="utf-8")


def test_unicode_line_breaks_in_a_strangers_names_show_as_spaces_on_one_line(qtbot, make_window, tmp_path) -> None:
    _trace(tmp_path / "breaks.jsonl")
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, tmp_path / "breaks.jsonl").run_ids
    window = runs_window(make_window)
    shown = RunsShown(qtbot, window)
    shown.select(run_id, steps=1)
    runs, row = shown.tab.runs, shown.tab.runs.row_of(run_id)
    cells = [runs.index(row, COLUMNS.index(column)).data() for column in ("title", "server")]
    assert cells == ["title FAKE LINE TWO", "srv FAKE-SERVER"]
    details = shown.tab.timeline.index(0, TIMELINE_COLUMNS.index("details")).data()
    heading = shown.tab.timeline_pane.heading.text()
    assert "tool NEXT" in details and heading.startswith("Run 1: title FAKE LINE TWO — ok"), (details, heading)
    assert not [text for text in (*cells, details, heading) if any(mark in text for mark in BREAKS)]
