"""The older HTTP+SSE transport against the official SDK's SSE server, and against servers that misuse it."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from inspector.mcp.channels.sse_legacy import LegacySseChannel
from inspector.mcp.channels.stdio import ChannelError
from inspector.mcp.server import ServerEndpoint
from tests.support.asgi_server import serve_asgi
from tests.support.stdio_server import server as sdk_server

INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
    "protocolVersion": "2024-11-05", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}


def call(name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


async def open_channel(url: str, **options) -> tuple[httpx.AsyncClient, LegacySseChannel]:
    http = httpx.AsyncClient()
    try:
        channel = await LegacySseChannel.open(http, ServerEndpoint(url), wait_s=10, **options)
    except BaseException:
        await http.aclose()
        raise
    return http, channel


def test_the_sdk_sse_server_answers_on_its_event_stream() -> None:
    async def scenario(url: str) -> None:
        http, channel = await open_channel(url)
        try:
            assert channel.endpoint is not None and channel.endpoint.startswith(url.rsplit("/", 1)[0] + "/messages")
            answer = await asyncio.wait_for(channel.request(INITIALIZE), 10)
            assert answer["id"] == 0 and answer["result"]["serverInfo"]["name"] == "stdio test server"
            await channel.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            both = await asyncio.wait_for(asyncio.gather(channel.request(call("echo", {"text": "a"})),
                                                         channel.request(call("echo", {"text": "b"}))), 10)
            assert [item["result"]["content"][0]["text"] for item in both] == ["a", "b"]
            # A cancelled call: the server is told, and the stream serves the next call.
            hang = asyncio.ensure_future(channel.request(call("hang", {})))
            await asyncio.sleep(0.3)
            hang.cancel()
            with pytest.raises(asyncio.CancelledError):
                await hang
            answer = await asyncio.wait_for(channel.request(call("echo", {"text": "after"})), 10)
            assert answer["result"]["content"][0]["text"] == "after"
        finally:
            await channel.close()
            await http.aclose()

    with serve_asgi(sdk_server.sse_app(), "/sse") as url:
        asyncio.run(scenario(url))


def hostile(events: str | None, status: int = 200, media: str = "text/event-stream") -> Starlette:
    async def stream(_request):  # noqa: ANN001 - starlette's request
        if events is None:
            return PlainTextResponse("Method Not Allowed", status_code=status)

        async def body():
            yield events.encode()
            await asyncio.sleep(30)

        return StreamingResponse(body(), status_code=status, media_type=media)

    async def messages(_request):  # noqa: ANN001
        return Response(status_code=202)

    return Starlette(routes=[Route("/sse", stream), Route("/messages", messages, methods=["POST"])])


@pytest.mark.parametrize(("app", "words"), [
    (hostile(None, 405), "HTTP status 405: no older HTTP+SSE endpoint at this address"),
    (hostile("data: {}\n\n", media="application/json"), "'application/json', not an event stream"),
    (hostile("event: endpoint\ndata: http://203.0.113.9/steal\n\n"), "another origin (http://203.0.113.9/steal)"),
    (hostile(": nothing here\n\n"), "named no endpoint"),
])
def test_a_server_that_misuses_the_older_transport_is_named(app: Starlette, words: str) -> None:
    async def scenario(url: str) -> None:
        http = httpx.AsyncClient()
        try:
            with pytest.raises(ChannelError) as raised:
                await LegacySseChannel.open(http, ServerEndpoint(url), wait_s=1.0)
            assert words in str(raised.value)
        finally:
            await http.aclose()

    with serve_asgi(app, "/sse") as url:
        asyncio.run(scenario(url))


def test_a_stream_that_closes_fails_the_requests_waiting_on_it() -> None:
    async def scenario(url: str) -> None:
        http, channel = await open_channel(url)
        try:
            with pytest.raises(ChannelError, match="the event stream of .* is closed"):
                await asyncio.wait_for(channel.request(call("echo", {"text": "x"})), 10)
        finally:
            await channel.close()
            await http.aclose()

    async def stream(_request):  # noqa: ANN001
        async def body():
            yield b"event: endpoint\ndata: /messages\n\n"
            await asyncio.sleep(0.5)  # then the stream ends, with the request unanswered

        return StreamingResponse(body(), media_type="text/event-stream")

    async def messages(_request):  # noqa: ANN001
        return Response(status_code=202)

    app = Starlette(routes=[Route("/sse", stream), Route("/messages", messages, methods=["POST"])])
    with serve_asgi(app, "/sse") as url:
        asyncio.run(scenario(url))
