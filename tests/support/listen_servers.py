"""Servers of the stateless era for the listening tests: the official SDK's, and a small one of
our own whose ``subscriptions/listen`` streams end as a test asks (dropped, ended, held)."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import AsyncIterator
from typing import Any

from mcp.server.caching import CacheHint
from mcp.server.mcpserver import Context, MCPServer
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"


def build_listen_server(ttl_ms: int | None = None, scope: str = "public") -> MCPServer:
    """The SDK's server with a tool that says the tool list changed (on its ``subscriptions/listen``
    streams) and one that ends every subscription gracefully; ``ttl_ms``: ``tools/list`` is fresh so long."""
    hints = {"tools/list": CacheHint(ttl_ms=ttl_ms, scope=scope)} if ttl_ms is not None else None
    server = MCPServer("listen-test", cache_hints=hints)

    @server.tool()
    async def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    async def announce_tools(ctx: Context) -> str:
        """Publish a tools-list-changed event to the server's subscribers."""
        await ctx.notify_tools_changed()
        return "announced"

    @server.tool()
    async def end_subscriptions() -> str:
        """End every open subscription gracefully (each gets its final result)."""
        listen_handler(server).close()
        return "ended"

    return server


def listen_handler(server: MCPServer) -> Any:
    """The SDK's handler of ``subscriptions/listen`` (it knows the open streams)."""
    return server._lowlevel_server._request_handlers["subscriptions/listen"].handler


class ScriptedListens:
    """A server that answers the n-th ``subscriptions/listen`` as ``script[n]`` says (the last one
    repeats): ``"ack-drop"`` acknowledges and ends the stream without a result, ``"drop"`` ends it
    at once, ``"ack-hold"`` acknowledges and holds it open (``"ack-hold-change"``: and says the tool
    list changed), ``"complete"`` acknowledges and ends it with its result, ``"unknown"`` answers
    404 with -32601."""

    def __init__(self, script: list[str]) -> None:
        self.script = script
        self.listens: list[tuple[float, dict[str, Any], dict[str, str]]] = []
        self.open_streams = 0
        self.closed = threading.Event()
        self._lock = threading.Lock()

    def app(self) -> Starlette:
        return Starlette(routes=[Route("/mcp", self._handle, methods=["POST", "GET", "DELETE"])])

    async def _handle(self, request: Request) -> Response:
        if request.method != "POST":
            return Response(status_code=405, headers={"Allow": "POST"})
        message = json.loads(await request.body())
        if message.get("method") != "subscriptions/listen":
            return JSONResponse({"jsonrpc": "2.0", "id": message.get("id"),
                                 "error": {"code": -32601, "message": "Method not found"}}, status_code=404)
        with self._lock:
            self.listens.append((time.monotonic(), message, dict(request.headers)))
            how = self.script[min(len(self.listens), len(self.script)) - 1]
        if how == "unknown":
            return JSONResponse({"jsonrpc": "2.0", "id": message["id"],
                                 "error": {"code": -32601, "message": "Method not found"}}, status_code=404)
        return StreamingResponse(self._stream(message, how), media_type="text/event-stream")

    async def _stream(self, message: dict[str, Any], how: str) -> AsyncIterator[bytes]:
        meta = {SUBSCRIPTION_ID: message["id"]}

        def event(body: dict[str, Any]) -> bytes:
            return f"event: message\ndata: {json.dumps(body)}\n\n".encode()

        self.open_streams += 1
        try:
            if how == "drop":
                return
            yield event({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                         "params": {"_meta": meta, "notifications": {"toolsListChanged": True}}})
            if how == "complete":
                yield event({"jsonrpc": "2.0", "id": message["id"],
                             "result": {"resultType": "complete", "_meta": meta}})
            elif how.startswith("ack-hold"):
                if how == "ack-hold-change":
                    yield event({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
                                 "params": {"_meta": meta}})
                await asyncio.Event().wait()
        finally:
            self.open_streams -= 1
            self.closed.set()

    def gaps(self) -> list[float]:
        """Seconds between one listen request and the next."""
        times = [when for when, _message, _headers in self.listens]
        return [later - earlier for earlier, later in zip(times, times[1:], strict=False)]



async def call_stateless(url: str, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """One request of the stateless era, sent by hand (``_meta``, standard headers); its JSON answer."""
    import httpx

    from inspector.mcp.stateless import request_meta, standard_headers

    params = dict(params or {})
    params["_meta"] = request_meta("2026-07-28", {}, {"name": "test", "version": "1"})
    headers = standard_headers("2026-07-28", method, params) | {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(timeout=10) as http:
        response = await http.post(url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params},
                                   headers=headers)
    text = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        text = [line[5:] for line in text.splitlines() if line.startswith("data:")][-1]
    return json.loads(text)
