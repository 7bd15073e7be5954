"""A trace file's steps at the calendar's edges (year 1, a step ending past 9999-12-31) and a duration
of 1e308 ms: imported into a real SQLite file, `runs show` and the run's time axis say them, never a
traceback."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.store.browse import run_span
from inspector.transfer.importing import import_trace
from tests.support.cli_process import cli_here

LAST = "9999-12-31T23:59:59.999999Z"


def edge_trace(path: Path) -> Path:
    """Two runs: one from year 1 to a step at the calendar's last microsecond lasting 1 ms, one
    whose step lasts 1e308 ms."""
    def run(uid: str, duration_ms: float, started_at: str) -> dict:
        return {"uid": uid, "title": uid, "source": "live", "server": None, "status": "ok",
                "started_at": "0001-01-01T00:00:00.000000Z", "finished_at": LAST,
                "steps": [{"sequence": 1, "started_at": started_at,
                           "payload": {"kind": "tool", "round": 0, "durationMs": duration_ms, "toolName": "x",
                                       "toolIsError": False, "toolOutcome": "ok"}}]}
    path.write_text(json.dumps({"format": "run-inspector-trace", "version": 1, "runs": [
        run("calendar-end", 1, LAST), run("endless", 1e308, "2026-12-02T13:34:54.000000Z")]}))
    return path


def test_the_time_axis_of_a_step_ending_past_the_calendar_ends_with_it(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.db") as store:
        report = import_trace(store, edge_trace(tmp_path / "edges.json"))
        assert report.runs_imported == 2
        for run_id in report.run_ids:
            start, end = run_span(store, store.get_run(run_id))
            assert start == datetime(1, 1, 1, tzinfo=UTC)
            assert end == datetime.max.replace(tzinfo=UTC)


@pytest.mark.parametrize(("language", "endless"), [("en", "more than 10,000,000 d"),
                                                     ("de", "mehr als 10.000.000 d")])
def test_runs_show_says_steps_at_the_calendar_edges(tmp_path: Path, language: str, endless: str) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("import", str(edge_trace(tmp_path / "edges.json")), "--db", db).returncode == 0
    at_the_end = cli_here("runs", "show", "calendar-end", "--lang", language, "--db", db)
    assert at_the_end.returncode == 0, at_the_end.stderr
    assert ("Dec 31, 9999" if language == "en" else "31.12.9999") in at_the_end.stdout
    long = cli_here("runs", "show", "endless", "--lang", language, "--db", db)
    assert long.returncode == 0 and "Traceback" not in long.stderr, long.stderr
    (row,) = [line for line in long.stdout.splitlines() if line.startswith("1 ")]
    assert endless in row and len(row) < 200


def test_both_formats_export_them_and_import_them_again(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("import", str(edge_trace(tmp_path / "edges.json")), "--db", db).returncode == 0
    for file_format in ("trace", "otlp"):
        out = tmp_path / f"again-{file_format}.json"
        written = cli_here("export", "--all", "--format", file_format, "-o", str(out), "--db", db)
        assert written.returncode == 0, written.stderr
        if file_format == "otlp":  # OTLP's times are unsigned 64-bit nanoseconds: clamped, never past them
            ends = [int(span["endTimeUnixNano"]) for resource in json.loads(out.read_text())["resourceSpans"]
                    for scope in resource["scopeSpans"] for span in scope["spans"]]
            assert max(ends) == 2**64 - 1
        fresh = str(tmp_path / f"fresh-{file_format}.db")
        read = cli_here("import", str(out), "--db", fresh)
        assert read.returncode == 0, read.stderr
        shown = json.loads(cli_here("runs", "show", "endless", "--json", "--db", fresh).stdout)
        (step,) = shown["timeline"]
        assert step["duration_ms"] == 1e308 and step["time"] == "2026-12-02T13:34:54.000000Z"
