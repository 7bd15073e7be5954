"""The recording server of tests/fixtures/otel/make_traces.py (``serve mcp_sdk``, the agents' flavours' server) answers
a tool's error well inside the agents' 0.5 s session time-out: it logged each ``fail`` with rich's traceback, which
took it 0.3–0.4 s on a loaded machine, and the recorded ``fail`` call was a time-out instead of the tool's error
(``make trace-fixtures`` gave ``openai_agents_*`` and ``pydantic_ai`` files of another shape). Now plain tracebacks.
The SDK's server logs through rich only where rich is installed (the ``trace-fixtures`` extra brings it, the ``test``
extra does not): without rich this checks the answers alone."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.unit.traces.test_otel_agents import FIXTURES

CLIENT_TIMEOUT_S = 0.5  # make_traces.py's, the agents' session time-out


async def fail_calls(url: str) -> list[tuple[bool, float]]:
    from mcp import Client

    answers = []
    async with Client(url, mode="legacy") as client:
        await client.list_tools()
        for _ in range(3):
            start = time.perf_counter()
            result = await client.call_tool("fail", {"city": "Oslo"}, read_timeout_seconds=5.0)
            answers.append((result.is_error, time.perf_counter() - start))
    return answers


def test_the_recording_server_answers_a_tool_s_error_without_rich_s_traceback(tmp_path: Path) -> None:
    server = subprocess.Popen([sys.executable, str(FIXTURES / "make_traces.py"), "serve", "mcp_sdk",
                               str(tmp_path / "server.jsonl")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, encoding="utf-8")
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert line.startswith("READY "), line
        answers = asyncio.run(fail_calls(f"http://127.0.0.1:{line.split()[1]}/mcp"))
    finally:
        server.send_signal(signal.SIGINT)
        _, stderr = server.communicate(timeout=30)
    assert [is_error for is_error, _ in answers] == [True, True, True]
    assert "❱" not in stderr  # rich's traceback panel marks the failing line so
    assert max(seconds for _, seconds in answers) < CLIENT_TIMEOUT_S, answers
    assert "upstream 503 for Oslo" in stderr and "Traceback (most recent call last)" in stderr  # logged, plainly
