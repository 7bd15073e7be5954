"""The health a recording proxy counts, as the window and `call` count: one operation per request
of the agent's, its legs with it. An agent's ``server/discover`` probe that a server of the
handshake era refuses (as every SDK server with sessions does) is the answer the probe looks for,
as Run Inspector's own probe takes it (a leg "ok"), not a failure of a healthy server; nor is it an
operation of its own (the agent's next request is)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from inspector.capture.proxy import ProxyServer
from inspector.store import RunStore, ServerRegistry
from tests.support.fault_server import FaultServer

DISCOVER = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {}}
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _health_after(server: FaultServer, db: Path, message: dict) -> tuple[int, object, str]:
    with ProxyServer(server.url, db) as proxy:
        answer = httpx.post(proxy.url, json=message, headers=ACCEPT, timeout=10)
    with RunStore.open(db) as store:
        record = ServerRegistry(store.db).get(server.url)
        run = store.list_runs(limit=None)[0]
        step = next(iter(store.iter_steps(run.id))).payload
    return answer.status_code, record, f"{run.status}: {step['content']}"


@pytest.mark.parametrize(("profile", "status"), [("session", 400), ("stateless", 200)])
def test_a_discover_probe_a_handshake_server_refuses_is_no_failure(tmp_path: Path, profile: str,
                                                                   status: int) -> None:
    """Nor an operation of its own: the probe is a leg before the agent's next request (its handshake),
    which is the operation the health counts."""
    with FaultServer(profile) as server:  # session: HTTP 400 (no session); stateless: "Method not found"
        code, record, said = _health_after(server, tmp_path / "runs.db", DISCOVER)
    assert code == status
    assert record is None  # nothing counted: no health of its own
    assert said.startswith("ok: server/discover: the server speaks the handshake era")


def test_a_discover_probe_the_server_fails_is_still_a_failure(tmp_path: Path) -> None:
    def broken(exchange):
        exchange.send(500, b"internal error", content_type="text/plain")

    with FaultServer("session", discover=broken) as server:
        code, record, said = _health_after(server, tmp_path / "runs.db", DISCOVER)
    assert code == 500
    assert record is not None and (record.ok_count, record.failed_count) == (0, 1) and record.last_contact_at is None
    assert said.startswith("failed: ")


def test_an_agents_pause_after_the_handshake_is_not_the_first_calls_latency(tmp_path: Path) -> None:
    """An agent opens its session, asks its model for a while, then calls a tool: the call's run
    (which carries the handshake's legs) and the server's last latency are the time on the wire."""
    import time

    db = tmp_path / "runs.db"
    with FaultServer("session") as server, ProxyServer(server.url, db) as proxy, \
            httpx.Client(timeout=10, headers=ACCEPT) as http:
        opened = http.post(proxy.url, json={"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "agent", "version": "1"}}})
        session = {"Mcp-Session-Id": opened.headers["mcp-session-id"], "MCP-Protocol-Version": "2025-11-25"}
        http.post(proxy.url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session)
        time.sleep(1.5)  # the agent's model thinks
        called = http.post(proxy.url, headers=session, json={"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                                             "params": {"name": "echo", "arguments": {}}})
        assert called.status_code == 200
    with RunStore.open(db) as store:
        run = next(run for run in store.list_runs(limit=None) if run.title.startswith("tools/call echo"))
        step = next(iter(store.iter_steps(run.id))).payload
        record = ServerRegistry(store.db).get(server.url)
    assert [leg["method"] for leg in step["legs"]] == ["initialize", "notifications/initialized", "tools/call"]
    assert step["durationMs"] < 1000 and sum(leg["elapsedMs"] for leg in step["legs"]) <= step["durationMs"] + 1
    assert record is not None and record.ok_count >= 1 and record.last_latency_ms < 1000


def test_a_discover_answered_with_other_revisions_is_not_called_the_handshake_era(tmp_path: Path) -> None:
    """A server of the stateless era that speaks other revisions answers the probe with its list (the
    agent asks again): that is no answer of the handshake era, and the run does not say it is."""
    def other_revisions(exchange):
        exchange.send_json({"jsonrpc": "2.0", "id": exchange.request.rpc_id, "error": {
            "code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2027-01-01"]}}})

    with FaultServer("stateless", discover=other_revisions) as server:
        _code, _record, said = _health_after(server, tmp_path / "runs.db", DISCOVER)
    assert "handshake era" not in said


def test_an_sdk_agents_session_counts_its_operations_not_its_stream_and_end(tmp_path: Path) -> None:
    """One operation per request of the agent's, as the window and `call` count: the handshake, the
    server's stream (GET) and the session's end (DELETE) are legs, not an "ok" each; and a stream
    that stayed open while the agent thought is not the server's latency. The runs stay as they were."""
    import anyio
    import httpx2
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    from inspector.demo import DemoServer

    async def agent(url: str) -> None:
        async with httpx2.AsyncClient() as http, streamable_http_client(url, http_client=http) as (read, write, *_), \
                ClientSession(read, write) as session:
            await session.initialize()
            await session.call_tool("echo", {"text": "one"})
            await session.call_tool("fail", {"reason": "on purpose"})
            await anyio.sleep(1.5)  # the agent thinks; its GET stream stays open

    db = tmp_path / "runs.db"
    with DemoServer() as demo:
        with ProxyServer(demo.url, db) as proxy:
            anyio.run(agent, proxy.url)
        with RunStore.open(db) as store:
            record = ServerRegistry(store.db).get(demo.url)
            titles = sorted(run.title for run in store.list_runs(limit=None))
    assert record is not None
    # echo and the catalogue the SDK reads for a tool's output schema: ok; fail: the tool's error.
    assert (record.ok_count, record.tool_error_count, record.failed_count, record.cancelled_count) == (2, 1, 0, 0)
    assert record.last_latency_ms is not None and record.last_latency_ms < 1000
    assert titles == ["DELETE session · proxy", "GET stream · proxy", "tools/call echo · proxy",
                      "tools/call fail · proxy", "tools/list · proxy"]
