"""Limits that keep a standalone stream safe from its server: how many of the server's requests
are answered at once, and how soon a stream that ended is opened again.

A server decides what it sends on its ``GET`` stream and when it closes it. Without limits, a
server sending 30,000 ``ping`` requests made 30,000 reply tasks (each an HTTP ``POST`` queued in
one connection pool, whose bookkeeping grows with the queue: the loop stalled for minutes), and
a server closing its stream at once with ``retry: 0`` was reconnected to hundreds of times a
second. :class:`RequestGate` answers at most :data:`MAX_REQUESTS_IN_FLIGHT` requests at a time
and drops the rest, counted; :func:`reconnect_delay` never returns less than
:data:`MIN_RECONNECT_S` and doubles the wait while streams keep ending at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from .messages import NP_, Message, Number

#: The most requests of the server being answered at a time, on one stream. A well-behaved server
#: asks one thing and waits (a ping, its roots): sixteen is room for bursts, and bounds the tasks,
#: the connections and the memory a flood can take.
MAX_REQUESTS_IN_FLIGHT = 16
#: How long the count of dropped requests gathers before it is reported: a flood gives one note
#: (per this many seconds while it lasts), not one per request.
DROP_NOTE_S = 2.0
#: The shortest wait before a stream that ended is opened again, whatever ``retry:`` the server
#: asked for (``retry: 0`` included).
MIN_RECONNECT_S = 1.0
#: The longest wait: the doubling stops here, and a larger ``retry:`` is cut to it.
MAX_RECONNECT_S = 30.0
#: A stream that ends sooner than this after it opened ended "at once": the next wait doubles.
IMMEDIATE_CLOSE_S = 1.0


def reconnect_delay(retry_ms: int | None, in_a_row: int, default_ms: int = 1000) -> float:
    """Seconds to wait before opening a stream again.

    ``retry_ms`` is what the server asked for (``None``: ``default_ms``); ``in_a_row`` counts the
    attempts that failed or ended at once, one after another. The wait is at least
    :data:`MIN_RECONNECT_S`, doubled for each such attempt after the first, and the server's
    larger ``retry`` is honoured; never more than :data:`MAX_RECONNECT_S`.
    """
    asked_s = (retry_ms if retry_ms is not None else default_ms) / 1000
    floor_s = MIN_RECONNECT_S * 2 ** min(max(in_a_row - 1, 0), 16)  # 2**16 s is past the cap already
    return min(max(asked_s, floor_s), MAX_RECONNECT_S)


@dataclass(frozen=True)
class RequestsDropped:
    """Requests of the server that got no answer because too many were being answered already."""

    #: How many were dropped since the last report.
    count: int
    #: The limit that was reached (:data:`MAX_REQUESTS_IN_FLIGHT`).
    limit: int

    @property
    def message(self) -> Message:
        """The sentence for the log."""
        return NP_("The server sent {count} request that got no answer: more than {limit} were waiting at once.",
                   "The server sent {count} requests that got no answer: more than {limit} were waiting at once.",
                   {"count": Number(self.count, str(self.count)), "limit": Number(self.limit, str(self.limit))},
                   "count")


class RequestGate:
    """Runs the answers to a stream's requests, at most ``limit`` at a time.

    Why a request over the limit is dropped rather than refused with a JSON-RPC error: a refusal
    is an HTTP ``POST`` like an answer, so refusing a flood costs what answering it costs (the
    same queue of requests, the same connections); dropping costs nothing. A server that waits
    for an answer it will not get has its own time-out; the drops are counted and reported
    (``on_dropped``, one :class:`RequestsDropped` per :data:`DROP_NOTE_S`).
    """

    def __init__(self, limit: int = MAX_REQUESTS_IN_FLIGHT,
                 on_dropped: Callable[[RequestsDropped], None] | None = None,
                 note_after_s: float = DROP_NOTE_S) -> None:
        self.limit = limit
        self._on_dropped = on_dropped or (lambda dropped: None)
        self._note_after_s = note_after_s
        self._tasks: set[asyncio.Task[None]] = set()
        self._unreported = 0
        self._note: asyncio.TimerHandle | None = None
        #: Every request dropped so far, and the most answers that ran at once.
        self.dropped = 0
        self.peak = 0

    @property
    def in_flight(self) -> int:
        return len(self._tasks)

    def admit(self, answer: Callable[[], Coroutine[Any, Any, None]]) -> bool:
        """Start ``answer()`` in a task of its own; False (and counted) when the limit is reached."""
        if len(self._tasks) >= self.limit:
            self.dropped += 1
            self._unreported += 1
            if self._note is None:
                self._note = asyncio.get_running_loop().call_later(self._note_after_s, self._report)
            return False
        task = asyncio.get_running_loop().create_task(answer())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        self.peak = max(self.peak, len(self._tasks))
        return True

    def pending(self) -> list[asyncio.Task[None]]:
        return [task for task in self._tasks if not task.done()]

    def cancel(self) -> list[asyncio.Task[None]]:
        """Cancel every answer still running, report the drops not yet reported; returns the
        cancelled tasks."""
        if self._note is not None:
            self._note.cancel()
            self._report()
        tasks = self.pending()
        for task in tasks:
            task.cancel()
        return tasks

    async def close(self, bound_s: float) -> None:
        """Cancel the answers and wait for them to end, at most ``bound_s``."""
        tasks = self.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=bound_s)

    def _report(self) -> None:
        self._note = None
        count, self._unreported = self._unreported, 0
        if count:
            self._on_dropped(RequestsDropped(count, self.limit))
