"""The slow-handshake mode: an ASGI layer that waits before the handshake messages are handled.

The handshake is ``initialize`` and ``notifications/initialized`` in the handshake era, and the
``server/discover`` probe that opens the stateless era (a client of that era sends nothing else
before its first request), so the mode slows the opening of an operation in either era.

It sits in front of the SDK's app, so the wait happens before the server has even read the
message: the client's leg takes that much longer, whichever transport mode is on.
"""

from __future__ import annotations

import json
from typing import Any

import anyio

HANDSHAKE_METHODS = frozenset({"initialize", "notifications/initialized", "server/discover"})

Scope = dict[str, Any]
Message = dict[str, Any]


class HandshakeDelay:
    """Wraps an ASGI app; POSTs of the :data:`HANDSHAKE_METHODS` wait ``delay_s`` first."""

    def __init__(self, app: Any, delay_s: float) -> None:
        self.app = app
        self.delay_s = delay_s

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if self.delay_s <= 0 or scope.get("type") != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        body = b""
        while True:
            message = await receive()
            messages.append(message)
            if message.get("type") != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        if _method(body) in HANDSHAKE_METHODS:
            await anyio.sleep(self.delay_s)

        async def replay() -> Message:
            # The body as it came, then whatever the client does next (e.g. disconnect).
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def _method(body: bytes) -> str | None:
    try:
        message = json.loads(body)
    except ValueError:
        return None
    return message.get("method") if isinstance(message, dict) else None
