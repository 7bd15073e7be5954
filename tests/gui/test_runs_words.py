"""The window and the command line say a step's source, kind and round with the same words, in
English and in German; a run of one operation has no rounds in either."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.timeline_model import COLUMNS
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore, resolve_db_path
from tests.gui.test_runs_screenshots import runs_window
from tests.support.sample_runs import T0, mixed_run

ROOT = Path(__file__).resolve().parents[2]


def _one_call(store: RunStore) -> int:
    run_id = store.start_run("tools/call echo", "live", "http://127.0.0.1:8765/mcp", started_at=T0)
    step = RunTrace().record_tool_result(0, "echo", {"text": "x"}, ToolResult.text("x"), 5.0,
                                         legs=(Leg("tools/call", 20, 5.0, 200, "ok"),))
    store.append_step(run_id, step, T0)
    store.finish_run(run_id, "ok")
    return run_id


def _cli_rows(run_id: int, language: str) -> list[list[str]]:
    done = subprocess.run([sys.executable, "-m", "inspector", "runs", "show", str(run_id), "--lang", language],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "RUN_INSPECTOR_DB": str(resolve_db_path())})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    start = next(index for index, line in enumerate(lines) if re.match(r"\s*#\s+(Time|Zeit) ", line))
    # The columns are two spaces apart or more: the step's number, time, source, kind, round, ...
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[start + 1:] if line and not line.startswith("    ")]
    # Each step's own number (a trace's steps are listed in time order, numbered as stored).
    assert sorted(int(row[0]) for row in rows) == list(range(1, len(rows) + 1))
    return [row[2:5] for row in rows]


def _cli_details(run_id: int, language: str) -> str:
    done = subprocess.run([sys.executable, "-m", "inspector", "runs", "show", str(run_id), "--lang", language],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "RUN_INSPECTOR_DB": str(resolve_db_path())})
    return done.stdout


@pytest.mark.parametrize("language", ["en", "de"])
def test_source_kind_and_round_read_the_same_in_the_window_and_on_the_command_line(qtbot, make_window,
                                                                                   language) -> None:
    with RunStore.open(resolve_db_path()) as store:
        rounds, single = mixed_run(store), _one_call(store)
    window = runs_window(make_window)
    tab = window.runs_tab
    switch_language(language)
    try:
        for run_id, has_rounds in ((rounds, True), (single, False)):
            qtbot.waitUntil(lambda run_id=run_id: tab.runs.row_of(run_id) is not None)
            tab.select_runs([run_id])
            model = tab.timeline
            shown = [[model.index(row, COLUMNS.index(column)).data() for column in ("source", "kind", "round")]
                     for row in range(model.rowCount())]
            said = _cli_rows(run_id, language)
            assert [row[:2] for row in shown] == [row[:2] for row in said]
            if has_rounds:
                assert [row[2] for row in shown] == [row[2] for row in said] == ["1", "1", "1", "2", "2", "3"]
            else:
                assert [row[2] for row in shown] == ["–"] and [row[2] for row in said] == ["-"]
            if language == "de":
                assert {row[1] for row in shown} >= {"Tool"} and "mcp" not in {row[0] for row in shown}
    finally:
        switch_language("en")


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_step_from_a_trace_names_its_service_in_the_window_and_on_the_command_line(qtbot, make_window,
                                                                                     language) -> None:
    from inspector.transfer.importing import import_trace

    with RunStore.open(resolve_db_path()) as store:
        report = import_trace(store, ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl")
        (run_id,) = [run_id for run_id in report.run_ids
                     if store.get_run(run_id).title == "invoke_agent support-agent"]
    window = runs_window(make_window)
    tab = window.runs_tab
    switch_language(language)
    try:
        qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
        tab.select_runs([run_id])
        model = tab.timeline
        shown = [[model.index(row, COLUMNS.index(column)).data() for column in ("source", "kind")]
                 for row in range(model.rowCount())]
        assert shown == [row[:2] for row in _cli_rows(run_id, language)]
        assert {row[0] for row in shown} == {"support-agent"}
        # The Source column hides in a narrow pane: the kind's tooltip names the service too.
        assert "support-agent" in model.index(0, COLUMNS.index("kind")).data(Qt.ItemDataRole.ToolTipRole)
        # The importer's sentences are said in the reader's language, in the window as on the command line.
        details = [model.index(row, COLUMNS.index("details")).data() for row in range(model.rowCount())]
        timed_out = "slow: Zeitüberschreitung: TimeoutError" if language == "de" else "slow: timed out: TimeoutError"
        assert timed_out in details
        assert timed_out in _cli_details(run_id, language)
    finally:
        switch_language("en")
