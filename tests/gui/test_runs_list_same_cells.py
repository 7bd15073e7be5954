"""`runs list` says a run's Server, Steps and Duration as the window's Runs list does (issue 23): the same
words and rounding, in English and German. Real runs: an imported trace (a server by its address, a
failed agent run of seven steps) and a call to the demo server, named in the registry (by that name)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inspector.gui.language import switch_language
from inspector.gui.runs.runs_model import COLUMNS, RunListModel
from inspector.store import RunStore
from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]
CELLS = ("server", "steps", "duration")


@pytest.fixture
def db(tmp_path: Path, demo_server) -> Path:
    path = tmp_path / "runs.db"
    for args in (("import", str(ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl")),
                 ("servers", "set", demo_server.url, "--name", "Echo box"),
                 ("call", demo_server.url, "echo", "--args", json.dumps({"text": "hi"}))):
        done = cli_here("--db", str(path), *args)
        assert done.returncode == 0, done.stderr
    return path


def window_cells(qtbot, path: Path) -> dict[str, tuple[str, ...]]:
    """The Server, Steps and Duration cells of the window's Runs list, by run id."""
    with RunStore.open(path) as store:
        model = RunListModel(store)
        model.refresh(reset=True)
        column = {name: COLUMNS.index(name) for name in ("id", *CELLS)}
        return {model.index(row, column["id"]).data(): tuple(model.index(row, column[name]).data() for name in CELLS)
                for row in range(model.rowCount())}


def listed_cells(language: str, path: Path) -> dict[str, tuple[str, ...]]:
    """The same cells as `runs list` prints them (piped: whole values), by run id."""
    done = cli_here("--lang", language, "--db", str(path), "runs", "list")
    assert done.returncode == 0, done.stderr
    heading, *rows = done.stdout.splitlines()
    assert len(re.split(r" {2,}", heading.strip())) == 8, heading
    cells = [re.split(r" {2,}", row.strip()) for row in rows if row.split()[0].isdigit()]  # not "Not listed: …"
    return {cell[0]: (cell[4], cell[5], cell[6]) for cell in cells}


@pytest.mark.parametrize(("language", "headings"), [("en", ("Server", "Steps", "Duration", "Title")),
                                                   ("de", ("Server", "Schritte", "Dauer", "Titel"))])
def test_runs_list_says_server_steps_and_duration_as_the_window_does(qtbot, db: Path, language: str,
                                                                     headings: tuple[str, ...]) -> None:
    switch_language(language)
    try:
        shown = window_cells(qtbot, db)
    finally:
        switch_language("en")
    listed = listed_cells(language, db)
    assert listed == shown  # the plumbing traces (the SDK's notifications' traces) left out of both
    assert len(shown) == 2
    said = set(shown.values())
    assert ("weather-mcp-server", "7", "2,7 s" if language == "de" else "2.7 s") in said  # the failed agent run
    assert any(server == "Echo box" for server, _steps, _duration in said)  # the registry's name, not the address
    heading = cli_here("--lang", language, "--db", str(db), "runs", "list").stdout.splitlines()[0]
    assert re.split(r" {2,}", heading.strip())[4:] == list(headings)  # the title last
