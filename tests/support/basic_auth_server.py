"""An MCP server on 127.0.0.1 that answers only requests carrying one ``Authorization: Basic``
value (others get 401), and records the ``Authorization`` header of every request it got."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.support.asgi_server import serve_asgi
from tests.support.sdk_server import build_sdk_server


def basic(user: str, password: str) -> str:
    """The ``Authorization`` value HTTP Basic makes of ``user`` and ``password``."""
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode("ascii")


class BasicAuthGate:
    """ASGI middleware: 401 unless the request carries ``expected``; ``seen`` lists what each carried."""

    def __init__(self, app: Any, expected: str) -> None:
        self.app, self.expected = app, expected
        self.seen: list[str | None] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        got = dict(scope["headers"]).get(b"authorization")
        self.seen.append(got.decode("latin-1") if got is not None else None)
        if got is None or got.decode("latin-1") != self.expected:
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"www-authenticate", b'Basic realm="test"'), (b"content-length", b"0")]})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)


@contextmanager
def basic_auth_server(user: str, password: str) -> Iterator[tuple[str, BasicAuthGate]]:
    """Serve the test MCP server behind Basic auth; yield its URL (no user info) and the gate."""
    gate = BasicAuthGate(build_sdk_server().streamable_http_app(), basic(user, password))
    with serve_asgi(gate) as url:
        yield url, gate
