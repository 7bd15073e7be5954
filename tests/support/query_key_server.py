"""An MCP server on 127.0.0.1 that answers only requests whose address carries one query
(``?api_key=…``; others get 401, as hosted servers that take their key in the query do), and
records the query of every request it got; :func:`header_key_server`: one that answers only
requests carrying one ``X-Api-Key`` header (others get 401 without a ``WWW-Authenticate`` challenge,
as API-key servers do)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.support.asgi_server import serve_asgi
from tests.support.sdk_server import build_sdk_server


class QueryKeyGate:
    """ASGI middleware: 401 unless the request's query is ``expected``; ``seen`` lists each request's query."""

    def __init__(self, app: Any, expected: str) -> None:
        self.app, self.expected = app, expected
        self.seen: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        got = scope.get("query_string", b"").decode("latin-1")
        self.seen.append(got)
        if got != self.expected:  # says back what it got, as servers quoting the refused key do
            await _refuse(send, ('{"error": "a valid api_key is required, not %s"}' % got).encode("latin-1"))
            return
        await self.app(scope, receive, send)


async def _refuse(send: Any, body: bytes) -> None:
    """HTTP 401 with a JSON body, and no challenge."""
    await send({"type": "http.response.start", "status": 401,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class HeaderKeyGate:
    """ASGI middleware: 401 unless the request carries ``X-Api-Key: expected``; ``refused`` counts the refusals."""

    def __init__(self, app: Any, expected: str) -> None:
        self.app, self.expected = app, expected.encode("latin-1")
        self.refused = 0

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and dict(scope.get("headers", ())).get(b"x-api-key") != self.expected:
            self.refused += 1
            await _refuse(send, b'{"error": "missing or wrong X-Api-Key"}')
            return
        await self.app(scope, receive, send)


@contextmanager
def query_key_server(query: str) -> Iterator[tuple[str, QueryKeyGate]]:
    """Serve the test MCP server behind a key in the query; yield its URL (no query) and the gate."""
    gate = QueryKeyGate(build_sdk_server().streamable_http_app(), query)
    with serve_asgi(gate) as url:
        yield url, gate


@contextmanager
def header_key_server(key: str) -> Iterator[tuple[str, HeaderKeyGate]]:
    """Serve the test MCP server behind an ``X-Api-Key`` header; yield its URL and the gate."""
    gate = HeaderKeyGate(build_sdk_server().streamable_http_app(), key)
    with serve_asgi(gate) as url:
        yield url, gate
