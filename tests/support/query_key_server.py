"""An MCP server on 127.0.0.1 that answers only requests whose address carries one query
(``?api_key=…``; others get 401, as hosted servers that take their key in the query do), and
records the query of every request it got."""

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
            body = ('{"error": "a valid api_key is required, not %s"}' % got).encode("latin-1")
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


@contextmanager
def query_key_server(query: str) -> Iterator[tuple[str, QueryKeyGate]]:
    """Serve the test MCP server behind a key in the query; yield its URL (no query) and the gate."""
    gate = QueryKeyGate(build_sdk_server().streamable_http_app(), query)
    with serve_asgi(gate) as url:
        yield url, gate
