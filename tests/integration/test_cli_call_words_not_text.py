"""What `call` is given is sent and stored, so it must be text: a lone surrogate in --args (valid
JSON) or a tool name of bytes that are not UTF-8 is refused before anything is sent, in one sentence,
not found out when the finished call is stored (an internal error with a traceback)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.fault_server import FaultServer

ROOT = Path(__file__).resolve().parents[2]


def _call(*words: str | bytes) -> subprocess.CompletedProcess[str]:
    command = [os.fsencode(sys.executable), b"-m", b"inspector", *(os.fsencode(word) for word in words)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.mark.parametrize(("tool", "arguments", "named"), [
    ("echo", '{"text": "a\\ud83db"}', "--args"),
    ("echo", '{"nested": [{"\\udc00key": 1}]}', "--args"),
    (b"ech\xffo", "{}", "TOOL"),
])
def test_a_call_of_words_that_are_not_text_is_refused_before_it_is_sent(
        tmp_path: Path, tool: str | bytes, arguments: str, named: str) -> None:
    db = tmp_path / "runs.db"
    with FaultServer("stateless") as server:
        done = _call("call", server.url, tool, "--args", arguments, "--json", "--db", str(db))
        assert server.posts() == []  # nothing was sent
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "usage" and error["message"].startswith(f"{named} holds something that is not text")
    assert "nothing was sent" in done.stderr
    if db.exists():
        with RunStore.open(db) as store:
            assert store.list_runs() == []


def test_a_proper_surrogate_pair_is_text_and_is_called(tmp_path: Path) -> None:
    with FaultServer("stateless") as server:
        done = _call("call", server.url, "echo", "--args", '{"text": "a\\ud83d\\ude80b"}', "--json",
                     "--db", str(tmp_path / "runs.db"))
        assert server.posts() != []
    assert "holds something that is not text" not in done.stdout + done.stderr
