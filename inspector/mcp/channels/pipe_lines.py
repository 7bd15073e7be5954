"""Lines from a server's stdout: whole lines, a line too long dropped, and a line left unended noticed.

Every message on stdio ends with a newline; a server that forgets it (``write(json)`` without
``"\\n"``, or a write cut short while the server hangs) leaves its answer unread until the deadline.
:class:`PipeLines` says so once that part of a line has waited :data:`UNENDED_S` without its end.

A line over the limit is read to its end and not kept, but its first and last bytes are
(:class:`TooLong`): enough to tell whose answer it was (:mod:`.line_glimpse`).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from .line_glimpse import EDGE_BYTES

#: Bytes read from the pipe at a time.
CHUNK = 64 * 1024
#: How long a part of a line waits for its newline before it is said to be unended.
UNENDED_S = 1.0


@dataclass(frozen=True)
class Unended:
    """Part of a line that has waited :data:`UNENDED_S` without a newline: its beginning and length."""

    head: bytes
    size: int


@dataclass(frozen=True)
class TooLong:
    """A line longer than the limit, read to its end and not kept: its size (without the newline,
    or up to the end of the stream), and its first and last :data:`~.line_glimpse.EDGE_BYTES`."""

    size: int
    head: bytes
    tail: bytes


class PipeLines:
    """``await next()``: a line (with its newline), a :class:`TooLong`, an :class:`Unended` notice,
    or ``b""`` at the end of the stream (after a last line without newline, if any)."""

    def __init__(self, stream: asyncio.StreamReader, limit: int, unended_s: float = UNENDED_S) -> None:
        self._stream = stream
        self._limit = limit
        self._unended_s = unended_s
        self._buffer = bytearray()
        self._scanned = 0  # where the search for the next newline goes on from
        self._dropping: TooLong | None = None  # inside a line over the limit: what is kept of it
        self._noticed = False  # the unended line in the buffer was said already
        self._ended = False

    async def next(self) -> bytes | Unended | TooLong:
        while True:
            end = self._buffer.find(b"\n", self._scanned)
            if end >= 0:
                line = bytes(self._buffer[:end + 1])
                del self._buffer[:end + 1]
                self._scanned, self._noticed = 0, False
                if self._dropping is not None:
                    return self._dropped(line[:-1])
                return line
            self._scanned = len(self._buffer)
            if self._ended:
                line, self._buffer, self._scanned = bytes(self._buffer), bytearray(), 0
                if self._dropping is not None:
                    return self._dropped(line)
                return line
            if len(self._buffer) > self._limit:
                self._dropping = self._dropping or TooLong(0, bytes(self._buffer[:EDGE_BYTES]), b"")
                self._keep_dropped(bytes(self._buffer))
                self._buffer.clear()
                self._scanned = 0
            waiting = bool(self._buffer) and not self._noticed and self._dropping is None
            try:
                if waiting:
                    chunk = await asyncio.wait_for(self._stream.read(CHUNK), self._unended_s)
                else:
                    chunk = await self._stream.read(CHUNK)
            except (TimeoutError, asyncio.TimeoutError):
                self._noticed = True
                return Unended(bytes(self._buffer[:120]), len(self._buffer))
            if not chunk:
                self._ended = True
            self._buffer += chunk

    def _keep_dropped(self, part: bytes) -> None:
        assert self._dropping is not None
        kept = self._dropping
        self._dropping = TooLong(kept.size + len(part), kept.head, (kept.tail + part[-EDGE_BYTES:])[-EDGE_BYTES:])

    def _dropped(self, last: bytes) -> TooLong:
        self._keep_dropped(last)
        dropped, self._dropping = self._dropping, None
        assert dropped is not None
        return dropped


__all__ = ["CHUNK", "UNENDED_S", "PipeLines", "TooLong", "Unended"]
