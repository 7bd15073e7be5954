"""A Ctrl-C (or SIGTERM) that lands after a call's answer was printed and its run stored, as the database
closes: the command's status stands. The event loop, closing, had given the stop signals back to Python's
defaults: the Ctrl-C was taken for one "before the command had done its work" (exit 130 after an ok
answer, seen in 4 of 24 calls with a Ctrl-C within ±12 ms of the answer) and SIGTERM killed the process
(status -15). Here the signal is raised exactly there, in a child process."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from inspector.demo import DemoServer

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
    url, database = sys.argv[1:]
    sys.argv = ["run-inspector", "call", url, "echo", "--args", '{{"text": "hi"}}', "--json", "--db", database]
    from inspector.cli import run

    run()
""")


@pytest.mark.parametrize("stop", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_as_the_database_closes_after_the_answer_changes_nothing(tmp_path: Path, stop: str) -> None:
    database = tmp_path / "runs.db"
    with DemoServer() as demo:
        done = subprocess.run([sys.executable, "-c", CHILD.format(signal=stop), demo.url, str(database)], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, env={"PYTHONPATH": str(ROOT),
                                                                               "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, (done.returncode, done.stderr)
    assert json.loads(done.stdout)["outcome"] == "ok"
    assert "Cancelled" not in done.stderr
