"""`replay RUN:STEP`: a stored tool step called again (same tool, arguments, budget), as a new run
linked to the step; `runs show` says which step a run replays and how a step was replayed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.support.cli_process import cli_here
from tests.support.demo_process import serve_demo

ROOT = Path(__file__).resolve().parents[2]
#: How long the scenario's hang call is in flight before the test cancels it.
HANG_S = 2.0


def cli(db: Path, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    del timeout  # in this process (what it says is the point, not its process): the test's own time-out bounds it
    return cli_here(*args, "--db", str(db), env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""})


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    with serve_demo() as url:
        yield url


@pytest.fixture(scope="module")
def other_demo_url() -> Iterator[str]:
    with serve_demo() as url:
        yield url


def _call(db: Path, url: str, tool: str, arguments: dict, budget: str) -> int:
    done = cli(db, "call", url, tool, "--args", json.dumps(arguments), "--budget", budget, "--json")
    return json.loads(done.stdout)["run_id"]


def test_a_replay_calls_the_same_tool_with_the_same_arguments_and_budget_and_is_linked(tmp_path, demo_url) -> None:
    db = tmp_path / "runs.db"
    original = _call(db, demo_url, "echo", {"text": "once more", "repeat": 2}, "7.5")
    done = cli(db, "replay", f"{original}:1", "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert (report["tool"], report["outcome"], report["budget_s"]) == ("echo", "ok", 7.5)
    assert report["content"] == "once more\nonce more"
    compared = report["replay_of"].pop("compared")
    assert report["replay_of"] == {"run": original, "step": 1}
    # Beside the step it replays: the same outcome and result; both durations.
    assert (compared["outcome_before"], compared["same_result"]) == ("ok", True)
    assert compared["duration_ms"] > 0 and compared["duration_before_ms"] > 0
    replay = report["run_id"]
    with RunStore.open(db) as store:
        [stored] = list(store.iter_steps(replay))
        assert stored.step.tool_arguments == {"text": "once more", "repeat": 2}
        assert stored.step.budget_s == 7.5
        assert stored.payload["replayOf"] == {"run": store.get_run(original).uid, "step": 1}
    shown = cli(db, "runs", "show", str(original)).stdout
    assert f"    replayed as run {replay} (ok)\n" in shown
    assert f"    replay of step 1 of run {original}\n" in cli(db, "runs", "show", str(replay)).stdout
    document = json.loads(cli(db, "runs", "show", str(original), "--json").stdout)
    assert document["timeline"][0]["replays"] == [{"run": replay, "status": "ok"}]
    # Readable: the first line says what is replayed. The run may be named as compare names it.
    assert cli(db, "replay", "last~1:1", "--no-store").stdout.startswith(f"Replay of step 1 of run {original}:\n")
    again = cli(db, "replay", f"{original}:1")
    assert again.returncode == 0 and again.stdout.startswith(f"Replay of step 1 of run {original}:\n")
    # The sentence the window's Result tab says beside the step, before the run's number.
    assert "\nReplay: the same outcome, the same result, " in again.stdout
    document = json.loads(cli(db, "runs", "show", str(original), "--json").stdout)
    assert [entry["run"] for entry in document["timeline"][0]["replays"]] == [replay, replay + 1]


def test_budget_and_server_can_be_given_and_a_failed_step_replays_as_it_is(tmp_path, demo_url,
                                                                          other_demo_url) -> None:
    db = tmp_path / "runs.db"
    failed = _call(db, demo_url, "fail", {}, "5")
    done = json.loads(cli(db, "replay", f"{failed}:1", "--server", other_demo_url, "--budget", "3", "--json").stdout)
    assert (done["server"], done["budget_s"], done["outcome"]) == (other_demo_url, 3, "failed")
    assert done["replay_of"]["compared"]["outcome_before"] == "failed"


def _stored_steps(db: Path) -> int:
    """How many steps the database another process writes holds so far (0 before it exists)."""
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as connection:
            return connection.execute("SELECT count(*) FROM steps").fetchone()[0]
    except sqlite3.OperationalError:  # not made yet, or its tables not yet
        return 0


def _played_and_cancelled_in_hang(db: Path) -> subprocess.CompletedProcess[str]:
    """``scenario user-cancels`` in a process of its own, cancelled as a user does (Ctrl-C) once its
    ``hang`` call has been in flight for :data:`HANG_S` (its own cancel after 2 s from the run's start
    could come before the call on a busy machine)."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", "scenario", "user-cancels", "--cancel-after",
                                "300", "--json", "--db", str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, cwd=ROOT, env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""})
    try:
        deadline = time.monotonic() + 60
        # Steps 1-3: the model's first round, its write_note, the model's second round; the hang call
        # comes next, at once (the step stored first, then the call).
        while _stored_steps(db) < 3:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the scenario never came to its hang call"
            time.sleep(0.02)
        time.sleep(HANG_S)  # the hang step's length: longer than the replay's 1 s budget it is compared with
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def test_a_cancelled_step_of_a_scenario_is_replayed_on_the_server_given(tmp_path, demo_url) -> None:
    db = tmp_path / "runs.db"
    played = _played_and_cancelled_in_hang(db)
    assert played.returncode != 0 or played.stdout, played.stderr
    with RunStore.open(db) as store:
        [run] = store.list_runs()
        cancelled = [stored for stored in store.iter_steps(run.id) if stored.outcome == "cancelled"]
    [step] = cancelled
    # Without --server it asks: the demo server started for the run alone stopped with it.
    asked = cli(db, "replay", f"{run.id}:{step.sequence}")
    assert asked.returncode == 2 and "started for it alone" in asked.stderr and "--server" in asked.stderr
    # The scenario's own demo server is gone; the step names its tool (hang), which never answers: a
    # short budget ends the replay as a time-out, linked to the cancelled step.
    done = cli(db, "replay", f"{run.id}:{step.sequence}", "--server", demo_url, "--budget", "1", "--json")
    report = json.loads(done.stdout)
    compared = report["replay_of"].pop("compared")
    assert (report["tool"], report["outcome"], report["replay_of"]) == ("hang", "failed",
                                                                         {"run": run.id, "step": step.sequence})
    assert compared["outcome_before"] == "cancelled" and compared["duration_ms"] < compared["duration_before_ms"]
    assert report["error"]["kind"] == "timed_out"


