"""``resources subscribe SERVER URI`` against real servers on 127.0.0.1: the demo server in both
eras (--count, --for, --json lines, stored runs), Ctrl-C ending it cleanly (unsubscribed, status 0),
a server that refuses (status 1), and the words it refuses before anything is sent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.demo import DemoServer
from inspector.demo.options import DemoOptions
from inspector.demo.subscriptions import CLOCK_URI
from tests.support.subscription_servers import WATCHED, subscription_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def demo():
    with DemoServer(DemoOptions(update_interval_s=0.2)) as server:
        yield server


@pytest.mark.parametrize("era", ["handshake", "stateless"])
def test_count_ends_it_and_json_gives_one_object_a_line(demo, era: str, tmp_path: Path, capsys) -> None:
    db = tmp_path / "runs.db"
    status = main(["resources", "subscribe", demo.url, CLOCK_URI, "--count", "3", "--json", "--era", era,
                   "--db", str(db)])
    assert status == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    events = [line["event"] for line in lines]
    assert events == ["subscribed", "updated", "updated", "updated",
                      *(["unsubscribed"] if era == "handshake" else []), "ended"]
    subscribed = lines[0]
    assert subscribed["operation"] == "resources/subscribe" and subscribed["outcome"] == "ok"
    assert subscribed["uri"] == CLOCK_URI and subscribed["era"] == era and isinstance(subscribed["run_id"], int)
    assert [update["number"] for update in lines[1:4]] == [1, 2, 3]
    assert all(update["uri"] == CLOCK_URI and update["at"].endswith("Z") for update in lines[1:4])
    assert lines[-1] == {"event": "ended", "reason": "count", "updates": 3, "dropped": 0}
    # The runs: the subscribe (and the unsubscribe), each stored.
    assert main(["runs", "list", "--json", "--db", str(db)]) == 0
    titles = [run["title"] for run in json.loads(capsys.readouterr().out)["runs"]]
    assert f"resources/subscribe {CLOCK_URI}" in titles
    assert (f"resources/unsubscribe {CLOCK_URI}" in titles) is (era == "handshake")


def test_for_ends_it_after_the_time_and_readable_lines_have_the_time(demo, capsys) -> None:
    started = time.monotonic()
    assert main(["resources", "subscribe", demo.url, CLOCK_URI, "--for", "0.7", "--no-store"]) == 0
    took = time.monotonic() - started
    out, err = capsys.readouterr()
    assert took < 5
    updates = [line for line in out.splitlines() if line.endswith(f"  updated  {CLOCK_URI}")]
    assert 1 <= len(updates) <= 5
    assert "resources/subscribe on " in out and "resources/unsubscribe on " in out
    assert "Waiting for updates of demo://clock (Ctrl-C ends)." in err
    assert "the time given (--for) is over." in err


def test_ctrl_c_unsubscribes_and_ends_with_status_0(demo) -> None:
    command = [sys.executable, "-m", "inspector", "resources", "subscribe", demo.url, CLOCK_URI, "--json",
               "--no-store"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert process.stdout is not None
    lines = []
    for line in process.stdout:  # the first update is printed: the subscription stands
        lines.append(json.loads(line))
        if lines[-1]["event"] == "updated":
            break
    assert demo.state.ticker.subscribed_sessions == 1
    process.send_signal(signal.SIGINT)
    out, _err = process.communicate(timeout=15)
    lines += [json.loads(line) for line in out.splitlines()]
    assert process.returncode == 0
    assert [line["event"] for line in lines][-2:] == ["unsubscribed", "ended"]
    assert lines[-1]["reason"] == "interrupted"
    assert demo.state.ticker.subscribed_sessions == 0


def test_a_refused_subscribe_fails_with_status_1(capsys) -> None:
    with subscription_server("refuses") as url:
        status = main(["resources", "subscribe", url, WATCHED, "--json", "--no-store", "--era", "handshake"])
    assert status == 1
    [line] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert line["event"] == "subscribed" and line["outcome"] == "failed"
    assert "subscriptions are closed today" in line["error"]["message"]


@pytest.mark.parametrize("words, said", [
    (["--stdio", "some-server", CLOCK_URI], "resources subscribe needs a server at an address"),
    (["http://127.0.0.1:9/mcp"], "resources subscribe needs a server and the resource's URI"),
    (["http://127.0.0.1:9/mcp", CLOCK_URI, "--count", "0"], "--count must be a whole number of at least 1"),
])
def test_words_it_cannot_use_are_refused_before_anything_is_sent(words: list[str], said: str, capsys) -> None:
    assert main(["resources", "subscribe", *words, "--no-store"]) == 2
    assert said in capsys.readouterr().err
