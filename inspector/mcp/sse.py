"""Incremental unframing of a server-sent event stream into event data strings."""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterable, AsyncIterator


class Event(str):
    """The data of one event (a ``str``), and its type: the ``event:`` field, "message" without one."""

    name: str

    def __new__(cls, data: str, name: str = "message") -> Event:
        event = super().__new__(cls, data)
        event.name = name
        return event


class EventStreamParser:
    """Feed decoded text, get the ``data`` of each complete event.

    Lines end in CRLF, CR or LF; a blank line ends an event; ``data:`` lines (one leading space
    dropped) are joined with ``\\n``; ``:`` comments are ignored; each data is an :class:`Event`
(a ``str`` that also knows its ``event:`` type, which the older HTTP+SSE transport uses). :meth:`close`
    returns a last event that had no closing blank line.

    ``id:`` and ``retry:`` are kept for resumption: :attr:`last_event_id` is the last id the
    stream gave (an event with an id and empty data, the *priming event*, sets it too), and
    :attr:`retry_ms` the last reconnection delay it asked for.
    """

    def __init__(self) -> None:
        self._pending = ""
        self._data: list[str] = []
        self._has_data = False
        self._name = "message"
        self.last_event_id: str | None = None
        self.retry_ms: int | None = None

    def feed(self, text: str) -> list[str]:
        """Add text; return the data of every event it completed."""
        self._pending += text
        return self._drain(final=False)

    def close(self) -> list[str]:
        """End of stream: a last event without a closing blank line still counts."""
        events = self._drain(final=True)
        if self._pending:
            self._line(self._pending, events)
            self._pending = ""
        if self._has_data:
            events.append(Event("\n".join(self._data), self._name))
            self._data, self._has_data, self._name = [], False, "message"
        return events

    def _drain(self, final: bool) -> list[str]:
        events: list[str] = []
        buffer = self._pending
        start = 0
        while True:
            cut = _next_line_end(buffer, start)
            if cut is None:
                break
            end, after = cut
            if not final and after == end + 1 and buffer[end] == "\r" and after == len(buffer):
                break  # a CR at the very end may be the first half of CRLF: wait for more
            self._line(buffer[start:end], events)
            start = after
        self._pending = buffer[start:]
        return events

    def _line(self, line: str, events: list[str]) -> None:
        if line == "":
            if self._has_data:
                events.append(Event("\n".join(self._data), self._name))
            self._data, self._has_data, self._name = [], False, "message"
            return
        if line.startswith(":"):
            return
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "id" and "\x00" not in value:
            self.last_event_id = value
            return
        if field == "retry" and value.isascii() and value.isdigit():
            self.retry_ms = int(value)
            return
        if field == "event":
            self._name = value or "message"
            return
        if field != "data":
            return
        self._data.append(value)
        self._has_data = True


def _next_line_end(buffer: str, start: int) -> tuple[int, int] | None:
    """Index of the next line break at or after ``start`` and the index after it."""
    cr = buffer.find("\r", start)
    lf = buffer.find("\n", start)
    if cr == -1 and lf == -1:
        return None
    if cr == -1 or (lf != -1 and lf < cr):
        return lf, lf + 1
    if cr + 1 < len(buffer) and buffer[cr + 1] == "\n":
        return cr, cr + 2
    return cr, cr + 1


def unframe(text: str) -> list[str]:
    """All event data strings of a complete stream."""
    parser = EventStreamParser()
    return parser.feed(text) + parser.close()


class EventTooLarge(Exception):
    """More than the allowed number of bytes arrived without completing an event."""


async def stream_events(chunks: AsyncIterable[bytes], parser: EventStreamParser,
                        max_event_bytes: int) -> AsyncIterator[str]:
    """The data of each event of a byte stream, as it completes (invalid UTF-8 replaced), then a
    last unterminated one; :class:`EventTooLarge` when ``max_event_bytes`` pass without an event."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    since_event = 0
    async for chunk in chunks:
        since_event += len(chunk)
        found = parser.feed(decoder.decode(chunk))
        for data in found:
            yield data
        if found:
            since_event = 0
        elif since_event > max_event_bytes:
            raise EventTooLarge()
    for data in parser.feed(decoder.decode(b"", final=True)) + parser.close():
        yield data