def test_an_imported_step_needs_a_server_and_then_replays(tmp_path, demo_url) -> None:
    db, other = tmp_path / "runs.db", tmp_path / "other.db"
    original = _call(db, demo_url, "add", {"a": 2, "b": 40}, "4")
    trace = tmp_path / "trace.json"
    assert cli(db, "export", str(original), "--output", str(trace)).returncode == 0
    imported = cli(other, "import", str(trace), "--json")
    assert imported.returncode == 0, imported.stderr
    [run_id] = json.loads(imported.stdout)["run_ids"]
    asked = cli(other, "replay", f"{run_id}:1")
    assert asked.returncode == 2
    assert "imported from a trace" in asked.stderr and "--server" in asked.stderr
    done = json.loads(cli(other, "replay", f"{run_id}:1", "--server", demo_url, "--json").stdout)
    assert (done["outcome"], done["budget_s"], done["structured_content"]) == ("ok", 4, {"sum": 42})


@pytest.mark.parametrize(("target", "words"), [
    ("7", "replay needs the step as RUN:STEP"),
    (":1", "replay needs the step as RUN:STEP"),
    ("1:x", "replay needs the step as RUN:STEP"),
    ("1:١", "replay needs the step as RUN:STEP"),
    ("1:" + "1" * 31, "replay needs the step as RUN:STEP"),
    ("x:1", "x names no run"),
    ("99999999999999999999:1", "There is no run 99999999999999999999."),
    ("1:1", "There is no run 1."),
    ("last:1", "There is no run last"),
])
def test_a_wrong_target_is_named(tmp_path, target: str, words: str) -> None:
    done = cli(tmp_path / "runs.db", "replay", target)
    assert done.returncode == 2 and words in done.stderr and done.stdout == ""


def test_a_step_that_called_no_tool_or_is_missing_is_refused(tmp_path, demo_url) -> None:
    db = tmp_path / "runs.db"
    listed = json.loads(cli(db, "tools", demo_url, "--json").stdout)["run_id"]
    refused = cli(db, "replay", f"{listed}:1")
    assert refused.returncode == 2 and "did not call a tool" in refused.stderr
    # A number the run does not have is said with the numbers it has (0 said "needs the step as RUN:STEP").
    for step in ("4", "0", "1234567890", "9" * 25):
        missing = cli(db, "replay", f"{listed}:{step}")
        assert missing.returncode == 2, missing.stderr
        assert f"Run {listed} has no step {step}: it has only step 1." in missing.stderr, missing.stderr


def test_a_model_run_played_on_a_demo_server_of_its_own_asks_which_server_then_replays(tmp_path, demo_url) -> None:
    """The Play tab's model runs on a fresh demo server are stored as `live`; their sink marks them as
    played on a demo server of their own, so a replay asks instead of calling a dead address."""
    from inspector.agent import StoreSink
    from inspector.runs import Leg, RunTrace, ToolResult
    from inspector.runs.replaying import OWN_DEMO_ORIGIN
    from tests.support.sample_runs import T0

    db = tmp_path / "runs.db"
    with RunStore.open(db) as store:
        sink = StoreSink(store, "live", health=False)  # as the Play tab's sink for a fresh demo server
        sink.run_started("agent fake-model: say hello", "http://127.0.0.1:9/mcp")
        step = RunTrace().record_tool_result(1, "echo", {"text": "hello"}, ToolResult.text("hello"), 3.0,
                                             legs=(Leg("tools/call", 5, 3.0, 200, "ok"),))
        sink.step_recorded(step, T0)
        run = store.get_run(sink.run_id)
        assert run.source == "live" and run.origin == OWN_DEMO_ORIGIN
    asked = cli(db, "replay", f"{run.id}:1")
    assert asked.returncode == 2 and "started for it alone" in asked.stderr and "--server" in asked.stderr
    done = json.loads(cli(db, "replay", f"{run.id}:1", "--server", demo_url, "--json").stdout)
    assert (done["tool"], done["outcome"], done["replay_of"]["run"]) == ("echo", "ok", run.id)
    with RunStore.open(db) as store:  # a sink of a configured server's run marks nothing
        kept = StoreSink(store, "live")
        kept.run_started("agent fake-model: say hello", demo_url)
        assert store.get_run(kept.run_id).origin is None
