"""A ping of a command server of the stateless era times a request of the running program, not its start.

Since one ``server/discover`` served a whole operation (proto67), a ping took the probe's time for its own; the
probe of a program started for the operation waits for the program to start (a Python server: a second and more),
so ``ping --stdio`` said "answered server/discover in 1.5 s" of a server that answers in milliseconds. A ping of a
program it started asks once more (as before proto67); one of a program already running asks once. The real SDK
server over stdio (tests/support/stdio_server.py), in the auto era."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from pathlib import Path

from inspector.mcp import McpClient, OperationRecorder, PingResult, ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from tests.support.cli_process import cli_here

ROOT = Path(__file__).resolve().parents[2]


def test_a_ping_times_a_request_of_the_running_program_not_its_start() -> None:
    server = ServerEndpoint.for_command(ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"),
                                                      cwd=str(ROOT)))

    async def two_pings() -> list[tuple[PingResult, OperationRecorder]]:
        client = McpClient()
        pinged = []
        try:
            for _ in range(2):
                recorder = OperationRecorder()
                pinged.append((await client.ping(server, budget_s=30, observer=recorder), recorder))
        finally:
            await client.close()
        return pinged

    (started, started_legs), (running, running_legs) = asyncio.run(two_pings())
    methods = [leg.method for leg in started_legs.legs]
    assert methods == ["start", "server/discover", "server/discover"], methods
    probe, timed = started_legs.legs[1], started_legs.legs[2]
    assert started.stateless and started.latency_ms is not None
    # The ping's time is the second request's (measured around it: a little less than the leg's), not the probe's.
    assert started.latency_ms <= timed.elapsed_ms + 1 < probe.elapsed_ms, (
        started.latency_ms, probe.elapsed_ms, timed.elapsed_ms)
    assert [leg.method for leg in running_legs.legs] == ["server/discover"]  # the program runs: asked once
    assert running.stateless and running.latency_ms is not None


def test_the_command_lines_ping_with_the_era_remembered_times_a_request_too(tmp_path: Path) -> None:
    """The second ``ping --stdio`` remembers the stateless era: its probe checks it, again waiting for the start."""
    command = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
    for _ in range(2):  # the first finds the era, the second remembers it
        done = cli_here("ping", "--stdio", command, "--json", "--db", str(tmp_path / "runs.db"))
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        legs = [(leg["method"], leg["elapsed_ms"]) for leg in report["legs"]]
        assert [method for method, _ in legs] == ["start", "server/discover", "server/discover"], legs
        assert report["era"] == "stateless" and report["ping_ms"] <= legs[2][1] + 1 < legs[1][1], (report, legs)


def test_a_ping_in_the_stateless_era_given_times_a_request_of_the_running_program_too(tmp_path: Path) -> None:
    """``--era stateless`` (or a server configured so) probes nothing: the ping's one ``server/discover`` was the
    program's first request, and "answered server/discover in 1.7 s" was its start."""
    command = f"{shlex.quote(sys.executable)} -m tests.support.stdio_server"
    done = cli_here("ping", "--era", "stateless", "--stdio", command, "--json", "--db", str(tmp_path / "runs.db"))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    legs = [(leg["method"], leg["elapsed_ms"]) for leg in report["legs"]]
    assert [method for method, _ in legs] == ["start", "server/discover", "server/discover"], legs
    assert report["era"] == "stateless" and report["ping_ms"] <= legs[2][1] + 1 < legs[1][1], (report, legs)
