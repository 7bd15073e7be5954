"""Output on a terminal or pipe that cannot say every character (LANG=C without UTF-8, a Latin-1
locale): a tool's emoji or a German word never ends a command with a traceback, and --json stays
valid JSON holding the very text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore
from tests.support.sample_runs import T0

ROOT = Path(__file__).resolve().parents[2]
TEXT = "Grüße 🚀 aus der Straße"


def _runs_with_emoji(db: Path) -> tuple[str, str]:
    """Two stored runs of a tool whose name, arguments and result are not all Latin-1."""
    ids = []
    with RunStore.open(db) as store:
        for _ in range(2):
            step = RunTrace().record_tool_result(1, "rocket_🚀", {"text": TEXT}, ToolResult.text(TEXT), 12.5,
                                                 legs=(Leg("tools/call", 20, 12.5, 200, "ok"),))
            run_id = store.start_run(f"tools/call rocket_🚀 {TEXT}", "live", "http://127.0.0.1:9/mcp",
                                     started_at=T0)
            store.append_steps(run_id, [(step, T0)])
            store.finish_run(run_id, "ok", T0)
            ids.append(str(run_id))
    return ids[0], ids[1]


def _commands(first: str, second: str) -> tuple[tuple[str, ...], ...]:
    return ("runs", "show", first), ("runs", "list"), ("compare", first, second)


def _run(encoding: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    return subprocess.run([sys.executable, "-m", "inspector", "--lang", "de", *args], capture_output=True, env=env,
                          timeout=60, cwd=ROOT)


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_readable_output_says_what_it_cannot_encode_as_escapes(tmp_path: Path, encoding: str) -> None:
    db = tmp_path / "runs.db"
    first, second = _runs_with_emoji(db)
    for args in _commands(first, second):
        done = _run(encoding, *args, "--db", str(db))
        assert done.returncode == 0, done.stderr.decode(encoding, "replace")
        assert b"Traceback" not in done.stderr
        shown = done.stdout.decode(encoding)
        assert "\\U0001f680" in shown, shown
    if encoding == "latin-1":  # what the output can say is said as it is
        assert "Straße" in _run(encoding, "runs", "show", first, "--db", str(db)).stdout.decode(encoding)


@pytest.mark.parametrize("encoding", ["latin-1", "ascii"])
def test_json_output_stays_valid_and_whole_on_such_an_output(tmp_path: Path, encoding: str) -> None:
    db = tmp_path / "runs.db"
    first, second = _runs_with_emoji(db)
    for args in _commands(first, second):
        done = _run(encoding, *args, "--json", "--db", str(db))
        assert done.returncode == 0, done.stderr.decode(encoding, "replace")
        report = json.loads(done.stdout.decode(encoding))
        assert TEXT in json.dumps(report, ensure_ascii=False)
