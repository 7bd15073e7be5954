"""The client against the official MCP SDK server, in its four transport profiles.

Event-stream answers (the SDK's default) or plain JSON answers (``json_response=True``), each
with a session id or without one (``stateless_http=True``).
"""

from __future__ import annotations

# These cases are the handshake era's (sessions, the standalone stream, requests from the server,
# resumption): their servers are spoken to in that era, pinned (era="handshake"); the stateless
# era's counterparts are in test_stateless_era.py.
import pytest

from inspector.mcp import ErrorKind, LegOutcome, McpTransportError, ServerEndpoint
from tests.support.asgi_server import serve_asgi
from tests.support.fault_server import Ran, operate
from tests.support.sdk_server import ToolEvents, build_sdk_server

PROFILES = {
    "event-stream+session": {"json_response": False, "stateless_http": False},
    "event-stream+stateless": {"json_response": False, "stateless_http": True},
    "json+session": {"json_response": True, "stateless_http": False},
    "json+stateless": {"json_response": True, "stateless_http": True},
}


class Sdk:
    def __init__(self, profile: str, url: str, events: ToolEvents) -> None:
        self.profile = profile
        self.endpoint = ServerEndpoint(url, name=f"sdk ({profile})", era="handshake")
        self.events = events

    @property
    def streams(self) -> bool:
        return not PROFILES[self.profile]["json_response"]

    def call(self, tool: str, arguments: dict, budget_s: float = 10) -> Ran:
        [ran] = operate(self.endpoint, tool=tool, arguments=arguments, budget_s=budget_s)
        return ran


@pytest.fixture(scope="module", params=list(PROFILES))
def sdk(request):
    events = ToolEvents()
    app = build_sdk_server(events).streamable_http_app(**PROFILES[request.param])
    with serve_asgi(app) as url:
        yield Sdk(request.param, url, events)


def ok(ran: Ran):
    assert ran.error is None, f"{type(ran.error).__name__}: {ran.error}"
    assert ran.recorder.finished.outcome == "ok"
    assert all(leg.outcome is LegOutcome.OK for leg in ran.recorder.legs)
    return ran.result


def test_list_tools(sdk):
    [ran] = operate(sdk.endpoint, "list")
    catalogue = ok(ran)
    assert {"echo", "add", "explode", "slow"} <= set(catalogue.names)
    assert catalogue.pages == 1
    echo = next(tool for tool in catalogue.tools if tool["name"] == "echo")
    assert echo["inputSchema"]["properties"]["text"]["type"] == "string"
    assert [leg.method for leg in ran.recorder.legs] == ["initialize", "notifications/initialized", "tools/list"]


def test_ping(sdk):
    [ran] = operate(sdk.endpoint, "ping")
    result = ok(ran)
    assert result.protocol_version == "2025-11-25"
    assert result.server_name == "run-inspector-test"
    assert [leg.method for leg in ran.recorder.legs] == ["initialize", "notifications/initialized", "ping"]
    assert result.latency_ms is not None and result.latency_ms >= 0


def test_echo(sdk):
    text = "grüße ✓\nsecond line"
    result = ok(sdk.call("echo", {"text": text}))
    assert result.content == text
    assert result.is_error is False
    assert result.dropped_blocks == {}


def test_add_has_structured_content(sdk):
    result = ok(sdk.call("add", {"a": 2, "b": 40}))
    assert result.structured_content == {"sum": 42}
    assert result.is_error is False
    assert "42" in result.content


def test_a_tool_that_raises_is_an_error_result_not_a_transport_error(sdk):
    result = ok(sdk.call("explode", {"reason": "kaput"}))
    assert result.is_error is True
    assert "explode" in result.content
    assert "Error" in result.content


def test_an_unknown_tool_is_an_error_result(sdk):
    """This SDK answers an unknown tool with an ``isError`` result, not a JSON-RPC error."""
    result = ok(sdk.call("no_such_tool", {}))
    assert result.is_error is True
    assert result.content == "Unknown tool: no_such_tool"


def test_bad_arguments_are_an_error_result(sdk):
    result = ok(sdk.call("add", {"a": "not a number"}))
    assert result.is_error is True
    assert result.structured_content is None


def test_progress_of_a_slow_tool(sdk):
    ran = sdk.call("slow", {"seconds": 0.4})  # four steps of 0.1 s
    result = ok(ran)
    assert result.content == "done"
    progress = ran.recorder.progress_seen
    if sdk.streams:
        assert [p.progress for p in progress] == [0, 1, 2, 3]
        assert all(p.method == "tools/call" and p.message == "working" and p.total == 4 for p in progress)
    else:
        assert progress == [], "a plain JSON answer has no room for progress"


def test_a_slow_tool_is_stopped_at_the_budget(sdk):
    ran = sdk.call("slow", {"seconds": 5}, budget_s=1)
    error = ran.error
    assert isinstance(error, McpTransportError), error
    assert error.kind is ErrorKind.TIMED_OUT
    assert sdk.endpoint.label in error.message
    assert 0.9 <= ran.elapsed_s < 2.0
    assert ran.recorder.finished.outcome == "failed"
    if sdk.streams:
        assert ran.recorder.progress_seen, "progress arrived before the budget ran out"
