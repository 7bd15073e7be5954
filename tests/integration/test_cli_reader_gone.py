"""A reader that goes away (``run-inspector call … | head -c 10``), through a real pipe of a process of
its own: nothing is said about it on stderr, and the status stays honest for ``set -o pipefail``: a
command whose outcome was decided ends with that outcome's (a failed call 1, never 0; an import whose runs
are stored, an export whose file is written, a note saved 0; a push that left runs queued 1), one whose
output was its work ends as cat does, 141."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.demo import DemoOptions, DemoServer
from tests.support.cli_process import ROOT, cli_here
from tests.support.otlp_collector import Answer, running_collector
from tests.support.trace_backends import fixture_trace, fixture_trace_ids, trace_backend

OPENLIT = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "openlit_mcp2.jsonl"


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    server = DemoServer(DemoOptions())
    try:
        yield server.start()
    finally:
        server.stop()


def without_reader(*args: str) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` writing into a pipe whose reader has gone before anything is written."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "inspector", *args], stdout=write_end, stderr=subprocess.PIPE,
                              text=True, timeout=60, cwd=ROOT)
    finally:
        os.close(write_end)


def test_a_failed_call_whose_reader_went_away_ends_failed_and_says_nothing_of_the_pipe(demo_url: str) -> None:
    done = without_reader("call", demo_url, "fail", "--args", "{}")
    assert (done.returncode, done.stderr) == (1, "")


def test_a_call_that_worked_ends_ok_though_its_reader_went_away(demo_url: str) -> None:
    done = without_reader("call", demo_url, "echo", "--args", '{"text": "hi"}')
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.parametrize("words", [("runs", "list"), ("runs", "show", "1"), ("runs", "show", "1", "--json")])
def test_a_listing_cut_short_by_its_reader_ends_as_cat_does(demo_url: str, words: tuple[str, ...]) -> None:
    assert subprocess.run([sys.executable, "-m", "inspector", "call", demo_url, "echo", "--args", '{"text": "x"}'],
                          capture_output=True, timeout=60, cwd=ROOT).returncode == 0
    done = without_reader(*words)
    assert (done.returncode, done.stderr) == (141, "")


def test_a_pipefail_script_sees_the_failed_call_through_head(demo_url: str) -> None:
    script = f'set -o pipefail; "{sys.executable}" -m inspector call {demo_url} fail --args "{{}}" | head -c 10'
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1, done
    assert len(done.stdout) == 10 and done.stderr == ""


def test_a_failed_scenario_whose_reader_went_away_ends_failed() -> None:
    done = without_reader("scenario", "flaky-server")
    assert (done.returncode, done.stderr) == (1, "")


def test_an_import_whose_reader_went_away_ends_ok_its_runs_stored(tmp_path: Path) -> None:
    """The import is committed before its report is printed: it ended 141, and a script took the import for failed
    (and would import the file again) while its thirteen runs were stored."""
    db = str(tmp_path / "runs.db")
    done = without_reader("--db", db, "import", str(OPENLIT))
    assert (done.returncode, done.stderr) == (0, "")
    listed = json.loads(cli_here("--db", db, "runs", "list", "--all", "--json").stdout)
    assert len(listed["runs"]) == 13
    again = without_reader("--db", db, "import", str(OPENLIT), "--json")  # here already: still done, 0
    assert (again.returncode, again.stderr) == (0, "")


def test_a_note_whose_reader_went_away_ends_ok_the_note_saved(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "import", str(OPENLIT)).returncode == 0
    done = without_reader("--db", db, "runs", "note", "1", "seen: the timeout is the server's")
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(cli_here("--db", db, "runs", "show", "1", "--json").stdout)["run"]["note"] == (
        "seen: the timeout is the server's")


def test_an_export_whose_reader_went_away_ends_ok_its_file_written(tmp_path: Path) -> None:
    db, written = str(tmp_path / "runs.db"), tmp_path / "runs.json"
    assert cli_here("--db", db, "import", str(OPENLIT)).returncode == 0
    done = without_reader("--db", db, "export", "--all", "-o", str(written))
    assert (done.returncode, done.stderr) == (0, "")
    assert len(json.loads(written.read_text(encoding="utf-8"))["runs"]) == 13


def test_a_trace_opened_by_id_whose_reader_went_away_ends_ok(tmp_path: Path) -> None:
    db, trace_id = str(tmp_path / "runs.db"), fixture_trace_ids()[0]
    with trace_backend() as jaeger:
        jaeger.serve_json(f"/api/v3/traces/{trace_id}", {"result": fixture_trace(trace_id)})
        done = without_reader("--db", db, "import", "--from-jaeger", jaeger.base, "--trace", trace_id)
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(cli_here("--db", db, "runs", "list", "--all", "--json").stdout)["runs"]


def test_a_push_whose_reader_went_away_ends_with_the_pushs_status(tmp_path: Path) -> None:
    """Sent: 0; refused by the collector: 1, as with a reader (neither ended 141)."""
    db = str(tmp_path / "runs.db")
    assert cli_here("--db", db, "import", str(OPENLIT)).returncode == 0
    with running_collector() as collector:
        sent = without_reader("--db", db, "export", "1", "--otlp-endpoint", collector.endpoint)
        collector.answers = [Answer(400, body=b'{"message": "bad span"}')]
        refused = without_reader("--db", db, "export", "2", "--otlp-endpoint", collector.endpoint)
    assert (sent.returncode, sent.stderr) == (0, "")
    assert (refused.returncode, refused.stderr) == (1, "")
