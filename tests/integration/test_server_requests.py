"""Requests a server sends the client on the answer stream: answered, never left hanging.

``ping`` gets an empty result, everything else JSON-RPC error -32601; the step records that the
server asked, and a failure that follows says the server was waiting on a declined request.
"""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import asyncio
import json
import time
from typing import Any

import pytest

from inspector.agent import OperationRecord, execute_tool
from inspector.mcp import ErrorKind, McpClient, ServerEndpoint
from tests.support.asgi_server import serve_asgi
from tests.support.cli_process import cli_here
from tests.support.fault_server import Exchange, FaultServer, operate
from tests.support.sdk_server import build_sdk_server

ASKED = [
    {"jsonrpc": "2.0", "id": "srv-1", "method": "ping"},
    {"jsonrpc": "2.0", "id": "srv-2", "method": "elicitation/create",
     "params": {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {}}}},
    {"jsonrpc": "2.0", "id": 3, "method": "sampling/createMessage",
     "params": {"messages": [], "maxTokens": 5}},
    {"jsonrpc": "2.0", "id": "srv-4", "method": "roots/list"},
    {"jsonrpc": "2.0", "id": "srv-5", "method": "elicitation/create", "params": {}},
]


def call(server: FaultServer, budget_s: float = 10) -> OperationRecord:
    async def go() -> OperationRecord:
        client = McpClient()
        record = await execute_tool(client, ServerEndpoint(server.url, era="handshake"), "ask", {}, budget_s=budget_s)
        await client.drain()
        return record

    return asyncio.run(go())


@pytest.fixture(params=["stateless", "session"])
def profile(request: pytest.FixtureRequest) -> str:
    return request.param


def test_each_request_gets_its_reply_and_the_step_records_it(profile: str) -> None:
    with FaultServer(profile, work=lambda ex: ex.ask_client(ASKED)) as server:
        record = call(server)
        assert record.status == "ok", record.tool_result
        # The server's answer names what each reply was: ping answered, the rest declined (no
        # elicitation offered, sampling not allowed, no roots).
        assert record.tool_result.content == "result {}; error -32601; error -1; error -32601; error -32601"
        (call_post,) = server.posts("tools/call")
        for asked in ASKED:
            reply = server.reply_to(asked["id"])
            assert reply is not None, asked
            assert reply.message["jsonrpc"] == "2.0" and reply.message["id"] == asked["id"]
            assert reply.headers.get("mcp-protocol-version") == "2025-11-25"
            assert reply.headers.get("mcp-session-id") == call_post.headers.get("mcp-session-id")
            if asked["method"] == "ping":
                assert reply.message["result"] == {}
            else:
                assert reply.message["error"]["code"] in (-32601, -32602, -1)
                assert reply.message["error"]["message"].endswith(".")
        summary = [{key: entry[key] for key in ("method", "count", "declined")}
                   for entry in record.step.to_payload()["serverRequests"]]
        assert summary == [
            {"method": "ping", "count": 1, "declined": False},
            {"method": "elicitation/create", "count": 2, "declined": True},
            {"method": "sampling/createMessage", "count": 1, "declined": True},
            {"method": "roots/list", "count": 1, "declined": True},
        ]
        exchanges = record.step.to_payload()["serverRequests"][1]["exchanges"]
        assert exchanges[0]["asked"] == ASKED[1]["params"]
        assert exchanges[0]["answered"]["code"] == -32601
        assert isinstance(exchanges[0]["durationMs"], float)


def test_an_answer_to_another_id_is_not_taken(profile: str) -> None:
    with FaultServer(profile, work=lambda ex: ex.ask_client(ASKED[:1], stray_answer=True)) as server:
        record = call(server)
        assert record.tool_result.content == "result {}"


def test_a_plain_json_answer_to_another_id_is_malformed() -> None:
    def wrong_id(exchange: Exchange) -> None:
        exchange.send_json({"jsonrpc": "2.0", "id": 9999, "result": {"content": []}})

    with FaultServer("stateless", work=wrong_id) as server:
        [ran] = operate(ServerEndpoint(server.url, era="handshake"))
        assert ran.error is not None and ran.error.kind is ErrorKind.MALFORMED
        assert "another request (id 9999, not 2)" in ran.error.message


def test_a_server_left_waiting_on_a_declined_request_is_named_in_the_time_out(profile: str) -> None:
    def ask_and_wait(exchange: Exchange) -> None:
        exchange.ask_client(ASKED[1:2], answer=False)

    with FaultServer(profile, work=ask_and_wait) as server:
        record = call(server, budget_s=1)
        assert record.error is not None and record.error.kind is ErrorKind.TIMED_OUT
        assert "had asked the client for elicitation/create, which this client declined" in record.error.message
        assert "waiting on that request" in record.error.message
        assert "elicitation/create" in record.step.to_payload()["toolResult"]
        assert [(e["method"], e["count"], e["declined"]) for e in record.step.to_payload()["serverRequests"]] == [
            ("elicitation/create", 1, True)]


