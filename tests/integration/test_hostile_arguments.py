"""Hostile command lines: deep --args, credentials in bad options, huge URLs and numbers.
Each is one sentence and exit 2, nothing is sent, and no run is left `interrupted`."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import cli, cli_here
from tests.support.fault_server import Exchange, FaultServer


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
    # The call worked; its record is not where it belongs, which the exit status says too.
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert report["content"] == "done" and report["outcome"] == "ok"
    assert "could not be saved" in done.stderr and "disk is full" in done.stderr and "Traceback" not in done.stderr
    side_file = report["record"]["side_file"]
    assert runs(db) == []  # the run's first row went: it was left finished, and its import added nothing
    with sqlite3.connect(db) as conn:  # the disk has room again
        conn.execute("DROP TRIGGER refuse")
    conn.close()
    assert cli("import", side_file, "--db", db).returncode == 0
    assert runs(db) == [("tools/call echo", "ok")]
    with RunStore.open(db) as store:  # the whole record, its step with it
        (run,) = store.list_runs()
        assert store.count_steps(run.id) == 1


SECRETS = ("SECRET-TOKEN-42", "pa55word", "p@ss@word")


@pytest.mark.parametrize("args", [
    ["call", "http://127.0.0.1:9/mcp", "echo", "--header", "Bearer SECRET-TOKEN-42"],
    ["call", "http://127.0.0.1:9/mcp", "echo", "--header", "Bearer SECRET-TOKEN-42: x"],
    ["tools", "http://127.0.0.1:9/mcp", "--header", "SECRET-TOKEN-42"],
    ["servers", "set", "http://127.0.0.1:9/mcp", "--header", "Bearer SECRET-TOKEN-42"],
    ["call", "http://alice:pa55word@host:99999/", "echo"],
    ["call", "http://alice:p@ss@word@host:99999/", "echo"],
    ["ping", "http://alice:pa55word@[::1/", "--no-store"],
    ["servers", "set", "http://alice:pa55word@host:99999/"],
], ids=["bearer-without-name", "bearer-as-name", "bare-token", "servers-set-header", "url-password",
        "url-password-with-at", "url-bad-host", "servers-set-url"])
def test_no_message_quotes_a_header_value_or_url_user_info(tmp_path: Path, args: list[str]) -> None:
    # In this process (cli_here): what it says is the point, not its process.
    done = cli_here(*args, "--db", str(tmp_path / "runs.db")) if args[0] != "ping" else cli_here(*args)
    message = one_sentence_exit_2(done)
    for secret in SECRETS:
        assert secret not in message and secret not in done.stdout
    assert "alice" not in message
    assert runs(str(tmp_path / "runs.db")) == []


def test_a_100_kb_url_is_one_sentence_and_leaves_no_run(tmp_path: Path) -> None:
    db = str(tmp_path / "runs.db")
    RunStore.open(db).close()
    done = cli("call", "http://127.0.0.1:9/" + "a" * 100_000, "echo", "--db", db)
    message = one_sentence_exit_2(done)
    assert len(message) < 400 and "longer than" in message
    assert runs(db) == []


@pytest.mark.parametrize("args, fragment", [
    (["runs", "list", "--limit", "99999999999999999999999"], "--limit"),
    (["runs", "list", "--limit", "0"], "--limit"),
    (["runs", "show", "99999999999999999999999"], "no run"),
    (["runs", "show", "-1"], ""),
    (["export", "1", "99999999999999999999999", "-o", "out.json"], "no run 99999999999999999999999"),
])
def test_numbers_from_the_command_line_are_range_checked(tmp_path: Path, args: list[str], fragment: str) -> None:
    db = str(tmp_path / "runs.db")
    with RunStore.open(db) as store:
        store.finish_run(store.start_run("kept", "live", None), "ok")
    message = one_sentence_exit_2(cli_here(*args, "--db", db))  # what it says, not its process
    assert fragment in message
    assert runs(db) == [("kept", "ok")]


@pytest.mark.parametrize("budget", ["1e308", "99999999999999999999999", "604801"])
def test_a_budget_beyond_a_week_is_refused(tmp_path: Path, budget: str) -> None:
    db = str(tmp_path / "runs.db")
    message = one_sentence_exit_2(cli_here("ping", "http://127.0.0.1:9/mcp", "--budget", budget, "--db", db))
    assert "at most 604,800 seconds" in message
    assert runs(db) == []
