"""Small official-SDK servers for the tests of resource subscriptions: one that offers resources but
no subscriptions, and misbehaving ones (it refuses ``resources/subscribe``, it sends updates for a
resource never subscribed to, it floods updates)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from tests.support.asgi_server import serve_asgi

WATCHED = "test://watched"
OTHER = "test://never-subscribed"
#: How many updates the flooding server sends at once.
FLOOD = 5000


def _server(mode: str, seen: list[str]) -> Server[Any]:
    async def list_resources(ctx: Any, params: Any) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=[types.Resource(name="watched", uri=WATCHED)])

    async def read_resource(ctx: Any, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        return types.ReadResourceResult(contents=[types.TextResourceContents(uri=str(params.uri), text="x")])

    async def send(session: Any, uri: str, count: int) -> None:
        for _ in range(count):
            await session.send_resource_updated(uri)

    async def subscribe(ctx: Any, params: types.SubscribeRequestParams) -> types.EmptyResult:
        seen.append(f"subscribe {params.uri}")
        if mode == "refuses":
            raise MCPError(code=types.INVALID_PARAMS, message="subscriptions are closed today")
        uri, count = (OTHER, 3) if mode == "unsolicited" else (WATCHED, FLOOD if mode == "flood" else 1)
        asyncio.get_running_loop().create_task(send(ctx.session, uri, count))
        if mode == "unsolicited":  # and one real update after them, so that a test knows they went out
            asyncio.get_running_loop().create_task(send(ctx.session, WATCHED, 1))
        return types.EmptyResult()

    async def unsubscribe(ctx: Any, params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        seen.append(f"unsubscribe {params.uri}")
        return types.EmptyResult()

    handlers: dict[str, Any] = {"on_list_resources": list_resources, "on_read_resource": read_resource}
    if mode != "plain":
        handlers.update(on_subscribe_resource=subscribe, on_unsubscribe_resource=unsubscribe)
    return Server(f"subscriptions-{mode}", **handlers)


@contextmanager
def subscription_server(mode: str, seen: list[str] | None = None) -> Iterator[str]:
    """A handshake-era server on a free port: ``plain`` (resources, no subscriptions), ``refuses``,
    ``unsolicited`` or ``flood``; ``seen`` collects the subscribe requests it got."""
    server = _server(mode, seen if seen is not None else [])
    with serve_asgi(server.streamable_http_app(host="127.0.0.1")) as url:
        yield url


__all__ = ["FLOOD", "OTHER", "WATCHED", "subscription_server"]
