"""How many sampling requests the client lets servers make.

The MCP specification asks clients to rate-limit sampling: each request spends the user's model
(and maybe money). Three limits, checked before any dialog opens or any model is asked:

* per operation: at most :data:`PER_OPERATION` requests within one operation;
* per server: at most :data:`PER_SERVER_PER_MINUTE` requests from one server (its address)
  within any :data:`WINDOW_S` seconds, across operations;
* approved: at most so many requests in all, when the user stated a number (the command line's
  ``--allow-sampling N``).

A request over a limit is refused at once with a JSON-RPC error (code -1, the user's refusal)
whose message says which limit, and whose ``data`` names it (``samplingLimit``, ``limit``), so
each display layer can tell the user in its own language (:func:`limit_reached`).
"""

from __future__ import annotations

import copy
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from .messages import NP_, Message

#: The most sampling requests one operation may make.
PER_OPERATION = 5
#: The most sampling requests one server may make within :data:`WINDOW_S` seconds.
PER_SERVER_PER_MINUTE = 10
WINDOW_S = 60.0
#: The key of the error's ``data`` that names the limit reached.
DATA_KEY = "samplingLimit"
#: The kinds of limit, as ``data`` names them.
KINDS = ("operation", "server", "approved")


def limit_sentence(kind: str, limit: int) -> Message:
    """The sentence for a request refused by a limit of ``kind`` set at ``limit`` requests."""
    params = {"limit": limit}
    if kind == "operation":
        return NP_("Over the limit of {limit} sampling request per operation: the client refused this one.",
                   "Over the limit of {limit} sampling requests per operation: the client refused this one.",
                   params, count="limit")
    if kind == "server":
        return NP_("Over the limit of {limit} sampling request a minute from one server: the client refused "
                   "this one. Ask again later.",
                   "Over the limit of {limit} sampling requests a minute from one server: the client refused "
                   "this one. Ask again later.", params, count="limit")
    return NP_("Over the {limit} sampling request the user approved (--allow-sampling 1): the client refused "
               "this one. Approve more with --allow-sampling N.",
               "Over the {limit} sampling requests the user approved (--allow-sampling {limit}): the client "
               "refused this one. Approve more with --allow-sampling N.", params, count="limit")


def limit_reached(error: Any) -> Message | None:
    """The sentence for a JSON-RPC error that a sampling limit caused, or ``None`` for any other."""
    data = error.get("data") if isinstance(error, dict) else None
    if not isinstance(data, dict) or data.get(DATA_KEY) not in KINDS:
        return None
    limit = data.get("limit")
    if not isinstance(limit, int) or isinstance(limit, bool):
        return None
    return limit_sentence(data[DATA_KEY], limit)


class SamplingLimitReached(Exception):
    """A sampling request over a limit: ``kind`` (see :data:`KINDS`), ``limit`` and the sentence."""

    def __init__(self, kind: str, limit: int) -> None:
        self.kind = kind
        self.limit = limit
        self.sentence = limit_sentence(kind, limit)
        super().__init__(str(self.sentence))

    def data(self) -> dict[str, Any]:
        """The error's ``data`` for the server (and for the display layers)."""
        return {DATA_KEY: self.kind, "limit": self.limit}


class _Shared:
    """What all operations of one client count together: requests per server, and in all."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.by_server: dict[str, deque[float]] = {}
        self.admitted = 0


class SamplingLimits:
    """The limits of one client (the window's, a command's), shared by all its operations.

    :meth:`for_operation` gives the operation's own view (a fresh per-operation count, the same
    per-server and overall counts); :meth:`admit` counts a request or raises
    :class:`SamplingLimitReached`. Only admitted requests count.
    """

    def __init__(self, per_operation: int = PER_OPERATION, per_server_per_minute: int = PER_SERVER_PER_MINUTE,
                 approved: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_operation = per_operation
        self.per_server_per_minute = per_server_per_minute
        #: The most requests in all (``None``: no such limit; each request is confirmed elsewhere).
        self.approved = approved
        self._clock = clock
        self._shared = _Shared()
        self._server = ""
        self._in_operation = 0

    @classmethod
    def approving(cls, count: int, clock: Callable[[], float] = time.monotonic) -> SamplingLimits:
        """Limits for a user who approved ``count`` requests: a larger count raises the rate limits too."""
        return cls(max(count, PER_OPERATION), max(count, PER_SERVER_PER_MINUTE), count, clock)

    def for_operation(self, server: str) -> SamplingLimits:
        """The limits as one operation with ``server`` (its address, without credentials) sees them."""
        view = copy.copy(self)
        view._server = server
        view._in_operation = 0
        return view

    def admit(self) -> None:
        """Count one request, or raise :class:`SamplingLimitReached` (then nothing is counted)."""
        shared = self._shared
        with shared.lock:
            if self.approved is not None and shared.admitted >= self.approved:
                raise SamplingLimitReached("approved", self.approved)
            if self._in_operation >= self.per_operation:
                raise SamplingLimitReached("operation", self.per_operation)
            now = self._clock()
            recent = shared.by_server.setdefault(self._server, deque())
            while recent and recent[0] <= now - WINDOW_S:
                recent.popleft()
            if len(recent) >= self.per_server_per_minute:
                raise SamplingLimitReached("server", self.per_server_per_minute)
            recent.append(now)
            self._in_operation += 1
            shared.admitted += 1
