"""`call --json`'s `era` is the era spoken with the server: `null` when no server answered (what the client
would have spoken is not what the server speaks), while the stored step keeps the era it would have spoken
(tests/gui/test_server_eras.py). Real processes of the command line, a real SQLite file, real HTTP."""

from __future__ import annotations

import json
import socket
from pathlib import Path

from inspector.store import RunStore
from tests.support.cli_process import cli_here
from tests.support.demo_process import serve_demo


def _closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (taken, then let go of)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        return taken.getsockname()[1]


def test_era_is_null_when_no_server_answered_and_the_stored_step_keeps_the_intended_one(tmp_path: Path) -> None:
    database = tmp_path / "runs.db"
    url = f"http://127.0.0.1:{_closed_port()}/mcp"
    for era in ("auto", "stateless"):
        done = cli_here("--db", str(database), "call", url, "echo", "--budget", "3", "--era", era, "--json")
        assert done.returncode == 1, done.stderr
        report = json.loads(done.stdout)
        assert report["error"]["kind"] == "unreachable"
        assert report["era"] is None, era
        with RunStore.open(database) as store:
            assert store.step_at(report["run_id"], 1).step.era == "stateless"  # what it would have spoken


def test_era_is_the_one_spoken_when_the_server_answered(tmp_path: Path) -> None:
    with serve_demo() as url:
        for era in ("handshake", "stateless"):
            done = cli_here("--db", str(tmp_path / "runs.db"), "call", url, "echo", "--era", era, "--json",
                            "--args", '{"text": "hi"}')
            report = json.loads(done.stdout)
            assert report["outcome"] == "ok", done.stdout
            assert report["era"] == era
