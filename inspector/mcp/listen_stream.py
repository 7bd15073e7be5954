"""The standalone ``GET`` stream of a listening session in the handshake era, read until it ends.

Log messages and list-changed notices on it are handed to the session's ``on_notification``;
requests on it are answered (``ping``, ``roots/list`` with the server's configured roots; a
question or a sampling request is declined, since no operation and no budget owns it) and reported
to ``on_request``, at most :data:`~.stream_limits.MAX_REQUESTS_IN_FLIGHT` at a time (the session's
gate). How a read ended is raised for the session to decide what comes next (:mod:`.listening`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import TYPE_CHECKING, Any

import httpx

from .channels.http_requests import stream_headers
from .client_reasons import NO_OPERATION_REFUSAL
from .listener_status import ListenerState, ListenerStatus
from .messages import N_, Message
from .server_requests import (
    USER_REFUSED,
    ServerRequestSeen,
    answer_server_request,
    clipped,
    is_server_request,
    shown_method,
)
from .sse import EventStreamParser, EventTooLarge, stream_events
from .standalone import MAX_EVENT_BYTES, ServerNotification

if TYPE_CHECKING:
    from .listening import ServerListener

#: A request the server sends on the stream is answered within this many seconds.
REPLY_BOUND_S = 5.0
#: Sending that answer (its POST) takes at most this long: a server that never takes it does
#: not hold one of the few places for answers.
REPLY_SEND_BOUND_S = 5.0


class StreamClosed(Exception):
    """The stream ended or broke, after ``events`` messages; ``error`` says why when it broke."""

    def __init__(self, events: int, error: Message | None = None) -> None:
        super().__init__(str(error or ""))
        self.events = events
        self.error = error


class SessionForgotten(Exception):
    """404 on the stream: the server has forgotten the session."""


class NoStreamOffered(Exception):
    """The server refused the stream (405 or another status, or not an event stream)."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class ListeningStream:
    """Reads the standalone stream of one :class:`~.listening.ServerListener` (its host: its
    connections, its session, its callbacks, its status and its gate for answers)."""

    def __init__(self, host: ServerListener) -> None:
        self.host = host
        self.server = host.server

    async def read(self, parser: EventStreamParser) -> None:
        """Open the stream (resuming after ``parser.last_event_id``) and read it until it ends; how it
        ended is always raised: :class:`StreamClosed`, :class:`SessionForgotten` or :class:`NoStreamOffered`."""
        host = self.host
        assert host._http is not None and host._op is not None
        session = host._op.session
        headers = stream_headers(self.server, session, parser.last_event_id)
        events = 0
        try:
            async with host._http.stream("GET", self.server.url, headers=headers) as response:
                media_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
                if response.status_code == 404 and session.session_id:
                    raise SessionForgotten()
                if response.status_code != 200 or media_type != "text/event-stream":
                    raise NoStreamOffered(response.status_code)
                host._say(ListenerStatus(ListenerState.LISTENING, reconnects=host.reconnects))
                try:
                    async for data in stream_events(response.aiter_bytes(), parser, MAX_EVENT_BYTES):
                        events += self._consider(data)
                except EventTooLarge:
                    raise StreamClosed(events, Message(N_("An event on the standalone stream of {server} was "
                                                          "too large."), {"server": self.server.label})) from None
        except httpx.DecodingError:  # it answered ("… broke: Error -3 while decompressing data" before)
            raise StreamClosed(events, Message(N_("The server {server} answered, but its standalone stream cannot be "
                                                  "unpacked as its Content-Encoding header says (the stream is "
                                                  "damaged, or a proxy changed it)."),
                                               {"server": self.server.label})) from None
        except httpx.HTTPError as exc:
            raise StreamClosed(events, Message(N_("The standalone stream of {server} broke: {reason}"), {
                "server": self.server.label, "reason": str(exc) or type(exc).__name__})) from None
        raise StreamClosed(events)

    def _consider(self, data: str) -> int:
        """One event's data; 1 when it was a message (a priming event counts as one too)."""
        if not data:
            return 1  # a priming event: the stream works
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            return 0
        if is_server_request(message):
            self.host.replies.admit(lambda: self._answer(message))  # over the limit: dropped, counted
            return 1
        if isinstance(message, dict) and isinstance(message.get("method"), str) and "id" not in message:
            params = message.get("params")
            self.host._heard(ServerNotification(message["method"], params if isinstance(params, dict) else {},
                                                "GET"))
            return 1
        if isinstance(message, dict) and "id" in message and "method" in message:
            # A request whose id cannot be used: nothing can be answered to it.
            return 0
        return 0

    async def _answer(self, request: dict[str, Any]) -> None:
        host = self.host
        started = time.monotonic()
        method = request.get("method")
        if method in ("elicitation/create", "sampling/createMessage") and request.get("jsonrpc") == "2.0":
            reply = {"jsonrpc": "2.0", "id": request["id"],
                     "error": {"code": USER_REFUSED, "message": NO_OPERATION_REFUSAL}}
        else:
            reply = await answer_server_request(host.handler, request, REPLY_BOUND_S)
        elapsed_ms = (time.monotonic() - started) * 1000
        status = None
        op = host._op
        if op is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(REPLY_SEND_BOUND_S):
                    status = await op.transport.post_reply(reply, op.session)
        declined = "error" in reply
        host._on_request(ServerRequestSeen(
            shown_method(method), "GET", declined, status, clipped(request.get("params")),
            clipped(reply.get("error") if declined else reply.get("result")), round(elapsed_ms, 2)))
