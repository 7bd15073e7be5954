"""A server's stdout at its edges: a message over the 16 MB limit, a line broken off and followed by a
whole message. Real processes (tests/support/stdio_limits.py), the channel and the command line."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from inspector.mcp.channels.stdio import StdioProcess
from inspector.mcp.server_command import ServerCommand
from tests.support.stdio_limits import answer_line

ROOT = Path(__file__).resolve().parents[2]
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}
CALL = {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {"text": "hi"}}}
TOO_LARGE = "the server sent a message of 20 MB on stdout, over the 16 MB limit; it was dropped"


def limits(mode: str) -> ServerCommand:
    return ServerCommand(sys.executable, ("-m", "tests.support.stdio_limits", mode), cwd=str(ROOT))


async def handshaken(mode: str, problems: list[str]) -> StdioProcess:
    process = await StdioProcess.start(limits(mode), on_problem=lambda sentence: problems.append(str(sentence)))
    await asyncio.wait_for(process.request(INITIALIZE), 20)
    return process


@pytest.mark.parametrize("mode", ["big-first", "big-last"])
def test_an_answer_over_the_limit_fails_its_request_at_once_with_its_size(mode: str) -> None:
    # Its id written before the result (the Python SDK's order) or after it (the TypeScript SDK's).
    async def scenario() -> tuple[float, Exception, list[str]]:
        problems: list[str] = []
        process = await handshaken(mode, problems)
        try:
            began = time.monotonic()
            with pytest.raises(Exception) as lost:  # noqa: PT011 - which one is asserted below
                await asyncio.wait_for(process.request(CALL), 12)
            return time.monotonic() - began, lost.value, problems
        finally:
            await process.close(grace_s=0.5)

    took, lost, problems = asyncio.run(scenario())
    assert took < 8, took  # the time to read 20 MB, not the deadline
    assert type(lost).__name__ == "AnswerLost" and str(lost) == TOO_LARGE
    assert lost.limit == 16 * 2**20 and lost.size > 20 * 2**20
    assert problems == [TOO_LARGE]


@pytest.mark.parametrize("mode", ["big-note", "big-request"])
def test_a_message_over_the_limit_that_answers_nothing_fails_no_request(mode: str) -> None:
    # A huge log notice, or a huge request of the server's own that carries the very id of the
    # client's request: neither is an answer, and the answer after it is read.
    async def scenario() -> tuple[dict, list[str]]:
        problems: list[str] = []
        process = await handshaken(mode, problems)
        try:
            return await asyncio.wait_for(process.request(CALL), 20), problems
        finally:
            await process.close(grace_s=0.5)

    answer, problems = asyncio.run(scenario())
    assert answer["id"] == 7 and answer["result"]["echo"]["arguments"] == {"text": "hi"}
    assert problems == [TOO_LARGE]


def test_a_line_over_the_limit_on_stderr_is_said_and_its_beginning_kept() -> None:
    # It was read and dropped without a word: the server's log went on at the next line as if nothing was there.
    async def scenario() -> tuple[dict, list[str], list[str]]:
        problems: list[str] = []
        logged: list[str] = []
        process = await StdioProcess.start(limits("big-stderr"), on_stderr=logged.append,
                                           on_problem=lambda sentence: problems.append(str(sentence)))
        try:
            await asyncio.wait_for(process.request(INITIALIZE), 20)
            answer = await asyncio.wait_for(process.request(CALL), 20)
            for _ in range(100):  # stderr is read beside stdout: its next line may come a moment after the answer
                if "after the big line" in logged:
                    break
                await asyncio.sleep(0.05)
            return answer, problems, logged
        finally:
            await process.close(grace_s=0.5)

    answer, problems, logged = asyncio.run(scenario())
    assert answer["id"] == 7
    assert problems == ["the server wrote a line of 20 MB on stderr, over the 16 MB limit; only its first 2,000 "
                        "characters were kept"]
    assert logged == ["begins " + "y" * 1993, "after the big line"]


# What the server breaks off: half of its answer, half of a notification, or a banner without its newline.
HALF_ANSWER = answer_line({**CALL, "id": 2})[:len(answer_line({**CALL, "id": 2})) // 2]
HALF_NOTE = '{"jsonrpc": "2.0", "method": "notifications/mess'


@pytest.mark.parametrize(("mode", "broken"), [("half", HALF_ANSWER), ("half-note", HALF_NOTE),
                                              ("banner-glued", "Loading...")])
def test_a_line_broken_off_is_named_and_the_whole_message_after_it_is_read(mode: str, broken: str) -> None:
    async def scenario() -> tuple[dict, list[str]]:
        problems: list[str] = []
        process = await handshaken(mode, problems)
        try:
            return await asyncio.wait_for(process.request({**CALL, "id": 2}), 20), problems
        finally:
            await process.close(grace_s=0.5)

    answer, problems = asyncio.run(scenario())
    assert answer["id"] == 2 and answer["result"]["echo"]["arguments"] == {"text": "hi"}
    assert problems == [f"the server left {len(broken)} bytes on stdout without ending the line, and wrote the next "
                        f"message after them: those bytes were dropped, the message after them read. They "
                        f"begin: {broken.strip()}"]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60,
                          cwd=ROOT, env={**os.environ}, stdin=subprocess.DEVNULL)


def test_the_command_line_fails_a_call_whose_answer_is_over_the_limit_at_once_and_stores_why(tmp_path: Path) -> None:
    command = f"{shlex.quote(sys.executable)} -m tests.support.stdio_limits big-last"
    db = str(tmp_path / "runs.db")
    began = time.monotonic()
    done = cli("--db", db, "call", "--stdio", command, "echo", "--args", '{"text": "hi"}', "--era", "handshake",
               "--budget", "30", "--json")
    took = time.monotonic() - began
    assert done.returncode == 1 and took < 15, (took, done.stderr)
    report = json.loads(done.stdout)
    sentence = (f"The server {command} answered tools/call with a message of 20 MB on stdout, over the 16 MB limit; "
                "it was dropped unread.")
    assert report["error"]["kind"] == "too_large" and report["error"]["message"] == sentence
    assert [(leg["method"], leg["outcome"]) for leg in report["legs"]][-1] == ("tools/call", "failed")
    assert f"run-inspector: {TOO_LARGE}" in done.stderr
    shown = cli("--db", db, "runs", "show", str(report["run_id"]), "--json")
    assert shown.returncode == 0, shown.stderr
    assert sentence in shown.stdout and TOO_LARGE in shown.stdout


def test_a_server_that_ignores_the_end_of_its_input_is_told_why_the_command_waits_and_is_gone_after() -> None:
    # The shutdown ladder: stdin closed, 2 s for the server to exit cleanly (the SDK's wait), then
    # SIGTERM, which ends this one. The command says why it took those 2 s; nothing is left behind.
    command = f"{shlex.quote(sys.executable)} -m tests.support.stdio_limits lingers"
    process = subprocess.Popen([sys.executable, "-m", "inspector", "call", "--stdio", command, "echo", "--args",
                                '{"text": "hi"}', "--era", "handshake", "--no-store", "--json"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                               stdin=subprocess.DEVNULL)
    try:
        assert process.stdout is not None and process.stderr is not None
        assert json.loads(process.stdout.readline())["outcome"] == "ok"
        printed = time.monotonic()
        stderr = process.stderr.read()
        process.wait(timeout=20)
        took = time.monotonic() - printed
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0 and 1.5 < took < 4, took
    pid = int(next(line for line in stderr.splitlines() if line.startswith("server stderr: lingers ")).split()[-1])
    assert ("run-inspector: the server process did not exit within 2 s of the end of its input (a server should "
            "exit when its stdin closes); it was sent SIGTERM") in stderr
    assert "SIGKILL" not in stderr  # SIGTERM ended it
    assert not os.path.exists(f"/proc/{pid}")  # neither running on (an orphan) nor a zombie
