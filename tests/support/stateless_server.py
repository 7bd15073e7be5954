"""A small server of the stateless era (MCP 2026-07-28) on 127.0.0.1, with knobs for the cases
the client must handle: multi round-trip requests, an unsupported version, a broken answer
stream, a request that hangs until the client goes, and a server that changes its era (and how it
refuses ``initialize`` then).

Every POST is recorded (headers lower-cased, the parsed body). Tools, by name:
``echo`` (the arguments as text), ``ask`` (one question, then the answer and the state it got
back), ``always_ask`` (asks for ever), ``break_once`` (the first answer stream ends without the
answer), ``hang`` (an event stream that never answers; the server notes when the client leaves),
``odd_type`` (a result type nobody knows).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.support.asgi_server import serve_asgi

VERSION = "2026-07-28"
QUESTION = {"method": "elicitation/create",
            "params": {"mode": "form", "message": "Which colour?",
                       "requestedSchema": {"type": "object", "properties": {"colour": {"type": "string"}}}}}


@dataclass
class Seen:
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def method(self) -> str | None:
        return self.body.get("method")

    @property
    def params(self) -> dict[str, Any]:
        return self.body.get("params") or {}


@dataclass
class StatelessServer:
    """The knobs; ``seen`` is what arrived. ``legacy``: answer as a server of the handshake era."""

    versions: list[str] = field(default_factory=lambda: [VERSION])
    #: Refuse the first request with -32022 (the version is then retried).
    refuse_first_version: bool = False
    legacy: bool = False
    #: How ``initialize`` is refused (``None``: as every request without the version, -32022):
    #: ``"unknown"`` with HTTP 404 and -32601, as the stateless era refuses a method it lacks;
    #: ``"bare"`` with HTTP 404 and no JSON-RPC error.
    refuse_initialize: str | None = None
    seen: list[Seen] = field(default_factory=list)
    #: The HTTP methods of the requests that were no POST, in order.
    not_posted: list[str] = field(default_factory=list)
    client_left: threading.Event = field(default_factory=threading.Event)
    _broken: bool = False

    def methods(self) -> list[str | None]:
        return [seen.method for seen in self.seen]

    def calls(self) -> list[Seen]:
        return [seen for seen in self.seen if seen.method == "tools/call"]

    async def endpoint(self, request: Request) -> Response:
        if request.method != "POST":
            self.not_posted.append(request.method)
            return Response(status_code=405)
        body = json.loads(await request.body())
        seen = Seen({name.lower(): value for name, value in request.headers.items()}, body)
        self.seen.append(seen)
        if self.legacy:
            return self._legacy(seen)
        if seen.method == "initialize" and self.refuse_initialize == "bare":
            return Response("Not Found", status_code=404, media_type="text/plain")
        if seen.method == "initialize" and self.refuse_initialize == "unknown":
            return self._error(seen, -32601, "Method not found: initialize", status=404)
        if "id" not in body:
            return Response(status_code=202)
        if self.refuse_first_version:
            self.refuse_first_version = False
            return self._error(seen, -32022, "Unsupported protocol version",
                               {"supported": self.versions, "requested": seen.headers.get("mcp-protocol-version")},
                               status=400)
        version = seen.params.get("_meta", {}).get("io.modelcontextprotocol/protocolVersion")
        if version not in self.versions:
            return self._error(seen, -32022, "Unsupported protocol version",
                               {"supported": self.versions, "requested": version}, status=400)
        method = seen.method
        if method == "server/discover":
            return self._result(seen, {"resultType": "complete", "supportedVersions": self.versions,
                                       "capabilities": {"tools": {}}, "ttlMs": 60000, "cacheScope": "public",
                                       "_meta": {"io.modelcontextprotocol/serverInfo":
                                                 {"name": "stateless-test", "version": "1.0"}}})
        if method == "tools/list":
            return self._result(seen, {"resultType": "complete", "ttlMs": 0, "tools": [
                *({"name": name, "inputSchema": {"type": "object"}}
                  for name in ("echo", "ask", "always_ask", "break_once", "hang", "odd_type")),
                {"name": "route", "inputSchema": {"type": "object", "properties": {
                    "region": {"type": "string", "x-mcp-header": "Region"},
                    "priority": {"type": "integer", "x-mcp-header": "Priority"}}}},
                {"name": "bad_header", "inputSchema": {"type": "object", "properties": {
                    "score": {"type": "number", "x-mcp-header": "Score"}}}}]})
        if method == "tools/call":
            return await self._call(seen, request)
        return self._error(seen, -32601, f"Method not found: {method}", status=404)

    async def _call(self, seen: Seen, request: Request) -> Response:
        name = seen.params.get("name")
        if name == "ask" or name == "always_ask":
            responses = seen.params.get("inputResponses")
            if name == "always_ask" or not responses:
                return self._result(seen, {"resultType": "input_required", "inputRequests": {"q": QUESTION},
                                           "requestState": "state-1"})
            return self._text(seen, json.dumps({"responses": responses, "state": seen.params.get("requestState")}))
        if name == "break_once" and not self._broken:
            self._broken = True
            return StreamingResponse(iter([b": nothing\n\n"]), media_type="text/event-stream")
        if name == "hang":
            return StreamingResponse(self._hang(request), media_type="text/event-stream")
        if name == "odd_type":
            return self._result(seen, {"resultType": "banana"})
        if name == "bad_params":  # refused as a server refuses wrong arguments: a JSON-RPC error on an HTTP 400
            return self._error(seen, -32602, "Invalid params: x must be a string", status=400)
        return self._text(seen, json.dumps(seen.params.get("arguments", {}), sort_keys=True))

    async def _hang(self, request: Request) -> Any:
        try:
            yield b": waiting\n\n"
            while True:
                await asyncio.sleep(0.02)
                yield b": still waiting\n\n"
        finally:  # the response is torn down when the client closes the stream
            self.client_left.set()

    def _legacy(self, seen: Seen) -> Response:
        """A server of the handshake era: no server/discover, a session from initialize."""
        method = seen.method
        if "id" not in seen.body:
            return Response(status_code=202)
        if method == "initialize":
            answer = self._result(seen, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                                         "serverInfo": {"name": "legacy-test", "version": "1.0"}})
            answer.headers["Mcp-Session-Id"] = "legacy-session"
            return answer
        if seen.headers.get("mcp-session-id") != "legacy-session":
            # As the SDKs' stateful servers answer a request outside a session.
            return self._error(seen, -32000, "Bad Request: No valid session ID provided", status=400)
        if method == "tools/call":
            return self._text(seen, "legacy")
        if method == "ping":
            return self._result(seen, {})
        if method == "tools/list":
            return self._result(seen, {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]})
        return self._error(seen, -32601, "Method not found", status=200)

    def _text(self, seen: Seen, text: str) -> Response:
        return self._result(seen, {"resultType": "complete", "content": [{"type": "text", "text": text}]})

    @staticmethod
    def _result(seen: Seen, result: dict[str, Any]) -> Response:
        return JSONResponse({"jsonrpc": "2.0", "id": seen.body.get("id"), "result": result})

    @staticmethod
    def _error(seen: Seen, code: int, message: str, data: Any = None, status: int = 200) -> Response:
        error: dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        return JSONResponse({"jsonrpc": "2.0", "id": seen.body.get("id"), "error": error}, status_code=status)


@contextmanager
def serve_stateless(server: StatelessServer | None = None) -> Iterator[tuple[StatelessServer, str]]:
    """Serve a :class:`StatelessServer` on a free port; yield it and its URL."""
    server = server or StatelessServer()
    app = Starlette(routes=[Route("/mcp", server.endpoint, methods=["POST", "GET", "DELETE"])])
    with serve_asgi(app) as url:
        yield server, url
