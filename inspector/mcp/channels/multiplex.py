"""Requests of several operations in flight on one shared line to a server, each answer to its asker.

A child process's pipes and the older HTTP+SSE transport's event stream carry every operation's
messages at once. Each request gets an id unique on the line (two operations may both call theirs
"1"); the answer with that id goes back to its asker with the asker's id restored; everything else
the server sends goes to ``on_message``. An asker that gives up (a cancel, a deadline) makes the
server be told at once with ``notifications/cancelled``; an answer arriving after that is ignored,
as the protocol says. ``initialize`` alone is never cancelled (the lifecycle forbids it).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

Send = Callable[[dict[str, Any]], Awaitable[None]]


class Multiplexer:
    """The requests in flight on one line; ``send`` writes one message to it."""

    def __init__(self, send: Send, on_message: Callable[[dict[str, Any]], None] | None = None) -> None:
        self._send = send
        self._on_message = on_message
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next_id = 0
        self._closed: Callable[[], BaseException] | None = None

    @property
    def in_flight(self) -> int:
        return len(self._pending)

    async def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Send a request and return its answer (with the caller's ``id`` back)."""
        if self._closed is not None:
            raise self._closed()
        self._next_id += 1
        wire_id = self._next_id
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[wire_id] = answer
        try:
            await self._send({**message, "id": wire_id})
            result = await answer
        except asyncio.CancelledError:
            answered = answer.done() and not answer.cancelled()  # the caller's cancel cancels the future too
            if not answered and self._closed is None and message.get("method") != "initialize":
                # Said at once, shielded: the caller is gone, the notice still goes out.
                notice = {"jsonrpc": "2.0", "method": "notifications/cancelled",
                          "params": {"requestId": wire_id, "reason": "The client cancelled the operation."}}
                with contextlib.suppress(Exception):
                    await asyncio.shield(self._send(notice))
            raise
        finally:
            self._pending.pop(wire_id, None)
        return {**result, "id": message.get("id")}

    def dispatch(self, message: dict[str, Any]) -> None:
        """A message the server sent: an answer goes to its asker, anything else to ``on_message``."""
        wire_id = message.get("id")
        is_answer = "method" not in message and ("result" in message or "error" in message)
        if is_answer:
            answer = self._pending.get(wire_id) if type(wire_id) is int else None
            if answer is not None and not answer.done():
                answer.set_result(message)
            return  # else an answer to a request already given up (a cancel races it): ignored
        if self._on_message is not None:
            self._on_message(message)

    def fail(self, wire_id: int, error: BaseException) -> None:
        """The answer to request ``wire_id`` arrived but cannot be read: its asker gets ``error``
        (nothing happens when it was answered or given up already)."""
        answer = self._pending.get(wire_id)
        if answer is not None and not answer.done():
            answer.set_exception(error)

    def close(self, reason: Callable[[], BaseException]) -> None:
        """The line is gone: every asker gets the error ``reason()`` makes, and so does every later request."""
        self._closed = reason
        for answer in self._pending.values():
            if not answer.done():
                answer.set_exception(reason())


__all__ = ["Multiplexer"]