def test_an_answered_ping_alone_adds_nothing_to_a_failure() -> None:
    def ping_then_fail(exchange: Exchange) -> None:
        exchange.open_stream()
        exchange.write_event(ASKED[0])
        exchange.server.wait_until(lambda: exchange.server.reply_to("srv-1") is not None)
        exchange.write_event({"jsonrpc": "2.0", "id": exchange.request.rpc_id,
                              "error": {"code": -32000, "message": "nope"}})

    with FaultServer("session", work=ping_then_fail) as server:
        record = call(server)
        assert record.error is not None and record.error.kind is ErrorKind.RPC_ERROR
        assert "declined" not in record.error.message


def test_the_sdk_server_hears_the_decline_at_once_instead_of_waiting_for_the_budget() -> None:
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        started = time.monotonic()
        [ran] = operate(ServerEndpoint(url, era="handshake"), tool="ask_name", arguments={}, budget_s=10)
        took = time.monotonic() - started
    assert ran.error is None, ran.error
    assert took < 3, "the client left the server's elicitation unanswered"
    assert ran.result.content.startswith("elicitation failed")
    assert "does not answer questions" in ran.result.content
    assert [(seen.method, seen.declined, seen.reply_status) for seen in ran.recorder.server_requests] == [
        ("elicitation/create", True, 202)]


def test_the_command_line_shows_and_stores_what_the_server_asked() -> None:
    with FaultServer("session", work=lambda ex: ex.ask_client(ASKED[:2])) as server:
        done = cli_here("call", server.url, "--era", "handshake", "ask", "--json")  # what it says, not its process
        assert done.returncode == 0, done.stderr
        report: dict[str, Any] = json.loads(done.stdout)
        assert [(e["method"], e["count"], e["declined"]) for e in report["server_requests"]] == [
            ("ping", 1, False), ("elicitation/create", 1, True)]
        readable = cli_here("call", server.url, "--era", "handshake", "ask").stdout
        assert ('The server asked the client for elicitation/create (once); the client declined ("This client '
                'does not answer questions (elicitation).").') in readable
        shown = cli_here("runs", "show", str(report["run_id"])).stdout
        assert "The server asked the client for ping (once); the client answered." in shown


def test_the_clients_own_reasons_read_in_the_readers_language_and_stay_english_in_the_store() -> None:
    # The SDK server asks for a model (no sampling offered) and for roots (none offered): the client's
    # reasons were quoted in English inside the German sentence ('abgelehnt („This client offers no roots.")').
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        done = cli_here("call", url, "--era", "handshake", "show_roots", "--json")
        assert done.returncode == 0, done.stderr
        run_id = str(json.loads(done.stdout)["run_id"])
        summarised = cli_here("call", url, "--era", "handshake", "summarise", "--args", '{"text": "hi"}',
                              "--lang", "de").stdout
    assert [exchange["answered"]["message"] for exchange in
            json.loads(done.stdout)["server_requests"][0]["exchanges"]] == ["This client offers no roots."]
    assert ('Der Server hat den Client um sampling/createMessage gebeten (einmal); der Client hat abgelehnt '
            '(„Der Benutzer dieses Clients hat Servern nicht erlaubt, ein Modell zu verwenden (Sampling), oder es '
            'ist kein Modell dafür eingerichtet.“).') in summarised
    german = cli_here("runs", "show", run_id, "--lang", "de").stdout
    assert ('Der Server hat den Client um roots/list gebeten (einmal); der Client hat abgelehnt („Dieser Client '
            'bietet keine Roots an.“).') in german
    assert "roots failed: This client offers no roots." in german  # the server's own text, as it wrote it
    english = cli_here("runs", "show", run_id, "--lang", "en").stdout
    assert ('The server asked the client for roots/list (once); the client declined ("This client offers no '
            'roots.").') in english
    stored = json.loads(cli_here("runs", "show", run_id, "--json", "--lang", "de").stdout)
    assert "This client offers no roots." in json.dumps(stored)  # the store and --json keep the English


def test_a_reply_the_server_never_accepts_is_bounded_by_the_budget() -> None:
    def notification(exchange: Exchange) -> None:
        if exchange.request.rpc_method is None:  # our reply: hold it forever
            exchange.stall()
        else:
            exchange.send(202, b"", content_type=None)

    with FaultServer("session", work=lambda ex: ex.ask_client(ASKED[1:2], timeout=1),
                     notification=notification) as server:
        started = time.monotonic()
        record = call(server, budget_s=1)
        took = time.monotonic() - started
    assert record.error is not None and record.error.kind is ErrorKind.TIMED_OUT
    assert took < 2.5
    assert "declined" in record.error.message


def test_a_cancel_stops_a_reply_that_hangs() -> None:
    from inspector.mcp import CancelSignal

    cancel = CancelSignal()

    def notification(exchange: Exchange) -> None:
        if exchange.request.rpc_method is None:  # our reply: cancel while it hangs
            cancel.fire()
            exchange.stall()
        else:
            exchange.send(202, b"", content_type=None)

    with FaultServer("session", work=lambda ex: ex.ask_client(ASKED[1:2], timeout=1),
                     notification=notification) as server:
        async def go() -> OperationRecord:
            client = McpClient()
            record = await execute_tool(client, ServerEndpoint(server.url, era="handshake"), "ask", {}, budget_s=30,
                                        cancel=cancel)
            await client.drain()
            return record

        started = time.monotonic()
        record = asyncio.run(go())
        took = time.monotonic() - started
    assert record.status == "cancelled" and record.error.in_flight is True
    assert took < 2
    assert "declined" not in record.error.message  # the user's cancel is what ended it
