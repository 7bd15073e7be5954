"""What an operation sees of its legs whatever carries them (:class:`FramedLegs`): the server, the
legs' frame, the deadline; and what every channel does alike: report the server's progress notices
with where the deadline stands, and answer the requests the server sends."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Callable
from typing import Any

from ..clock import Clock
from ..deadline import OperationDeadline
from ..legs import LegFrame
from ..reports import OperationObserver, ProgressSeen
from ..server import ServerEndpoint
from ..server_requests import (
    ServerRequestHandler,
    ServerRequestSeen,
    answer_server_request,
    clipped,
    cut_off_reply,
    shown_method,
    timed_out_reply,
)
from .leg_messages import OutgoingMessage


class FramedLegs:
    """What an operation sees of its legs whatever carries them: the server, the legs' frame
    (:mod:`..legs`), and from it the deadline, whether the work went out, what was torn down."""

    frame: LegFrame
    _server: ServerEndpoint
    _observer: OperationObserver
    _clock: Clock
    _handler: ServerRequestHandler | None
    #: Methods of requests the server sent the client and the client declined, in order.
    declined: list[str]

    @property
    def server(self) -> ServerEndpoint:
        return self._server

    @property
    def deadline(self) -> OperationDeadline:
        return self.frame.deadline

    @property
    def work_sent(self) -> bool:
        """Has a work request (``tools/call``, ``tools/list``) been handed to the wire yet?"""
        return self.frame.work_sent

    @property
    def interrupted(self) -> OutgoingMessage | None:
        """The work request torn down while on the wire (cancel or time-out)."""
        interrupted = self.frame.interrupted
        return interrupted if isinstance(interrupted, OutgoingMessage) else None

    @property
    def interrupted_because(self) -> str:
        return self.frame.interrupted_because

    def report_progress(self, via: str, params: Any) -> None:
        """A progress notice of the server, reported with where the deadline stands."""
        if not isinstance(params, dict):
            return
        progress = _finite(params.get("progress"))
        if progress is None:
            return
        message = params.get("message")
        deadline = self.frame.deadline
        self._observer.progress(ProgressSeen(
            via, progress, _finite(params.get("total")), message if isinstance(message, str) else None,
            round(deadline.elapsed_s() * 1000, 2), max(0.0, deadline.remaining_s())))

    async def answer_request(self, via: str, request: dict[str, Any],
                             deliver: Callable[[dict[str, Any]], Awaitable[int | None]]) -> None:
        """Answer a request the server sent, as the protocol requires; ``deliver`` carries the reply
        back and says how it went (an HTTP status, or ``None`` when it could not be delivered).

        The handler gets what is left of the operation's deadline. A reply that cannot be
        delivered is reported, not raised."""
        started = self._clock.now_ns()
        try:
            reply = await answer_server_request(self._handler, request, self.frame.deadline.remaining_s())
        except asyncio.CancelledError:
            # The leg ended at the deadline in the same turn as the question's own time-out, whose
            # cancel then goes through as the leg's: the question was still cut off by the budget.
            # Else the operation ended while the question was open (the user cancelled it, say): kept
            # too, so that the step says what the server had asked (it said nothing of it before).
            request_id = request.get("id")
            cut = timed_out_reply(request_id) if self.frame.deadline.remaining_s() <= 0 else cut_off_reply(request_id)
            self._seen(via, request, cut, None, self._since(started))
            raise
        elapsed_ms = self._since(started)
        status = None
        try:
            status = await deliver(reply)
        finally:
            # Recorded even when the leg's end cuts the reply's delivery short.
            self._seen(via, request, reply, status, elapsed_ms)

    def _since(self, started_ns: int) -> float:
        return (self._clock.now_ns() - started_ns) / 1e6

    def _seen(self, via: str, request: dict[str, Any], reply: dict[str, Any], status: int | None,
              elapsed_ms: float) -> None:
        """Report a server's request and the client's reply (declined: an error reply)."""
        declined = "error" in reply
        method = shown_method(request.get("method"))
        if declined and method not in self.declined:
            self.declined.append(method)
        self._observer.server_request(ServerRequestSeen(
            method, via, declined, status, clipped(request.get("params")),
            clipped(reply.get("error") if declined else reply.get("result")), round(elapsed_ms, 2)))


def _finite(value: Any) -> float | None:
    """A JSON number as a finite float, or ``None`` (booleans, text, huge integers refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None
