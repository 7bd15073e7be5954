"""A trace file holding its spans twice (``cat a.jsonl a.jsonl > b.jsonl``), imported by the command line
as a user runs it (a real file, a real SQLite database): every span is one step, as the receiver keeps
it once, and the import says how many repeats it left out."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.support.cli_process import cli_here

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "otel" / "mcp_sdk.jsonl"


def _steps(db: Path) -> list[tuple[str, int, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT runs.uid, steps.sequence, steps.payload FROM steps JOIN runs ON runs.id = "
                            "steps.run_id ORDER BY runs.uid, steps.sequence").fetchall()


def _spans(path: Path) -> int:
    return sum(len(scope["spans"]) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
               for resource in json.loads(line)["resourceSpans"] for scope in resource["scopeSpans"])


def test_a_file_written_twice_into_one_imports_each_span_once_and_says_so(tmp_path: Path) -> None:
    doubled = tmp_path / "b.jsonl"
    doubled.write_bytes(FIXTURE.read_bytes() * 2)
    once = cli_here("import", str(FIXTURE), "--db", str(tmp_path / "once.db"), "--json")
    twice = cli_here("import", str(doubled), "--db", str(tmp_path / "twice.db"), "--json")
    assert once.returncode == twice.returncode == 0, twice.stderr
    said = json.loads(twice.stdout)
    assert said["spans_repeated"] == _spans(FIXTURE) and said["spans_clashing"] == 0
    assert json.loads(once.stdout)["spans_repeated"] == 0
    assert said["steps"] == json.loads(once.stdout)["steps"]
    assert _steps(tmp_path / "twice.db") == _steps(tmp_path / "once.db")
    text = cli_here("import", str(doubled), "--db", str(tmp_path / "text.db"), "--lang", "en")
    assert f"{_spans(FIXTURE)} spans came again in their traces (the file holds them more than once) and were " \
           "left out." in text.stdout
    german = cli_here("import", str(doubled), "--db", str(tmp_path / "german.db"), "--lang", "de")
    assert german.returncode == 0 and "ausgelassen" in german.stdout
