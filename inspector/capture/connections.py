"""Bounding the receiver's connections, whatever the clients do: how long a request's head may take,
and how many connections are held at once.

Every connection has a thread of its own. A client that sends its request's head a byte at a time,
each just before the read timeout, held its thread for as long as it liked, and a few thousand such
clients made a few thousand threads. So, as HTTP servers do:

- a request's head (its request line and headers) must arrive whole within :data:`HEAD_DEADLINE_S` of
  its first byte, else it is answered 408 and the connection closed; a connection waiting for its next
  request is closed after :data:`IDLE_S` without a byte (:class:`HeadClock`);
- at most :data:`MOST_CONNECTIONS` connections are held (:class:`ConnectionSlots`). One more takes the
  place of the connection that has waited longest for a request's head (an idle keep-alive connection,
  or a slow client's), which is closed, as nginx closes idle connections when it runs out of them; when
  every one is busy reading, writing or answering a request, the newcomer is answered 503 (retry later)
  and closed. An exporter sends its head at once, so it is never the one waiting for it.
"""

from __future__ import annotations

import io
import select
import socket
import threading
import time
from collections.abc import Callable

MOST_CONNECTIONS = 100
"""How many connections are held at once (each has a thread)."""
IDLE_S = 30.0
"""How long a connection may wait without a byte for its next request before it is closed."""
HEAD_DEADLINE_S = 10.0
"""How long a request's head may take to arrive whole, from its first byte."""
BODY_DEADLINE_S = 30.0
"""How long a request's body may take to arrive whole, from the first byte read (the receiver's and the
recording proxy's: a client sending a byte now and then held its request for as long as it liked)."""
EVICT_WAIT_S = 1.0
"""How long a newcomer waits for the connection it replaces to be gone."""


class HeadClock:
    """When the head of the request a connection waits for must be in (one per connection)."""

    def __init__(self, idle_s: float = IDLE_S, head_s: float = HEAD_DEADLINE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.idle_s, self.head_s, self._clock = idle_s, head_s, clock
        self.active = self.started = self.timed_out = False
        self._until = 0.0

    def begin(self) -> None:
        """A request is waited for: its first byte within :attr:`idle_s`."""
        self.active, self.started, self.timed_out = True, False, False
        self._until = self._clock() + self.idle_s

    def end(self) -> None:
        """The head is in (the body has deadlines of its own)."""
        self.active = False

    def left(self) -> float:
        return self._until - self._clock()

    def received(self, count: int) -> None:
        if count and not self.started:  # the head began: the rest of it within head_s
            self.started = True
            self._until = self._clock() + self.head_s


class HeadTimedReader(io.RawIOBase):
    """The connection's bytes as the handler reads them (``raw``: its socket file), each read of a
    request's head given only the time its :class:`HeadClock` has left."""

    def __init__(self, raw: io.RawIOBase, sock: socket.socket, clock: HeadClock) -> None:
        super().__init__()
        self._raw, self._sock, self._clock = raw, sock, clock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview | bytearray) -> int | None:  # type: ignore[override]
        clock = self._clock
        if not clock.active:
            return self._raw.readinto(buffer)
        left = clock.left()
        if left <= 0:
            clock.timed_out = True
            raise TimeoutError("the request's head did not arrive in time")
        self._sock.settimeout(left)
        try:
            count = self._raw.readinto(buffer)
        except TimeoutError:
            clock.timed_out = True
            raise
        clock.received(count or 0)
        return count

    def close(self) -> None:
        self._raw.close()
        super().close()


class ConnectionSlots:
    """The connections held, and which of them wait for a request's head (oldest first)."""

    def __init__(self, most: int = MOST_CONNECTIONS, idle_s: float = IDLE_S, head_s: float = HEAD_DEADLINE_S,
                 evict_wait_s: float = EVICT_WAIT_S) -> None:
        self.most, self.idle_s, self.head_s, self.evict_wait_s = most, idle_s, head_s, evict_wait_s
        self._changed = threading.Condition()
        self._open = 0
        self._waiting: dict[socket.socket, None] = {}  # in the order they began to wait
        #: How many connections were closed to make room, and how many newcomers were refused.
        self.evicted = self.refused = 0

    @property
    def held(self) -> int:
        with self._changed:
            return self._open

    def admit(self, sock: socket.socket) -> bool:
        """Hold ``sock`` (from the accepting thread): True, or False when every slot is busy."""
        with self._changed:
            if self._open >= self.most and self._waiting:
                oldest = next(iter(self._waiting))
                del self._waiting[oldest]
                _hang_up(oldest)  # its thread sees the end of its input, and ends
                self.evicted += 1
                self._changed.wait_for(lambda: self._open < self.most, self.evict_wait_s)
            if self._open >= self.most:
                self.refused += 1
                return False
            self._open += 1
            return True

    def waiting(self, sock: socket.socket) -> None:
        """``sock`` waits for a request's head: it may be closed to make room."""
        with self._changed:
            self._waiting.pop(sock, None)
            self._waiting[sock] = None

    def busy(self, sock: socket.socket) -> None:
        """``sock``'s request is being read or answered: it is not closed to make room."""
        with self._changed:
            self._waiting.pop(sock, None)

    def release(self, sock: socket.socket) -> None:
        """``sock``'s thread has ended."""
        with self._changed:
            self._waiting.pop(sock, None)
            self._open -= 1
            self._changed.notify_all()


def _hang_up(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already gone


__all__ = ["BODY_DEADLINE_S", "EVICT_WAIT_S", "HEAD_DEADLINE_S", "IDLE_S", "MOST_CONNECTIONS", "ConnectionSlots",
           "HeadClock", "HeadTimedReader"]


def client_left(sock: socket.socket) -> bool:
    """Whether the client has closed its side of ``sock`` (an exporter whose time-out ran out while its request
    was written): the end of its stream is there to read, and nothing before it. Nothing is read."""
    try:
        return _readable(sock) and sock.recv(1, socket.MSG_PEEK) == b""
    except (OSError, ValueError):  # reset by the client, or closed here
        return True


def _readable(sock: socket.socket) -> bool:
    """Whether ``sock`` has something to read now (its end counts). By poll where there is one: select refuses a
    descriptor past 1,023, which a process allowed more files reaches (each request was said stopped waiting)."""
    if not hasattr(select, "poll"):  # Windows: its select takes a socket of any number
        return bool(select.select([sock], [], [], 0)[0])
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))
