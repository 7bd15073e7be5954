"""One ``server/discover`` per operation, against a real server on 127.0.0.1 that counts what it
receives: the probe's answer is reused by the operation's later legs (a ping of the stateless era
is that answer), since every leg spends the operation's one budget."""

from __future__ import annotations

import asyncio
from pathlib import Path

from inspector.mcp import McpClient, OperationRecorder, PingResult, ServerEndpoint
from tests.support.cli_process import cli_here
from tests.support.stateless_server import StatelessServer, serve_stateless


def ping(client: McpClient, url: str) -> tuple[PingResult, OperationRecorder]:
    async def go() -> tuple[PingResult, OperationRecorder]:
        recorder = OperationRecorder()
        result = await client.ping(ServerEndpoint(url), budget_s=10, observer=recorder)
        await client.drain()
        return result, recorder
    return asyncio.run(go())


def test_a_ping_that_probed_asks_server_discover_once_and_times_the_probe() -> None:
    with serve_stateless() as (server, url):
        result, recorder = ping(McpClient(), url)
    assert server.methods() == ["server/discover"]
    assert [leg.method for leg in recorder.legs] == ["server/discover"]
    assert result.stateless and result.protocol_version == "2026-07-28"
    assert result.server_name == "stateless-test"
    assert result.latency_ms > 0


def test_a_ping_with_the_era_remembered_asks_once_too() -> None:
    client = McpClient()
    with serve_stateless() as (server, url):
        ping(client, url)
        server.seen.clear()
        result, _ = ping(client, url)
    assert server.methods() == ["server/discover"]
    assert result.stateless and result.latency_ms > 0


def test_a_ping_of_a_server_that_left_the_remembered_stateless_era_probes_once_then_pings() -> None:
    """Its discover was the probe: refused, the handshake and a ping follow (before: discover, the probe's
    discover, initialize, and discover a third time inside the handshake's session, which failed)."""
    client, server = McpClient(), StatelessServer()
    with serve_stateless(server) as (_, url):
        ping(client, url)
        server.legacy = True  # rolled back to a release of the handshake era
        server.seen.clear()
        result, _ = ping(client, url)
    assert server.methods() == ["server/discover", "initialize", "notifications/initialized", "ping"]
    assert not result.stateless and result.server_name == "legacy-test"


def test_a_ping_of_a_server_that_left_the_remembered_handshake_era_asks_server_discover_once() -> None:
    """Its refusal of initialize names an error only the stateless era has (HTTP 400, -32022): probed
    again, and the probe's answer is the ping's (before: every operation failed on that refusal)."""
    client, server = McpClient(), StatelessServer(legacy=True)
    with serve_stateless(server) as (_, url):
        ping(client, url)
        server.legacy = False  # upgraded to a release of the stateless era alone
        server.seen.clear()
        result, _ = ping(client, url)
    assert server.methods() == ["initialize", "server/discover"]
    assert result.stateless and result.latency_ms > 0


def test_the_command_line_ping_of_a_configured_server_asks_server_discover_once(tmp_path: Path) -> None:
    env = {"RUN_INSPECTOR_DB": str(tmp_path / "runs.db")}
    with serve_stateless() as (server, url):
        assert cli_here("servers", "set", "--name", "st", url, env=env).returncode == 0
        done = cli_here("ping", "st", env=env)
    assert done.returncode == 0, done.stderr
    assert server.methods() == ["server/discover"]
    assert "answered server/discover in" in done.stdout
