"""`runs show --json` and `compare --json` say why a run has its status as `runs list --json` does (its `reason`:
counts as numbers, words in English); they gave the status alone, so a script that showed or compared a run could
not tell a run whose every call failed from one with one failed call of nine without listing the runs too.

The keys there were stay as they were: `runs show --json` adds `reason` after its timeline (counting a long
run's calls would hold back the first step, which is written at once), `compare --json` adds it to each run."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli_process import cli_here

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def _json(*words: str) -> dict:
    done = cli_here(*words)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _database(tmp_path: Path) -> str:
    db = str(tmp_path / "runs.db")
    for fixture in ("mcp_sdk", "mcp_sdk_stateless", "google_adk"):
        assert cli_here("--db", db, "import", str(FIXTURES / f"{fixture}.jsonl")).returncode == 0
    return db


def test_runs_show_json_gives_the_reason_runs_list_json_gives(tmp_path: Path) -> None:
    db = _database(tmp_path)
    listed = {run["id"]: run for run in _json("--lang", "de", "--db", db, "runs", "list", "--json")["runs"]}
    assert sum(run["reason"] is not None for run in listed.values()) >= 3  # failed, timed out, not recorded
    for run_id, run in listed.items():
        shown = _json("--lang", "de", "--db", db, "runs", "show", str(run_id), "--json")
        assert shown["reason"] == run["reason"], run_id  # the same object, English under --lang de
        # The keys there were stay as they were (the run's own too), the reason after the timeline.
        assert list(shown) == ["run", "timeline", "reason"]
        assert list(shown["run"]) == ["id", "uid", "title", "source", "server", "status", "started_at",
                                      "finished_at", "note", "steps"]
    failed = next(run for run in listed.values() if run["reason"] and run["reason"]["unrecorded"] == 6)
    assert _json("--db", db, "runs", "show", str(failed["id"]), "--json")["reason"] == {
        "failed": 2, "calls": 9, "cancelled": 0, "unrecorded": 6, "failed_as": None, "model_answered": False,
        "text": "2 of 9 tool calls failed, 6 not recorded"}


def test_compare_json_gives_each_runs_reason(tmp_path: Path) -> None:
    db = _database(tmp_path)
    listed = {run["id"]: run for run in _json("--db", db, "runs", "list", "--json")["runs"]}
    with_reason = [run_id for run_id, run in listed.items() if run["reason"]]
    without = [run_id for run_id, run in listed.items() if not run["reason"]]
    for first, second in ((with_reason[0], with_reason[1]), (without[0], with_reason[-1])):
        compared = _json("--lang", "de", "--db", db, "compare", str(first), str(second), "--json")
        assert compared["first"]["reason"] == listed[first]["reason"]
        assert compared["second"]["reason"] == listed[second]["reason"]
        # Each run as `runs list --json` gives it, without `push`: its keys as they were, `reason` after them.
        assert list(compared["first"]) == ["id", "uid", "title", "source", "server", "status", "started_at",
                                           "finished_at", "note", "steps", "reason"]
        assert list(compared) == ["first", "second", "rule", "summary", "hidden_plumbing", "rows"]
