"""A Ctrl-C (or SIGTERM) that lands after a command's answer was printed and its run stored, as the database
closes: the command's status stands (`call`, and `scenario` and `agent`, which play an agent's run). The event
loop, closing, had given the stop signals back to Python's defaults: the Ctrl-C was taken for one "before the
command had done its work" (exit 130 after an ok answer, seen in 4 of 24 calls with a Ctrl-C within ±12 ms of
the answer; in 20 of 20 scenarios with one within 20 ms after it) and SIGTERM killed the process (status -15).
Here the signal is raised exactly there, in a child process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from inspector.demo import DemoServer
from tests.support.asgi_server import serve_asgi
from tests.support.fake_chat_model import FakeChatModel, tool_then_report

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import signal, sys
    from inspector.cli import ending
    from inspector.store.run_store import RunStore

    close = RunStore.close

    def closing(self):
        if ending._json_emitted:  # the answer is out and stored: the command's last step
            signal.raise_signal(signal.{signal})
            signal.getsignal(signal.{signal})  # a call: the handler has run by now
        close(self)

    RunStore.close = closing
    sys.argv = ["run-inspector", *sys.argv[1:]]
    from inspector.cli import run

    run()
""")


def late_stopped(stop: str, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` in a child process that raises ``stop`` as its database closes after the answer."""
    return subprocess.run([sys.executable, "-c", CHILD.format(signal=stop), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", **(env or {})})


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_as_the_database_closes_after_the_answer_changes_nothing(tmp_path: Path, stop: str) -> None:
    database = tmp_path / "runs.db"
    with DemoServer() as demo:
        done = late_stopped(stop, "call", demo.url, "echo", "--args", '{"text": "hi"}', "--json", "--db",
                            str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["outcome"] == "ok"
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_a_scenarios_report_changes_nothing(tmp_path: Path, stop: str) -> None:
    """A scenario on the demo server it starts for itself: exit 130 "Cancelled (Ctrl-C) before the command had
    done its work" after an ok run, or killed by SIGTERM (status -15)."""
    database = tmp_path / "runs.db"
    done = late_stopped(stop, "scenario", "happy-path", "--json", "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["status"] == "ok"
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_an_agents_report_changes_nothing(tmp_path: Path, stop: str) -> None:
    database = tmp_path / "runs.db"
    fake = FakeChatModel(tool_then_report("echo", {"text": "ping"}))
    with DemoServer() as demo, serve_asgi(fake.app(), path="/v1") as model_url:
        done = late_stopped(stop, "agent", "--model-url", model_url, "--model", "fake-model", "--server", demo.url,
                            "--api-key-env", "MODEL_KEY", "--json", "--db", str(database), "Say ping.",
                            env={"MODEL_KEY": "sk-late-stop"})
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["status"] == "ok"
    assert "Cancelled" not in done.stderr


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_after_a_watch_ended_changes_nothing(tmp_path: Path, stop: str) -> None:
    """`resources subscribe` gave the stop signals back to Python's defaults as its watch ended, before the
    listening session was stopped and the database closed: exit 130 after "ended", or killed by SIGTERM."""
    database = tmp_path / "runs.db"
    with DemoServer() as demo:
        done = late_stopped(stop, "resources", "subscribe", demo.url, "demo://clock", "--count", "1", "--json",
                            "--db", str(database))
    assert done.returncode == 0, (done.returncode, done.stderr)
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[-1]["event"] == "ended" and events[-1]["reason"] == "count"
    assert "Cancelled" not in done.stderr
