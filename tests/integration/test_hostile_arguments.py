"""Hostile command lines: deep --args, credentials in bad options, huge URLs and numbers.
Each is one sentence and exit 2, nothing is sent, and no run is left `interrupted`."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.fault_server import Exchange, FaultServer

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT, env=os.environ.copy())


def one_sentence_exit_2(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr[-2000:])
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("run-inspector: "), done.stderr[-2000:]
    return done.stderr


def runs(db: str) -> list[tuple[str, str]]:
    if not Path(db).exists():
        return []
    return list(sqlite3.connect(db).execute("SELECT title, status FROM runs ORDER BY id"))


def echo(exchange: Exchange) -> None:
    exchange.send_result({"content": [{"type": "text", "text": "done"}]})


@pytest.mark.parametrize("depth", [101, 900, 60_000])
def test_deep_arguments_are_refused_before_anything_is_sent(tmp_path: Path, depth: int) -> None:
    db = str(tmp_path / "runs.db")
    args = '{"a": ' + "[" * depth + "]" * depth + "}"
    with FaultServer("session", work=echo) as server:
        done = cli("call", server.url, "echo", "--args", args, "--db", db)
        message = one_sentence_exit_2(done)
        assert server.received == []
    assert "nested deeper than 100 levels" in message and "nothing was sent" in message
    assert runs(db) == []


def test_arguments_at_the_limit_are_sent_and_stored(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    args = '{"a": ' + "[" * 99 + "]" * 99 + "}"
    with FaultServer("session", work=echo) as server:
        done = cli("call", server.url, "echo", "--args", args, "--db", db)
    assert done.returncode == 0, done.stderr
    assert runs(db) == [("tools/call echo", "ok")]


def test_a_recording_failure_never_loses_the_outcome_of_a_call_that_happened(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    RunStore.open(db).close()
    with sqlite3.connect(db) as conn:  # a database that refuses every step, as a full disk would
        conn.execute("CREATE TRIGGER refuse BEFORE INSERT ON steps BEGIN SELECT RAISE(ABORT, 'disk is full'); END")
    with FaultServer("session", work=echo) as server:
        done = cli("call", server.url, "echo", "--json", "--db", db)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["content"] == "done"
    assert "could not be stored" in done.stderr and "Traceback" not in done.stderr
    assert runs(db) == [("tools/call echo", "ok")]  # finished, not left running
