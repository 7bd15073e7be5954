"""The standalone stream (GET after initialize): log messages at each level, list-changed notices,
requests on it answered, 405 taken as "none offered", logging/setLevel, and a stream a long-lived
session keeps open with subscribers, resumed with Last-Event-ID."""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import asyncio
import json

import httpx
import pytest

from inspector.agent import execute_tool
from inspector.cli import main
from inspector.mcp import LOG_LEVELS, McpClient, OperationRecorder, ServerEndpoint, ServerRequestHandler
from inspector.mcp.elicitation import accept_defaults
from inspector.mcp.standalone import ServerNotification, StandaloneStream, StreamState
from tests.support.asgi_server import serve_asgi
from tests.support.fault_server import Exchange, FaultServer
from tests.support.sdk_server import build_sdk_server


@pytest.fixture(scope="module")
def sdk_url():
    with serve_asgi(build_sdk_server().streamable_http_app()) as url:
        yield url


def call(url: str, tool: str, *, handler: ServerRequestHandler | None = None, log_level: str | None = None,
         budget_s: float = 10):
    async def go():
        client = McpClient(handler=handler, standalone_stream=True, log_level=log_level)
        recorder = OperationRecorder()
        record = await execute_tool(client, ServerEndpoint(url, era="handshake"), tool, {}, budget_s=budget_s,
                                    observer=recorder)
        await client.drain()
        return record, recorder

    return asyncio.run(go())


def test_log_messages_at_each_level_are_seen_and_kept(sdk_url: str) -> None:
    record, recorder = call(sdk_url, "log_each_level", log_level="debug")
    assert record.status == "ok", record.tool_result
    logged = [note for note in recorder.notifications if note.method == "notifications/message"]
    assert [note.level for note in logged] == list(LOG_LEVELS)
    assert logged[3].params["data"] == "a warning message" and logged[3].via == "tools/call"
    kept = record.step.to_payload()["serverNotifications"]
    assert kept[0] == {"method": "notifications/message", "via": "tools/call", "level": "debug",
                       "logger": "levels", "data": "a debug message"}
    assert len(kept) == 8


def test_a_list_change_arrives_on_the_standalone_stream(sdk_url: str) -> None:
    record, recorder = call(sdk_url, "change_tools")
    assert record.status == "ok", record.tool_result
    changed = [note for note in recorder.notifications if note.method == "notifications/tools/list_changed"]
    assert changed and changed[0].via == "GET"
    assert {"method": "notifications/tools/list_changed", "via": "GET"} in record.step.to_payload()[
        "serverNotifications"]


def test_a_question_asked_on_the_standalone_stream_is_answered(sdk_url: str) -> None:
    record, recorder = call(sdk_url, "ask_on_the_side", handler=ServerRequestHandler(elicit=accept_defaults))
    assert record.tool_result.content == "asked on the side: accept"
    [seen] = recorder.server_requests
    assert (seen.method, seen.leg_method, seen.declined, seen.reply_status) == ("elicitation/create", "GET", False, 202)


def test_a_server_without_the_stream_answers_405_and_the_operation_goes_on() -> None:
    with FaultServer("session") as server:
        record, recorder = call(server.url, "echo")
        assert record.status == "ok"
        [get] = [r for r in server.received if r.http_method == "GET"]
        assert get.headers["accept"] == "text/event-stream"
        assert get.headers["mcp-session-id"] == server.sessions_issued[0]
        assert get.headers["mcp-protocol-version"] == "2025-11-25"
        assert "content-type" not in get.headers


def test_log_level_is_asked_for_when_the_server_logs() -> None:
    with FaultServer("session") as server:
        server.initialize = lambda ex: server.answer_initialize(ex, capabilities={"tools": {}, "logging": {}})
        server.work = lambda ex: ex.send_result({} if ex.request.rpc_method == "logging/setLevel"
                                                else {"content": [{"type": "text", "text": "ok"}]})
        record, recorder = call(server.url, "echo", log_level="warning")
        assert record.status == "ok", record.tool_result
        [asked] = server.posts("logging/setLevel")
        assert asked.params == {"level": "warning"}
        assert [leg.method for leg in recorder.legs] == ["initialize", "notifications/initialized",
                                                         "logging/setLevel", "tools/call"]
    with FaultServer("session") as server:  # a server that does not log is not asked
        call(server.url, "echo", log_level="warning")
        assert not server.posts("logging/setLevel")


