"""Progress is kept: shown live on a terminal, put in --json, stored with the step."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.cli.progress import CLEAR_LINE, LiveProgressLine
from inspector.mcp import OperationFinished, ProgressSeen
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer
from tests.support.pty_reading import read_until_closed
from tests.support.sdk_server import build_sdk_server

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def sdk_url() -> Iterator[str]:
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        yield url


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return cli_here(*args)  # in this process: what it says is the point, not its process


def test_progress_is_in_the_json_and_the_stored_step(sdk_url: str) -> None:
    done = run_cli("call", sdk_url, "slow", "--args", '{"seconds": 0.4}', "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    progress = report["progress"]
    assert [note["progress"] for note in progress] == [0, 1, 2, 3]
    assert all(note["total"] == 4 and note["message"] == "working" for note in progress)
    times = [note["at_ms"] for note in progress]
    assert times == sorted(times) and 0 < times[0] < times[-1] < 5000
    assert report["progress_dropped"] == 0
    assert "\r" not in done.stderr  # not a terminal: no live line

    shown = json.loads(run_cli("runs", "show", str(report["run_id"]), "--json").stdout)
    stored = shown["timeline"][0]["payload"]["progress"]
    assert [(note["atMs"], note["progress"], note["total"], note["message"]) for note in stored] == \
        [(note["at_ms"], note["progress"], note["total"], note["message"]) for note in progress]
    readable = run_cli("runs", "show", str(report["run_id"])).stdout
    assert "The server sent 4 progress notes; the last, at " in readable
    assert "3 of 4 (working)." in readable


def test_thousands_of_notes_are_bounded_with_a_count_of_the_dropped() -> None:
    def flood(exchange: Exchange) -> None:
        exchange.trickle(0.0, answer_after=1500)

    with FaultServer("stateless", work=flood) as server:
        done = run_cli("call", server.url, "flood", "--json")
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert len(report["progress"]) == 50
        assert report["progress_dropped"] == 1450
        assert [note["progress"] for note in report["progress"]][:10] == list(range(10))
        assert report["progress"][-1]["progress"] == 1499
        readable = run_cli("call", server.url, "flood").stdout
        assert "The server sent 1,500 progress notes" in readable
        assert "1,450 notes between the first and the last ones were not kept." in readable


def test_a_stream_of_notes_longer_than_the_limit_of_one_answer_is_read_to_its_result() -> None:
    """3 MiB of progress notes on the answer stream (the limit is 2 MiB an event), then the result; with
    its length said up front."""
    note = '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":%d,"total":N}}'
    count = 3 * 1024 * 1024 // len(note)

    def long_stream(exchange: Exchange) -> None:
        result = {"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                  "result": {"content": [{"type": "text", "text": "all done"}]}}
        exchange.send_events([note.replace("N", str(count)) % n for n in range(1, count + 1)] + [json.dumps(result)])

    with FaultServer("stateless", work=long_stream) as server:
        done = run_cli("call", server.url, "long", "--json")
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["outcome"] == "ok" and report["content"] == "all done"
        assert len(report["progress"]) == 50 and report["progress_dropped"] == count - 50
        assert report["progress"][-1]["progress"] == count
        readable = run_cli("runs", "show", str(report["run_id"])).stdout
        assert f"The server sent {count:,} progress notes" in readable
        assert f"{count:,} of {count:,}." in readable


@pytest.mark.parametrize("columns", [0, 40], ids=["size-unset", "narrow"])
def test_a_terminal_sees_one_updating_line_cleared_at_the_end(sdk_url: str, columns: int) -> None:
    import fcntl
    import struct
    import termios

    main, secondary = pty.openpty()
    fcntl.ioctl(secondary, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "inspector", "call", sdk_url, "slow", "--args", '{"seconds": 0.4}',
             "--no-store"], stdout=subprocess.PIPE, stderr=secondary, stdin=subprocess.DEVNULL, cwd=ROOT)
        os.close(secondary)
        seen = read_until_closed(main, 20, 4096)
        stdout, _ = process.communicate(timeout=20)
    finally:
        os.close(main)
    assert process.returncode == 0
    terminal = seen.decode()
    clear = CLEAR_LINE
    assert "\n" not in terminal, terminal  # one line, rewritten in place
    updates = [part for part in terminal.split(clear) if part]
    assert len(updates) == 4, terminal  # one rewrite per notification, on one line
    if columns == 40:  # cut to the terminal, so that it never wraps
        assert all(len(update) == 39 and update.endswith("…") for update in updates), updates
        assert updates[0].startswith("tools/call: ")
    else:
        assert updates[0].startswith("tools/call: ")
        assert "s of the budget left; progress 0 of 4: working" in updates[0]
        assert updates[-1].endswith("progress 3 of 4: working")
    assert terminal.endswith(clear), "the line was not cleared at the end"
    assert b"done" in stdout and b"\x1b" not in stdout


def test_the_line_is_cut_to_the_terminal_width_and_cleared() -> None:
    import io

    stream = io.StringIO()
    line = LiveProgressLine(stream)
    line.progress(ProgressSeen("tools/call", 2, None, "x" * 500 + "\x1b[31m", 1500.0, 18.5))
    written = stream.getvalue()
    assert written.startswith(CLEAR_LINE)
    text = written[len(CLEAR_LINE):]
    assert text.startswith("tools/call: 1.5 s spent, 18.5 s of the budget left; progress 2: xxx")
    assert "\x1b" not in text and len(text) < 500
    line.operation_finished(OperationFinished("tools/call", "s", 20, 1.0, "ok"))
    assert stream.getvalue() == written + CLEAR_LINE
