"""The window and the command line say a run the same way (issue 23): its start date, the heading of
the run's number, each step's time to the millisecond and the step's source, in English and German.
One imported run, read by the window's models and by `runs list` / `runs show` in a process of its own
(the same time zone)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS as RUN_COLUMNS
from inspector.gui.runs.timeline_model import COLUMNS as STEP_COLUMNS
from inspector.store import RunStore, resolve_db_path
from inspector.transfer.importing import import_trace
from tests.gui.test_screenshots import save

ROOT = Path(__file__).resolve().parents[2]


def _trace(path: Path) -> Path:
    steps = [{"sequence": 1, "started_at": "2026-12-05T00:31:45.123Z",
              "payload": {"kind": "tool", "round": 0, "durationMs": 12.5, "toolName": "echo",
                          "toolArguments": {"text": "hi"}, "toolResult": "hi", "toolIsError": False,
                          "toolOutcome": "ok"}}]
    run = {"uid": "same-words", "title": "tools/call echo", "source": "live", "server": None, "status": "ok",
           "started_at": "2026-12-05T00:31:45Z", "finished_at": "2026-12-05T00:31:46Z", "steps": steps}
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [run]}))
    return path


def cli(language: str, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "inspector", "--lang", language, *args, "--db",
                           str(resolve_db_path())], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def terminal(text: str) -> str:
    """The window's text as a terminal gets it: CLDR's narrow space before AM/PM is a space there."""
    return text.replace("\u202f", " ")


@pytest.mark.parametrize(("language", "number", "source"), [("en", "ID", "MCP client"), ("de", "ID", "MCP-Client")])
def test_a_run_reads_the_same_in_the_window_and_on_the_command_line(qtbot, make_window, tmp_path, language, number,
                                                                     source) -> None:
    with RunStore.open(resolve_db_path()) as store:
        (run_id,) = import_trace(store, _trace(tmp_path / "run.json")).run_ids
    window = make_window(wait_tools=False)
    window.resize(1280, 800)
    tab = window.runs_tab
    window.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.runs.row_of(run_id) is not None)
    assert tab.select_runs([run_id])
    qtbot.waitUntil(lambda: tab.timeline.rowCount() == 1)
    switch_language(language)
    try:
        row = tab.runs.row_of(run_id)
        started = terminal(tab.runs.index(row, RUN_COLUMNS.index("started")).data())
        heading = tab.runs.headerData(RUN_COLUMNS.index("id"), Qt.Orientation.Horizontal)
        time = terminal(tab.timeline.index(0, STEP_COLUMNS.index("time")).data())
        maker = tab.timeline.index(0, STEP_COLUMNS.index("source")).data()
        save(window, f"samewords-runs-{language}")
    finally:
        switch_language("en")
    # The window: the month by its name in English, to the millisecond in the timeline.
    assert started.startswith("Dec 5, 2026, " if language == "en" else "05.12.2026, "), started
    assert time.endswith(("45.123 AM", "45.123 PM") if language == "en" else ":45,123"), time
    assert (heading, maker) == (number, source)
    listed = cli(language, "runs", "list")
    assert listed[0].split()[0] == number
    assert started in listed[1], listed
    shown = cli(language, "runs", "show", str(run_id))
    (step,) = [line for line in shown if line.startswith("1  ")]
    assert step.split("  ")[1] == time and f"  {source}  " in step, step