def test_a_refused_log_level_does_not_fail_the_operation() -> None:
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "logging/setLevel":
            exchange.send_rpc_error(-32601, "Method not found")
        else:
            exchange.send_result({"content": [{"type": "text", "text": "ok"}]})

    with FaultServer("session", work=work) as server:
        server.initialize = lambda ex: server.answer_initialize(ex, capabilities={"tools": {}, "logging": {}})
        record, recorder = call(server.url, "echo", log_level="debug", budget_s=5)
        assert record.status == "ok", record.tool_result
        assert record.tool_result.content == "ok"
        # The refused leg is seen and kept, spent from the same deadline as the others.
        assert [(leg.method, leg.outcome.value) for leg in recorder.legs] == [
            ("initialize", "ok"), ("notifications/initialized", "ok"), ("logging/setLevel", "failed"),
            ("tools/call", "ok")]
        assert recorder.grants == [5, 5, 5, 5]
        assert [leg.method for leg in record.step.legs] == ["initialize", "notifications/initialized",
                                                            "logging/setLevel", "tools/call"]
        refused = recorder.log_level_refused_by
        assert refused is not None and refused.level == "debug" and refused.error.rpc_code == -32601


def test_a_log_level_leg_spends_from_the_operation_deadline() -> None:
    """A server slow to answer logging/setLevel: the call gets only what is left; none left, not sent."""
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "logging/setLevel":
            exchange.stall()
        else:
            exchange.send_result({"content": [{"type": "text", "text": "ok"}]})

    with FaultServer("session", work=work) as server:
        server.initialize = lambda ex: server.answer_initialize(ex, capabilities={"tools": {}, "logging": {}})
        record, recorder = call(server.url, "echo", log_level="debug", budget_s=1)
        assert record.status == "failed"
        assert record.error.kind.value == "timed_out" and record.error.method == "logging/setLevel"
        assert not server.posts("tools/call")


def test_a_long_lived_stream_keeps_subscribers_informed_and_resumes() -> None:
    """What the window does: one stream for a session, notifications to a subscriber, resumed
    with Last-Event-ID when the server ends it."""
    opened: list[str | None] = []

    def get(exchange: Exchange) -> None:
        opened.append(exchange.request.headers.get("last-event-id"))
        exchange.open_stream()
        note = {"jsonrpc": "2.0", "method": "notifications/message",
                "params": {"level": "info", "data": f"message {len(opened)}"}}
        exchange.write_raw(f"id: s-{len(opened)}\nretry: 50\ndata: \n\n")
        exchange.write_raw(f"data: {json.dumps(note)}\n\n")
        if len(opened) == 1:
            return  # ends the stream: to be resumed
        exchange.hold_open()

    async def go() -> list[ServerNotification]:
        seen: list[ServerNotification] = []
        two = asyncio.Event()

        def subscriber(note: ServerNotification) -> None:
            seen.append(note)
            if len(seen) == 2:
                two.set()

        async with httpx.AsyncClient() as http:
            stream = StandaloneStream(http, ServerEndpoint(server.url, era="handshake"), {"Mcp-Session-Id": "s"},
                                      answer=lambda request: asyncio.sleep(0))
            unsubscribe = stream.subscribe(subscriber)
            assert await stream.open() is StreamState.OPEN
            await asyncio.wait_for(two.wait(), 5)
            unsubscribe()
            await stream.close()
            assert stream.state is StreamState.CLOSED and stream.reconnects == 1
        return seen

    with FaultServer("session", get=get) as server:
        seen = asyncio.run(go())
    assert [note.params["data"] for note in seen] == ["message 1", "message 2"]
    assert opened == [None, "s-1"]


def test_the_command_line_shows_log_messages(sdk_url: str, capsys) -> None:
    assert main(["call", sdk_url, "--era", "handshake", "log_each_level", "--log-level", "debug", "--no-store"]) == 0
    out = capsys.readouterr().out
    assert "Server log (warning, from levels): a warning message" in out
    assert "Server log (emergency, from levels): a emergency message" in out
    assert main(["call", sdk_url, "--era", "handshake", "change_tools", "--json", "--no-store"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"method": "notifications/tools/list_changed", "via": "GET"} in report["notifications"]
