"""Cancel by closing the stream, in the JSON response mode too.

In the stateless era (2026-07-28) a client cancels a request by closing its response stream; there
is no ``notifications/cancelled``. The SDK notices the close when it answers with an event stream,
but a request answered with one JSON body runs its handler without listening to the connection,
so the handler would run on after the client left. This ASGI layer listens for the disconnect of
such a request and cancels the request's work. Requests of the handshake era pass untouched (their
handler runs in the session, and the client names the request it cancels).
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

Scope = dict[str, Any]
Message = dict[str, Any]
_VERSION_HEADER = b"mcp-protocol-version"


class CancelOnClose:
    """Wraps an ASGI app: a stateless-era POST whose client disconnects has its handling cancelled."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST" or not _is_stateless(scope):
            await self.app(scope, receive, send)
            return
        body: list[Message] = []
        while True:  # the whole body first: after it, the only thing left to hear is the disconnect
            message = await receive()
            body.append(message)
            if message.get("type") != "http.request" or not message.get("more_body", False):
                break
        gone = anyio.Event()
        whole = body[-1].get("type") == "http.request"  # else the client left while sending it

        async def replay() -> Message:
            if body:
                return body.pop(0)
            await gone.wait()
            return {"type": "http.disconnect"}

        async with anyio.create_task_group() as group:
            async def listen() -> None:
                if whole:
                    while (await receive()).get("type") != "http.disconnect":
                        pass
                gone.set()
                group.cancel_scope.cancel()

            group.start_soon(listen)
            await self.app(scope, replay, send)
            group.cancel_scope.cancel()


def _is_stateless(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == _VERSION_HEADER:
            return value.decode("latin-1") in MODERN_PROTOCOL_VERSIONS
    return False
