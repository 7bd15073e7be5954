"""Bounding the proxy's connections, whatever agents do: how long a request's head may take, and how
many connections are held at once (the receiver's rules, :mod:`inspector.capture.connections`).

uvicorn reads a request's head without a deadline and takes every connection it is offered: 5,000
connections that sent nothing were all held (some 50 MB), and under the usual limit of 1,024 open files
a few hundred more than that left the proxy no descriptor to take an agent's connection or to reach the
server, so no agent was served. So, as the receiver does:

- a request's head (request line and headers) must arrive whole within :data:`HEAD_DEADLINE_S` of its
  first byte, else it is answered 408 and the connection closed; a connection waiting for its first
  request without a byte is closed after :data:`IDLE_S` (uvicorn closes one idle after an answer sooner);
- at most :func:`most_connections` connections are held. One more takes the place of the connection that
  has waited longest for a request's head (idle, or a slow client's), which is closed; when every one is
  busy (reading a body, forwarding, an open event stream), the newcomer is answered 503 (retry later) and
  closed. An agent sends its head at once, so it is never the one waiting for it. The bound leaves room,
  within the process's limit of open files, for a connection to the server per busy connection.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import OrderedDict
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from inspector.capture.connections import HEAD_DEADLINE_S, IDLE_S

from .gate import PROXY_ERROR_CODE

try:
    import resource
except ImportError:  # Windows: no limit of open files to read
    resource = None  # type: ignore[assignment]

MOST_CONNECTIONS = 1_000
"""The most connections held at once where the limit of open files allows it (agents with many sessions,
each with its event streams, stay well within it)."""
SPARE_FILES = 64
"""Open files kept out of the bound for the rest of the process (the database, logs, the listening socket)."""


def most_connections(limit: int = MOST_CONNECTIONS) -> int:
    """How many agents' connections may be held: :data:`MOST_CONNECTIONS`, or fewer when the process may
    not open enough files for each of them and a connection to the server besides (1,024 open files: 480)."""
    if resource is None:
        return limit
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limit
    return max(8, min(limit, (soft - SPARE_FILES) // 2))


def _refusal(status: str, sentence: str, *extra: str) -> bytes:
    """The proxy's own answer to a connection it will not serve, as :func:`.gate.answer_refusal` words one."""
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": PROXY_ERROR_CODE, "message": sentence}})
    head = [f"HTTP/1.1 {status}", "Content-Type: application/json", f"Content-Length: {len(body)}", *extra,
            "Connection: close"]
    return ("\r\n".join(head) + "\r\n\r\n" + body).encode()


class ConnectionBounds:
    """The connections of one proxy: which wait for a request's head (longest first), and their deadlines."""

    def __init__(self, most: int | None = None, *, idle_s: float = IDLE_S, head_s: float = HEAD_DEADLINE_S) -> None:
        self.most = most_connections() if most is None else most
        self.idle_s, self.head_s = idle_s, head_s
        self.held = 0
        #: The connections waiting for a request's head, the one waiting longest first.
        self.waiting: OrderedDict[Any, None] = OrderedDict()
        #: How many connections were closed to make room, and how many newcomers were answered 503 (figures).
        self.evicted = self.refused = 0

    def protocol(self) -> type[asyncio.Protocol]:
        """uvicorn's HTTP protocol, bounded by this object (for ``uvicorn.Config(http=...)``)."""
        return _bounded_protocol(self)

    def arrived(self, connection: Any) -> bool:
        """A connection is made: make room for it; ``False`` when there is none (it was answered 503)."""
        self.held += 1
        if self.held > self.most:
            oldest = next((held for held in self.waiting if held is not connection), None)
            if oldest is None:
                self.refused += 1
                connection.transport.write(_refusal(
                    "503 Service Unavailable", f"Run Inspector's proxy holds {self.most} connections, all busy; "
                                               "retry later.", "Retry-After: 1"))
                connection.transport.close()
                return False
            self.evicted += 1
            self.left(oldest)
            oldest.transport.close()
        self.wait_for_head(connection, self.idle_s)
        return True

    def wait_for_head(self, connection: Any, within_s: float) -> None:
        self.waiting[connection] = None
        self.waiting.move_to_end(connection)
        connection.arm_head_timer(within_s)

    def busy(self, connection: Any) -> None:
        self.waiting.pop(connection, None)
        connection.arm_head_timer(None)

    def left(self, connection: Any) -> None:
        if connection.counted:
            connection.counted = False
            self.held -= 1
        self.busy(connection)


def _bounded_protocol(bounds: ConnectionBounds) -> type[asyncio.Protocol]:

    class BoundedHTTPProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
        """uvicorn's protocol, its connections bounded (see the module)."""

        counted = False
        _head_began: float | None = None
        _timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self.counted = True
            bounds.arrived(self)

        def _waiting_for_head(self) -> bool:
            return self.cycle is None or self.cycle.response_complete

        def data_received(self, data: bytes) -> None:
            if self.counted and self._head_began is None and self._waiting_for_head():  # whole within head_s
                self._head_began = time.monotonic()
                bounds.wait_for_head(self, bounds.head_s)
            super().data_received(data)
            if not self._waiting_for_head() and self.counted:
                self._head_began = None
                bounds.busy(self)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._waiting_for_head() and self.counted and not self.transport.is_closing():
                self._head_began = None
                bounds.wait_for_head(self, bounds.idle_s)

        def arm_head_timer(self, within_s: float | None) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if within_s is not None:
                self._timer = asyncio.get_running_loop().call_later(within_s, self._head_late)

        def _head_late(self) -> None:
            self._timer = None
            if not self._waiting_for_head() or self.transport.is_closing():
                return
            if self._head_began is not None:
                self.transport.write(_refusal(
                    "408 Request Timeout", f"Run Inspector's proxy waited {bounds.head_s:g} s for the request's head "
                                           "(request line and headers), which did not come whole; nothing was "
                                           "forwarded."))
            bounds.left(self)
            self.transport.close()

        def connection_lost(self, exc: Exception | None) -> None:
            bounds.left(self)
            super().connection_lost(exc)

    return BoundedHTTPProtocol


__all__ = ["MOST_CONNECTIONS", "ConnectionBounds", "most_connections"]
