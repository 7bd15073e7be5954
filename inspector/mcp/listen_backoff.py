"""When a listening session opens its stream again, and when it gives up: the policy both eras'
listening loops follow (:mod:`.listening`, :mod:`.listen_stateless`).

A stream that broke or ended is opened again after the server's ``retry:`` delay, never sooner than
:data:`~.stream_limits.MIN_RECONNECT_S`, the wait doubling while streams keep ending at once or
attempts keep failing (:func:`~.stream_limits.reconnect_delay`); after :data:`MAX_FAILURES`
failures in a row the session gives up and says why.
"""

from __future__ import annotations

import time

from .stream_limits import IMMEDIATE_CLOSE_S, reconnect_delay

#: The reconnection delay when the server gave no ``retry:``.
DEFAULT_RETRY_MS = 1000
#: Failures in a row (no stream, no session) after which the listener gives up and says why.
MAX_FAILURES = 6


class ListenBackoff:
    """Counts one listening session's failures and streams that ended at once, and says how long to
    wait before the next attempt."""

    def __init__(self) -> None:
        #: Attempts in a row that got nothing (no session, a session forgotten, a stream without a message).
        self.failures = 0
        #: Streams in a row that ended at once (within IMMEDIATE_CLOSE_S), with messages or not.
        self.at_once = 0
        #: The server's last ``retry:`` on the streams of this session (``None``: not said).
        self.retry_ms: int | None = None

    def failed(self) -> bool:
        """An attempt that opened no stream (the handshake failed, the session was forgotten);
        True when that was one failure too many."""
        self.failures += 1
        return self.failures >= MAX_FAILURES

    def failed_delay(self) -> float:
        """Seconds to wait after an attempt that opened no stream (the server's ``retry:`` does not
        apply: a new session, not at once)."""
        return reconnect_delay(None, self.failures, DEFAULT_RETRY_MS)

    def new_session(self) -> None:
        """A session opened anew: the old one's ``retry:`` is forgotten."""
        self.retry_ms = None

    def stream_ended(self, opened_s: float, heard: bool, retry_ms: int | None) -> bool:
        """A stream opened at ``opened_s`` (:func:`time.monotonic`) ended; ``heard``: it brought a
        message (it worked: the failures start again from 0); ``retry_ms``: the ``retry:`` it gave.
        True when it was one failure too many."""
        self.retry_ms = retry_ms if retry_ms is not None else self.retry_ms
        self.failures = 0 if heard else self.failures + 1
        self.at_once = self.at_once + 1 if time.monotonic() - opened_s < IMMEDIATE_CLOSE_S else 0
        return self.failures >= MAX_FAILURES

    def stream_delay(self) -> float:
        """Seconds to wait before the stream that ended is opened again: never sooner than the floor,
        whatever ``retry:`` the server asked for (``retry: 0`` made hundreds of connections a second);
        longer while its streams keep ending at once."""
        return reconnect_delay(self.retry_ms, max(self.failures, self.at_once), DEFAULT_RETRY_MS)
