"""A call that timed out in an imported trace says "failed: timed out" in ``runs show``, as a time-out
of our own calls does (the importer keeps its finding as ``raw.otlp.timedOut``; a step imported before
it was kept reads "failed"). Real fixtures (tests/fixtures/otel/), a real SQLite file, English and German."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import cli_here

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "otel"
TIMED_OUT = {"en": " failed: timed out ", "de": " fehlgeschlagen: Zeitüberschreitung "}
FAILED = {"en": " failed ", "de": " fehlgeschlagen "}


def imported(tmp_path: Path, fixture: str) -> str:
    db = str(tmp_path / f"{fixture}.db")
    done = cli_here("--db", db, "import", str(FIXTURES / f"{fixture}.jsonl"))
    assert done.returncode == 0, done.stderr
    return db


def step_lines(db: str, language: str) -> dict[int, str]:
    done = cli_here("--lang", language, "--db", db, "runs", "show", "1", env={"COLUMNS": "250"})
    assert done.returncode == 0, done.stderr
    return {int(line.split()[0]): line for line in done.stdout.splitlines()
            if line[:3].strip().isdigit()}


@pytest.mark.parametrize(("fixture", "timed_out", "failed"), [("traceloop", 11, 9), ("mcp_sdk", 5, 4)])
@pytest.mark.parametrize("language", ["en", "de"])
def test_an_imported_time_out_says_so_in_runs_show(tmp_path: Path, fixture: str, timed_out: int, failed: int,
                                                   language: str) -> None:
    db = imported(tmp_path, fixture)
    lines = step_lines(db, language)
    assert TIMED_OUT[language] in lines[timed_out] and " slow: " in lines[timed_out]
    # A failure that was no time-out (the tool reported an error) says only "failed".
    assert FAILED[language] in lines[failed] and TIMED_OUT[language] not in lines[failed]
    assert sum(TIMED_OUT[language] in line for line in lines.values()) == 1
    # --json: the outcome stays "failed"; the finding is the payload's raw.otlp.timedOut, on that step only.
    timeline = json.loads(cli_here("--db", db, "runs", "show", "1", "--json").stdout)["timeline"]
    by_number = {entry["sequence"]: entry for entry in timeline}
    assert by_number[timed_out]["outcome"] == "failed"
    assert [entry["sequence"] for entry in timeline if entry["payload"]["raw"]["otlp"].get("timedOut")] == [timed_out]


def test_a_time_out_imported_before_the_mark_was_kept_reads_failed(tmp_path: Path) -> None:
    """An older database: the step has its note as it was then ("timed out: …") but no mark; it reads as before."""
    db = imported(tmp_path, "traceloop")
    with RunStore.open(Path(db)) as store, store.transaction():
        store.db.conn.execute(
            "UPDATE steps SET payload = json_set(json_remove(payload, '$.raw.otlp.timedOut'),"
            " '$.toolResult', 'timed out: ' || json_extract(payload, '$.toolResult'),"
            " '$.raw.otlp.notes[0].template', 'timed out: {error}',"
            " '$.raw.otlp.notes[0].text', 'timed out: ' || json_extract(payload, '$.raw.otlp.notes[0].text'))"
            " WHERE json_extract(payload, '$.raw.otlp.timedOut') = 1")
    for language in ("en", "de"):
        line = step_lines(db, language)[11]
        assert FAILED[language] in line and TIMED_OUT[language] not in line
        assert ("slow: timed out: " if language == "en" else "slow: Zeitüberschreitung: ") in line  # its note
