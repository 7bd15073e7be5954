"""`runs list --json` says why a run has its status, as the window's Status column and the plain `runs list` say it
("failed (2 of 4 tool calls failed, 1 not recorded)"): each run's `reason`, its counts as numbers (the same in every
language) and its words in English. The objects gave the status alone: a script could not tell a run whose every
call failed from one with one failed call of nine."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.cli_process import cli

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"


def _listed(db: Path, *more: str) -> list[dict]:
    done = cli("--lang", "de", "--db", str(db), "runs", "list", "--json", *more)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["runs"]


def _status_cells(db: Path) -> dict[int, str]:
    """Each run's Status cell as the plain `runs list` says it in English (wide enough for the whole reason)."""
    done = cli("--lang", "en", "--db", str(db), "runs", "list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    begin, end = lines[0].index(" Status ") + 1, lines[0].index(" Source ") + 1
    return {int(line.split()[0]): line[begin:end].strip() for line in lines[1:] if line.split()[:1][0].isdigit()}


def test_each_run_says_its_reason_in_numbers_and_english_words(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    for fixture in ("mcp_sdk", "mcp_sdk_stateless", "google_adk"):
        assert cli("--db", str(db), "import", str(FIXTURES / f"{fixture}.jsonl")).returncode == 0
    runs = _listed(db)
    reasons = [run["reason"] for run in runs if run["reason"]]
    assert {"failed": 2, "calls": 4, "cancelled": 0, "unrecorded": 1, "failed_as": None, "model_answered": False,
            "text": "2 of 4 tool calls failed, 1 not recorded"} in reasons  # English under --lang de
    assert {"failed": 2, "calls": 9, "cancelled": 0, "unrecorded": 6, "failed_as": None, "model_answered": False,
            "text": "2 of 9 tool calls failed, 6 not recorded"} in reasons
    # An ok run whose call has no outcome recorded: counted as not recorded, not as failed.
    assert {"failed": 0, "calls": 1, "cancelled": 0, "unrecorded": 1, "failed_as": None, "model_answered": False,
            "text": "the tool call has no outcome recorded"} in reasons
    # Every run's reason is the one its Status cell says; a run whose cell says none has `null`.
    cells = _status_cells(db)
    assert len(cells) == len(runs) > len(reasons) > 0
    for run in runs:
        said = f"{run['status']} ({run['reason']['text']})" if run["reason"] else run["status"]
        assert cells[run["id"]] == said, (run, cells[run["id"]])
    # The keys there were stay as they were, `reason` after them.
    assert list(runs[0]) == ["id", "uid", "title", "source", "server", "status", "started_at", "finished_at", "note",
                             "push", "reason"]


def test_a_failed_run_that_timed_out_says_how_its_calls_failed(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    assert cli("--db", str(db), "import", str(FIXTURES / "google_adk.jsonl")).returncode == 0
    timed_out = [run["reason"] for run in _listed(db, "--outcome", "failed") if run["reason"]["failed_as"]]
    assert {"failed": 1, "calls": 1, "cancelled": 0, "unrecorded": 0, "failed_as": "timed_out",
            "model_answered": False, "text": "the tool call timed out"} in timed_out
