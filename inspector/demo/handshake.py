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
            came = await self._wait(receive)
            if came is not None:
                if came.get("type") == "http.disconnect":
                    return  # the client gave up waiting (a cancel): nothing to answer
                messages.append(came)

        async def replay() -> Message:
            # The body as it came, then whatever the client does next (e.g. disconnect).
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


    async def _wait(self, receive: Any) -> Message | None:
        """Wait ``delay_s``, or less if the client sends something meanwhile (a disconnect: it
        cancelled): that message, else ``None``. A request left sleeping after its client had gone
        was cut off when the server stopped, and the server's log printed the cut as a traceback
        (``scenario slow-handshake --cancel-after 0.5``)."""
        came: list[Message] = []
        async with anyio.create_task_group() as group:

            async def listen() -> None:
                came.append(await receive())
                group.cancel_scope.cancel()

            group.start_soon(listen)
            await anyio.sleep(self.delay_s)
            group.cancel_scope.cancel()
        return came[0] if came else None


def _method(body: bytes) -> str | None:
    try:
        message = json.loads(body)
    except ValueError:
        return None
    return message.get("method") if isinstance(message, dict) else None
