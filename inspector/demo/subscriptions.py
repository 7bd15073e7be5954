"""The demo server's resource that changes, ``demo://clock``, and subscriptions to it in both eras.

The clock ticks every ``DemoOptions.update_interval_s`` seconds while anyone is subscribed; each
tick is an update to every subscriber:

- handshake era: ``resources/subscribe`` / ``resources/unsubscribe`` keep the session's
  subscriptions; a tick sends ``notifications/resources/updated`` to each subscribed session
  (the SDK puts a notification unrelated to a request on the session's standalone stream);
- stateless era: the SDK's :class:`ListenHandler` honours ``resourceSubscriptions`` in a
  ``subscriptions/listen`` request; a tick publishes a :class:`ResourceUpdated` on its bus, which
  reaches the streams subscribed to the clock.

The ticking task starts with the first subscription (of either era) and runs while the server runs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.subscriptions import InMemorySubscriptionBus, ListenHandler, ResourceUpdated

from .words import ENGLISH, DemoWords

CLOCK_URI = "demo://clock"


def clock_resource(_: DemoWords = ENGLISH) -> types.Resource:
    """The clock's entry in ``resources/list``, in the language of ``_``."""
    return types.Resource(name="clock", title=_("A clock that ticks"), uri=CLOCK_URI, mime_type="text/plain",
                          description=_("The time of the last tick; subscribe to hear each tick."))


class ResourceTicker:
    """Who is subscribed to the clock, and the task that ticks it."""

    def __init__(self, interval_s: float, words: DemoWords = ENGLISH) -> None:
        self.interval_s = interval_s
        self.words = words
        self.bus = InMemorySubscriptionBus()
        self.listen = ListenHandler(self.bus)
        self.ticks = 0
        self.last_tick = datetime.now(timezone.utc)
        #: The sessions of the handshake era subscribed to the clock, by their ``Mcp-Session-Id``
        #: (the SDK's ``ctx.session`` is a proxy made anew for every request).
        self._sessions: dict[str, Any] = {}
        self._task: asyncio.Task[None] | None = None
        #: Whether a session (by its id) still stands; the SDK sends to an ended one without a word,
        #: so an ended session is dropped by asking this (set by the app: its session manager's).
        self.alive: Callable[[str], bool] = lambda key: True

    def text(self) -> str:
        """What ``resources/read`` of the clock says."""
        _ = self.words
        return _("Tick {count} at {time} UTC.").format(count=self.ticks, time=f"{self.last_tick:%H:%M:%S}")

    def handlers(self) -> dict[str, Any]:
        """The low-level server's handlers for subscribing (both eras)."""
        return {"on_subscribe_resource": self.subscribe, "on_unsubscribe_resource": self.unsubscribe,
                "on_subscriptions_listen": self.listen_request}

    async def subscribe(self, ctx: ServerRequestContext[Any],
                        params: types.SubscribeRequestParams) -> types.EmptyResult:
        if str(params.uri) == CLOCK_URI:
            self._sessions[_session_key(ctx)] = ctx.session
            self._start()
        return types.EmptyResult()

    async def unsubscribe(self, ctx: ServerRequestContext[Any],
                          params: types.UnsubscribeRequestParams) -> types.EmptyResult:
        if str(params.uri) == CLOCK_URI:
            self._sessions.pop(_session_key(ctx), None)
        return types.EmptyResult()

    async def listen_request(self, ctx: ServerRequestContext[Any], params: Any) -> Any:
        if CLOCK_URI in (params.notifications.resource_subscriptions or ()):
            self._start()
        return await self.listen(ctx, params)

    @property
    def subscribed_sessions(self) -> int:
        return len(self._sessions)

    def _start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._tick(), name="demo-clock")

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.interval_s)
            self.ticks += 1
            self.last_tick = datetime.now(timezone.utc)
            for key, session in list(self._sessions.items()):
                if not self.alive(key):
                    self._sessions.pop(key, None)
                    continue
                try:
                    await session.send_resource_updated(CLOCK_URI)
                except Exception:  # noqa: BLE001 - a session that ended: it hears no more
                    self._sessions.pop(key, None)
            with contextlib.suppress(Exception):
                await self.bus.publish(ResourceUpdated(uri=CLOCK_URI))


def _session_key(ctx: ServerRequestContext[Any]) -> str:
    headers = getattr(ctx.request, "headers", None)
    value = headers.get("mcp-session-id") if headers is not None else None
    return f"mcp-{value}" if isinstance(value, str) and value else f"connection-{id(ctx.session._connection)}"  # noqa: SLF001


__all__ = ["CLOCK_URI", "ResourceTicker", "clock_resource"]
