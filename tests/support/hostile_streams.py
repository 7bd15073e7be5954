"""Hostile standalone streams for :class:`~tests.support.fault_server.FaultServer`: a flood of
``ping`` requests on ``GET``, a stream that says ``retry: 0`` and closes at once, and a taker of
the client's replies that counts how many it holds at once (and can hold them forever).

A test whose client can hang (its event loop stuck) runs it through :func:`run_bounded`, so that
the test fails after a bound instead of hanging the suite.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from .fault_server import Exchange

#: The notice a flood ends with: once the client reports it, it has read every request before it.
END_NOTICE = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "end"}}


def ping_flood(count: int, *, first_id: int = 1) -> Callable[[Exchange], None]:
    """A ``GET`` handler: ``count`` pings in one burst, then :data:`END_NOTICE`, then held open."""
    burst = "".join(f"data: {json.dumps({'jsonrpc': '2.0', 'id': first_id + n, 'method': 'ping'})}\n\n"
                    for n in range(count)) + f"data: {json.dumps(END_NOTICE)}\n\n"

    def get(exchange: Exchange) -> None:
        exchange.open_stream()
        if exchange.write_raw(burst):
            exchange.hold_open()

    return get


def retry_zero_and_close(exchange: Exchange) -> None:
    """A ``GET`` handler: an event id, ``retry: 0``, a priming event, and the stream closes."""
    exchange.open_stream()
    exchange.write_raw("id: hostile-1\nretry: 0\ndata: \n\n")


class ReplyTaker:
    """A ``notification`` handler for the client's POSTed replies (and notifications): each reply is
    held ``hold_s`` before ``202`` (``stall``: held until the client leaves or the server stops).
    ``peak`` is the most replies held at once, ``taken`` how many arrived."""

    def __init__(self, hold_s: float = 0.05, *, stall: bool = False) -> None:
        self.hold_s = hold_s
        self.stall = stall
        self._lock = threading.Lock()
        self.now = 0
        self.peak = 0
        self.taken = 0

    def __call__(self, exchange: Exchange) -> None:
        if exchange.request.is_notification:  # notifications/initialized: at once
            exchange.send(202, b"", content_type=None)
            return
        with self._lock:
            self.now += 1
            self.taken += 1
            self.peak = max(self.peak, self.now)
        try:
            if self.stall:
                exchange.stall()
            elif not exchange.server.stopping.wait(self.hold_s):
                exchange.send(202, b"", content_type=None)
        finally:
            with self._lock:
                self.now -= 1


def call_bounded(work: Callable[[], Any], limit_s: float) -> Any:
    """``work()`` on a thread of its own; fails the test when it takes over ``limit_s`` (a client
    whose event loop is stuck in its own work cannot be interrupted: its daemon thread is left)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    thread = threading.Thread(target=target, name="bounded-client", daemon=True)
    thread.start()
    thread.join(limit_s)
    if thread.is_alive():
        raise AssertionError(f"the client did not finish within {limit_s} s")
    if "error" in box:
        raise box["error"]
    return box["value"]


def run_bounded(make: Callable[[], Coroutine[Any, Any, Any]], limit_s: float) -> Any:
    """``asyncio.run(make())`` through :func:`call_bounded`."""
    return call_bounded(lambda: asyncio.run(make()), limit_s)
