"""A server remembered in the handshake era that now speaks only the stateless one refuses ``initialize``
with HTTP 404, with the stateless era's -32601 or no JSON-RPC error at all. The operation probes
``server/discover`` once and goes on in the stateless era under its one deadline: before, the 404 sent it
to the older HTTP+SSE transport, and it failed with "no MCP server answers at this address" while the
handshake era stayed remembered. A real server on 127.0.0.1, counting what it received."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from inspector.mcp import ErrorKind, McpClient, McpTransportError, OperationRecorder, ServerEndpoint
from tests.support.asgi_server import serve_asgi
from tests.support.stateless_server import StatelessServer, serve_stateless

BUDGET_S = 10.0


def call(client: McpClient, url: str, budget_s: float = BUDGET_S) -> tuple[Any, OperationRecorder]:
    async def go() -> tuple[Any, OperationRecorder]:
        recorder = OperationRecorder()
        try:
            result: Any = await client.call_tool(ServerEndpoint(url), "echo", {"x": 1}, budget_s=budget_s,
                                                 observer=recorder, definition={"name": "echo", "inputSchema": {}})
        except McpTransportError as error:
            result = error
        await client.drain()
        return result, recorder
    return asyncio.run(go())


def legs(recorder: OperationRecorder) -> list[str]:
    return [leg.method for leg in recorder.legs]


@pytest.mark.parametrize(("refusal", "expected_legs", "not_posted"), [
    ("unknown", ["initialize", "server/discover", "tools/call"], []),
    # A bare 404 is how the older transport's servers refuse a POST: its event stream is asked for first.
    ("bare", ["initialize", "connect", "server/discover", "tools/call"], ["GET"]),
])
def test_a_remembered_handshake_server_refusing_initialize_with_404_is_probed_and_spoken_to_statelessly(
        refusal: str, expected_legs: list[str], not_posted: list[str]) -> None:
    client = McpClient()
    server = StatelessServer(legacy=True)
    with serve_stateless(server) as (_, url):
        call(client, url)
        assert client.eras.recall(ServerEndpoint(url).key) == "handshake"
        server.legacy, server.refuse_initialize = False, refusal  # upgraded to a release of the stateless era alone
        server.seen.clear()
        server.not_posted.clear()
        result, recorder = call(client, url)
        received = server.methods()
        received_otherwise = list(server.not_posted)
        _, after = call(client, url)
    assert not isinstance(result, McpTransportError), result
    assert result.content == '{"x": 1}'
    assert legs(recorder) == expected_legs
    assert received == ["initialize", "server/discover", "tools/call"]
    assert received_otherwise == not_posted
    finished = recorder.finished
    assert finished is not None
    assert (finished.era, finished.protocol_version, finished.transport) == ("stateless", "2026-07-28", "http")
    assert finished.budget_s == BUDGET_S  # one operation, one deadline
    assert finished.elapsed_ms < BUDGET_S * 1000
    assert client.eras.recall(ServerEndpoint(url).key) == "stateless"
    assert legs(after) == ["tools/call"]


async def _nothing_here(request: Request) -> Response:
    return Response("Not Found", status_code=404, media_type="text/plain")


def test_an_address_remembered_in_the_handshake_era_where_nothing_answers_now_is_probed_once_then_forgotten() -> None:
    client = McpClient()
    app = Starlette(routes=[Route("/mcp", _nothing_here, methods=["POST", "GET", "DELETE"])])
    with serve_asgi(app) as url:
        client.eras.remember(ServerEndpoint(url).key, "handshake")
        result, recorder = call(client, url)
    assert isinstance(result, McpTransportError)
    assert (result.kind, result.method, result.http_status) == (ErrorKind.HTTP_STATUS, "initialize", 404)
    assert "no MCP server answers at this address" in str(result)
    assert legs(recorder) == ["initialize", "connect", "server/discover"]
    assert client.eras.recall(ServerEndpoint(url).key) is None  # the next operation probes first


async def _event_stream_never_opened(request: Request) -> Response:
    """A POST refused with a bare 404; a GET held open without a word until the client leaves."""
    if request.method != "GET":
        return Response("Not Found", status_code=404, media_type="text/plain")
    while not await request.is_disconnected():
        await asyncio.sleep(0.05)
    return Response(status_code=404)


def test_a_remembered_handshake_server_whose_event_stream_spent_the_budget_fails_with_its_404() -> None:
    """The wait for the older transport's event stream took what was left of the budget: the operation fails with
    the 404 it got, as it does where no era is remembered, not with "server/discover was not sent: the budget was
    used up by its earlier legs" (a probe it could no longer send, shown as a leg)."""
    client = McpClient()
    app = Starlette(routes=[Route("/mcp", _event_stream_never_opened, methods=["POST", "GET", "DELETE"])])
    # Half a second from whole: the event stream's wait (what is left) ends before its leg's grant (whole seconds).
    budget_s = 2.5
    with serve_asgi(app) as url:
        client.eras.remember(ServerEndpoint(url).key, "handshake")
        result, recorder = call(client, url, budget_s)
    assert isinstance(result, McpTransportError)
    assert (result.kind, result.method, result.http_status) == (ErrorKind.HTTP_STATUS, "initialize", 404), result
    assert "no MCP server answers at this address" in str(result)
    assert legs(recorder) == ["initialize", "connect"]
    assert client.eras.recall(ServerEndpoint(url).key) is None  # the next operation probes first
    finished = recorder.finished
    assert finished is not None and finished.elapsed_ms < (budget_s + 1) * 1000  # within the grant's second
