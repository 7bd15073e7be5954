"""A server that floods ``notifications/message`` (issue 18, item 7), on the fault server.

Every session's standalone ``GET`` stream is held open and served from a queue of orders:
:meth:`LogFlood.flood_listening` writes N log messages on each stream still open of a session
not ended with ``DELETE`` (the window's listening session, once the operations' sessions are
over); a ``tools/call`` of ``flood`` (``{"lines": N}``) writes N on the standalone stream of the
call's own session (where a server sends what no request asked for), then answers. Lines are
written as fast as the socket takes them, :data:`CHUNK` in one write.
"""

from __future__ import annotations

import json
import queue
import threading
import time

from .fault_server import Exchange, FaultServer

#: Messages written with one socket write (a flooding server fills the socket, not one line per write).
CHUNK = 500
TOOL = {"name": "flood", "description": "Logs many lines, then answers.",
        "inputSchema": {"type": "object", "properties": {"lines": {"type": "integer"}}}}


def message_events(first: int, count: int, total: int, pad: int = 0) -> str:
    """``count`` log messages as event-stream text, numbered from ``first`` (1-based); ``pad``
    characters more in each message's data."""
    return "".join(
        "data: " + json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {
            "level": ("info", "debug", "warning")[number % 3], "logger": "flood",
            "data": f"line {number} of {total}: the server is busy and says so, again and again" + "." * pad}})
        + "\n\n"
        for number in range(first, first + count))


class LogFlood:
    """The flooding server: :attr:`server` (a :class:`FaultServer`, "session" profile) and its streams."""

    def __init__(self, pad: int = 0) -> None:
        self.pad = pad
        self._lock = threading.Lock()
        self._open: dict[str, queue.Queue[int]] = {}
        self.server = FaultServer("session", work=self._work, get=self._serve_stream)
        self.server.initialize = lambda exchange: self.server.answer_initialize(
            exchange, capabilities={"tools": {}, "logging": {}})
        self.url = self.server.url

    def close(self) -> None:
        self.server.close()

    def __enter__(self) -> LogFlood:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def flood_listening(self, lines: int) -> int:
        """Write ``lines`` messages on every stream of a session still standing; how many streams."""
        ended = {received.headers.get("mcp-session-id") for received in self.server.received
                 if received.http_method == "DELETE"}
        with self._lock:
            targets = [orders for session, orders in self._open.items() if session not in ended]
        for orders in targets:
            orders.put(lines)
        for orders in targets:
            orders.join()
        return len(targets)

    def _flood(self, exchange: Exchange, lines: int) -> bool:
        for first in range(1, lines + 1, CHUNK):
            if not exchange.write_raw(message_events(first, min(CHUNK, lines - first + 1), lines, self.pad)):
                return False
        return True

    def _serve_stream(self, exchange: Exchange) -> None:
        session = exchange.request.headers.get("mcp-session-id", "")
        orders: queue.Queue[int] = queue.Queue()
        with self._lock:
            self._open[session] = orders
        exchange.open_stream()
        try:
            while not exchange.server.stopping.is_set():
                try:
                    lines = orders.get(timeout=0.05)
                except queue.Empty:
                    if exchange._client_left():
                        return
                    continue
                self._flood(exchange, lines)
                orders.task_done()
        finally:
            with self._lock:
                if self._open.get(session) is orders:
                    del self._open[session]

    def _flood_session(self, session: str, lines: int, wait_s: float = 5.0) -> bool:
        """Flood the session's own stream (the client opens it beside its first request)."""
        end = time.monotonic() + wait_s
        while time.monotonic() < end:
            with self._lock:
                orders = self._open.get(session)
            if orders is not None:
                orders.put(lines)
                orders.join()
                return True
            self.server.stopping.wait(0.01)
        return False

    def _work(self, exchange: Exchange) -> None:
        method = exchange.request.rpc_method
        params = exchange.request.params or {}
        if method == "tools/list":
            exchange.send_result({"tools": [TOOL]})
        elif method == "tools/call":
            lines = int((params.get("arguments") or {}).get("lines", 1000))
            if self._flood_session(exchange.request.headers.get("mcp-session-id", ""), lines):
                exchange.send_result({"content": [{"type": "text", "text": f"logged {lines} lines"}]})
            else:
                exchange.send_rpc_error(-32603, "the session opened no standalone stream")
        else:
            exchange.send_result({})
