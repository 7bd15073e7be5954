"""The long-lived listening session the window holds for a server.

One :class:`ServerListener` makes the handshake (``initialize``, ``notifications/initialized``,
``logging/setLevel`` when a level is set and the server logs), then opens the standalone ``GET``
stream when the server offers it (``405``: it offers none, which is said once, not retried), and
reads it until it is stopped: log messages and list-changed notices go to ``on_notification``;
requests on it are answered (``ping``, ``roots/list`` with the server's configured roots; a
question or a sampling request is declined, since no operation and no budget owns it) and
reported to ``on_request``; at most :data:`~.stream_limits.MAX_REQUESTS_IN_FLIGHT` at a time,
the rest dropped and counted (``on_requests_dropped``). A server that refuses
``logging/setLevel`` is reported to ``on_log_level_refused`` and listened to all the same. A
stream that breaks is resumed with ``Last-Event-ID`` after the server's ``retry:`` delay, but
never sooner than :data:`~.stream_limits.MIN_RECONNECT_S`, backing off when it keeps breaking or
ending at once, and given up after :data:`MAX_FAILURES` failures in a row. A server of the
stateless era (pinned, or remembered so by ``eras``) is listened to with ``subscriptions/listen``
instead (:mod:`.listen_stateless`), under the same waits. An address that refuses the handshake's
POST with 404 or 405 and opens the older HTTP+SSE transport's event stream instead
(:mod:`.listen_legacy`) has nothing to listen to: that is said (``NO_STREAM``, ``older_transport``)
and kept in ``legacy``, the set the operations share, not reported as a failure.
:meth:`ServerListener.stop` ends the session with an HTTP ``DELETE``; it returns within
:data:`STOP_BOUND_S` plus twice :data:`STOP_WAIT_S` (a second and a half), whatever the server
does. No Qt here: the window runs it on its worker loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

import httpx

from .channels.http import LegTransport
from .channels.http_client import new_http_client
from .channels.http_requests import message_headers, stream_headers
from .clock import Clock, MonotonicClock
from .deadline import OperationDeadline
from .eras import EraMemory
from .errors import ErrorKind, McpTransportError
from .listen_legacy import refused_as_older, speaks_older_transport
from .listen_stateless import StatelessListening, speaks_stateless
from .messages import N_, Message
from .reports import LogLevelRefused, NullObserver
from .resource_subscriptions import SessionSubscriptions
from .server import ServerEndpoint
from .server_requests import (
    LOG_LEVELS,
    USER_REFUSED,
    ServerRequestHandler,
    ServerRequestSeen,
    answer_server_request,
    clipped,
    is_server_request,
    shown_method,
)
from .sse import EventStreamParser, EventTooLarge, stream_events
from .standalone import MAX_EVENT_BYTES, ServerNotification
from .stream_limits import IMMEDIATE_CLOSE_S, RequestGate, RequestsDropped, reconnect_delay

#: The handshake of a listening session (and a ``logging/setLevel``) gets this budget.
HANDSHAKE_BUDGET_S = 10.0
#: The reconnection delay when the server gave no ``retry:``.
DEFAULT_RETRY_MS = 1000
#: Failures in a row (no stream, no session) after which the listener gives up and says why.
MAX_FAILURES = 6
#: A request the server sends on the stream is answered within this many seconds.
REPLY_BOUND_S = 5.0
#: Sending that answer (its POST) takes at most this long: a server that never takes it does
#: not hold one of the few places for answers.
REPLY_SEND_BOUND_S = 5.0
#: Ending the session (DELETE) when stopped never takes longer than this.
STOP_BOUND_S = 0.5
#: When stopped, the reading task and the answers still running get this long to wind down.
STOP_WAIT_S = 0.5
#: Why a question or a sampling request on the listening stream is declined (said to the server).
NO_OPERATION_REFUSAL = ("Run Inspector answers questions (elicitation) and sampling requests only within an "
                       "operation, whose time budget bounds the answer; this request arrived on the listening "
                       "stream, outside any operation, and is declined.")
#: Kinds of handshake failure that a retry cannot mend.
_PERMANENT = {ErrorKind.PROTOCOL_VERSION, ErrorKind.MALFORMED, ErrorKind.CONTENT_TYPE, ErrorKind.RPC_ERROR,
              ErrorKind.TOO_LARGE}


class ListenerState(str, Enum):
    """Where a listening session stands."""

    CONNECTING = "connecting"
    LISTENING = "listening"
    #: The session stands, but the server offers no standalone stream (405 or another refusal).
    NO_STREAM = "no_stream"
    RECONNECTING = "reconnecting"
    STOPPED = "stopped"


@dataclass(frozen=True)
class ListenerStatus:
    """A change of state, with what the user needs to know about it."""

    state: ListenerState
    #: Why it stopped on its own, ``None`` when stopped by the user: a :class:`Message` or the
    #: transport's error (``str()`` gives the English sentence; a display layer translates either).
    error: Message | McpTransportError | None = None
    #: The HTTP status of the refused ``GET`` (``NO_STREAM``).
    http_status: int | None = None
    #: Seconds until the next attempt (``RECONNECTING``).
    retry_in_s: float | None = None
    #: How often the stream was resumed or reopened so far.
    reconnects: int = 0
    #: Whether the listener has listened at all (``RECONNECTING``: a stream broke, not a first try failed).
    listened: bool = False
    #: Listening the stateless era's way (``LISTENING``): log lines come only to requests that ask for a level.
    stateless: bool = False
    #: The address speaks the older HTTP+SSE transport (``NO_STREAM``): no stream apart from an operation's.
    older_transport: bool = False


class _StreamEnded(Exception):
    def __init__(self, events: int, error: Message | None = None) -> None:
        super().__init__(str(error or ""))
        self.events = events
        self.error = error


class _SessionGone(Exception):
    """404 on the stream: the server has forgotten the session."""


class _NoStream(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


class ServerListener:
    """The listening session of one server; :meth:`run` until :meth:`stop`."""

    def __init__(self, server: ServerEndpoint, *, roots: Any = None, log_level: str | None = None,
                 on_notification: Callable[[ServerNotification], None] | None = None,
                 on_status: Callable[[ListenerStatus], None] | None = None,
                 on_request: Callable[[ServerRequestSeen], None] | None = None,
                 on_log_level_refused: Callable[[LogLevelRefused], None] | None = None,
                 on_requests_dropped: Callable[[RequestsDropped], None] | None = None,
                 http_factory: Callable[[], httpx.AsyncClient] = new_http_client,
                 clock: Clock | None = None, handshake_budget_s: float = HANDSHAKE_BUDGET_S,
                 eras: EraMemory | None = None, legacy: set[str] | None = None) -> None:
        if log_level is not None and log_level not in LOG_LEVELS:
            raise ValueError("The log level must be one of {levels}.".format(levels=", ".join(LOG_LEVELS)))
        self.server = server
        #: What the operations found the server to speak (``auto``): the stateless era listens its own way.
        self.eras = eras
        #: The addresses found to speak the older HTTP+SSE transport (by key), shared with the operations.
        self.legacy = legacy if legacy is not None else set()
        #: Whether it listens with ``subscriptions/listen`` (decided when it connects).
        self.stateless = False
        #: Answers the server's requests: roots only (no questions, no model: no budget owns them).
        self.handler = ServerRequestHandler(roots=roots, sampling_refusal=NO_OPERATION_REFUSAL)
        self.log_level = log_level
        self._on_notification = on_notification or (lambda note: None)
        self._on_status = on_status or (lambda status: None)
        self._on_request = on_request or (lambda seen: None)
        self._on_log_level_refused = on_log_level_refused or (lambda refused: None)
        self._http_factory = http_factory
        self._clock = clock or MonotonicClock()
        self._handshake_budget_s = handshake_budget_s
        self._http: httpx.AsyncClient | None = None
        self._op: Any = None  # the session's _Operation (its handshake, its requests)
        #: Answers the server's requests, a few at a time (the rest are dropped and reported).
        self.replies = RequestGate(on_dropped=on_requests_dropped)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self.status = ListenerStatus(ListenerState.CONNECTING)
        self.reconnects = 0
        #: Whether it has listened at all (a stream was open, or the stateless era's first answer came).
        self.listened = False
        #: Every ``notifications/message`` level and list-changed notice seen (for tests and counts).
        self.notifications_seen = 0
        #: The resources this session is subscribed to (:mod:`.resource_subscriptions`).
        self.subscriptions = SessionSubscriptions(self)

    # -- life ----------------------------------------------------------------------------------

    async def run(self) -> None:
        """Listen until stopped (or until it gives up, saying why in its status)."""
        if self._stopping:
            return
        self._task = asyncio.current_task()
        self._http = self._http_factory()
        try:
            await self._listen()
        except asyncio.CancelledError:
            if not self._stopping:
                raise
        finally:
            self.replies.cancel()
            if not self._stopping:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(STOP_BOUND_S):
                        await self._end_session()
                await self._close_http()
            if self.status.state is not ListenerState.STOPPED or self._stopping:
                self._say(ListenerStatus(ListenerState.STOPPED, self.status.error if not self._stopping else None,
                                         reconnects=self.reconnects))

    async def stop(self, task: asyncio.Task[None] | None = None, bound_s: float = STOP_BOUND_S) -> None:
        """Stop listening now and end the session (``DELETE``, within ``bound_s``).

        Bounded whatever the server does: the reading task and the answers still running are
        cancelled and given :data:`STOP_WAIT_S` to end (a task that takes longer is left
        cancelled, not waited for), then the ``DELETE`` gets ``bound_s`` and closing the
        connections :data:`STOP_WAIT_S`."""
        self._stopping = True
        # A subscribe waiting for an acknowledgement (stateless era) hears no more: it fails now.
        self.subscriptions.listen_failed(Message(N_("the listening session was stopped")))
        task = task or self._task
        pending = self.replies.cancel()
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()
            pending.append(task)
        if pending:
            # asyncio.wait neither raises the tasks' errors nor swallows a cancel of stop() itself.
            await asyncio.wait(pending, timeout=STOP_WAIT_S)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(bound_s):
                await self._end_session()
        await self._close_http()

    async def set_log_level(self, level: str) -> bool:
        """Ask the server for log messages of ``level`` and above, now; False when it does not log."""
        if level not in LOG_LEVELS:
            raise ValueError(level)
        self.log_level = level
        op = self._op
        if op is None or "logging" not in op.server_capabilities:
            return False
        op.transport.frame.deadline = OperationDeadline(self._handshake_budget_s, self._clock)
        try:
            return await op.ask_log_level(level)
        except McpTransportError:
            return False

    # -- the session -----------------------------------------------------------------------------

    async def _listen(self) -> None:
        failures = 0
        #: Streams in a row that ended at once (within IMMEDIATE_CLOSE_S), with messages or not.
        at_once = 0
        last_event_id: str | None = None
        retry_ms: int | None = None
        while True:
            if self._op is None and speaks_stateless(self.server, self.eras):
                self.stateless = True
                await StatelessListening(self).run()
                return
            if self._op is None and self.server.key in self.legacy:
                await self._no_stream_of_its_own()
                return
            if self._op is None:
                self._say(ListenerStatus(ListenerState.CONNECTING if failures == 0 else ListenerState.RECONNECTING,
                                         reconnects=self.reconnects))
                try:
                    await self._start_session()
                except McpTransportError as exc:
                    failures += 1
                    if speaks_stateless(self.server, self.eras):
                        continue  # the server was found stateless meanwhile: listen that way
                    if refused_as_older(exc) and self._http is not None and await speaks_older_transport(
                            self._http, self.server, self._handshake_budget_s):
                        self.legacy.add(self.server.key)
                        continue
                    if exc.kind in _PERMANENT or (exc.kind is ErrorKind.HTTP_STATUS and exc.http_status is not None
                                                  and 400 <= exc.http_status < 500 and exc.http_status != 429):
                        self._give_up(exc)
                        return
                    if failures >= MAX_FAILURES:
                        self._give_up(exc)
                        return
                    await self._wait(reconnect_delay(None, failures, DEFAULT_RETRY_MS))
                    continue
                last_event_id, retry_ms = None, None
            parser = EventStreamParser()
            parser.last_event_id = last_event_id
            opened = time.monotonic()
            try:
                await self._read_stream(parser)
                events, error = 0, None
            except _NoStream as refused:
                self._say(ListenerStatus(ListenerState.NO_STREAM, http_status=refused.status))
                await asyncio.Event().wait()  # the session stands; nothing to read, until stopped
                return
            except _SessionGone:
                self._op = None
                failures += 1
                if failures >= MAX_FAILURES:
                    self._give_up(Message(N_("The server {server} kept forgetting the listening session."),
                                          {"server": self.server.label}))
                    return
                await self._wait(reconnect_delay(None, failures, DEFAULT_RETRY_MS))  # a new session, not at once
                continue
            except _StreamEnded as ended:
                events, error = ended.events, ended.error
            last_event_id = parser.last_event_id
            retry_ms = parser.retry_ms if parser.retry_ms is not None else retry_ms
            failures = 0 if events else failures + 1
            at_once = at_once + 1 if time.monotonic() - opened < IMMEDIATE_CLOSE_S else 0
            if failures >= MAX_FAILURES:
                self._give_up(error or Message(N_("The standalone stream of {server} kept ending without a "
                                                  "message."), {"server": self.server.label}))
                return
            self.reconnects += 1
            # Never sooner than the floor, whatever retry: the server asked for (retry: 0 made
            # hundreds of connections a second); longer while its streams keep ending at once.
            await self._wait(reconnect_delay(retry_ms, max(failures, at_once), DEFAULT_RETRY_MS))

    async def _no_stream_of_its_own(self) -> None:
        """The older HTTP+SSE transport: nothing to listen to, which is said once; until stopped."""
        self._say(ListenerStatus(ListenerState.NO_STREAM, older_transport=True))
        await asyncio.Event().wait()

    async def _start_session(self) -> None:
        from .client import McpClient, _Operation

        assert self._http is not None
        client = McpClient(handler=self.handler, log_level=self.log_level, clock=self._clock)
        deadline = OperationDeadline(self._handshake_budget_s, self._clock)
        transport = LegTransport(self._http, self.server, deadline=deadline, observer=NullObserver(),
                                 clock=self._clock, handler=self.handler)
        op = _Operation(client, transport, _RefusalObserver(self._on_log_level_refused), self.handler, False)
        try:
            await op.handshake()
        except McpTransportError:
            if op.session.session_id:
                self._op = op
                await self._end_session()
            raise
        self._op = op
        await self.subscriptions.renew(op)  # a session opened anew: what was subscribed, again

    async def _read_stream(self, parser: EventStreamParser) -> None:
        assert self._http is not None and self._op is not None
        session = self._op.session
        headers = stream_headers(self.server, session, parser.last_event_id)
        events = 0
        try:
            async with self._http.stream("GET", self.server.url, headers=headers) as response:
                media_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
                if response.status_code == 404 and session.session_id:
                    raise _SessionGone()
                if response.status_code != 200 or media_type != "text/event-stream":
                    raise _NoStream(response.status_code)
                self._say(ListenerStatus(ListenerState.LISTENING, reconnects=self.reconnects))
                try:
                    async for data in stream_events(response.aiter_bytes(), parser, MAX_EVENT_BYTES):
                        events += self._consider(data)
                except EventTooLarge:
                    raise _StreamEnded(events, Message(N_("An event on the standalone stream of {server} was "
                                                          "too large."), {"server": self.server.label})) from None
        except httpx.HTTPError as exc:
            raise _StreamEnded(events, Message(N_("The standalone stream of {server} broke: {reason}"), {
                "server": self.server.label, "reason": str(exc) or type(exc).__name__})) from None
        raise _StreamEnded(events)

    def _consider(self, data: str) -> int:
        """One event's data; 1 when it was a message (a priming event counts as one too)."""
        if not data:
            return 1  # a priming event: the stream works
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            return 0
        if is_server_request(message):
            self.replies.admit(lambda: self._answer(message))  # over the limit: dropped, counted
            return 1
        if isinstance(message, dict) and isinstance(message.get("method"), str) and "id" not in message:
            params = message.get("params")
            self.notifications_seen += 1
            self._on_notification(ServerNotification(message["method"], params if isinstance(params, dict) else {},
                                                     "GET"))
            return 1
        if isinstance(message, dict) and "id" in message and "method" in message:
            # A request whose id cannot be used: nothing can be answered to it.
            return 0
        return 0

    async def _answer(self, request: dict[str, Any]) -> None:
        started = time.monotonic()
        method = request.get("method")
        if method in ("elicitation/create", "sampling/createMessage") and request.get("jsonrpc") == "2.0":
            reply = {"jsonrpc": "2.0", "id": request["id"],
                     "error": {"code": USER_REFUSED, "message": NO_OPERATION_REFUSAL}}
        else:
            reply = await answer_server_request(self.handler, request, REPLY_BOUND_S)
        elapsed_ms = (time.monotonic() - started) * 1000
        status = None
        op = self._op
        if op is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(REPLY_SEND_BOUND_S):
                    status = await op.transport.post_reply(reply, op.session)
        declined = "error" in reply
        self._on_request(ServerRequestSeen(
            shown_method(method), "GET", declined, status, clipped(request.get("params")),
            clipped(reply.get("error") if declined else reply.get("result")), round(elapsed_ms, 2)))

    async def _end_session(self) -> None:
        op, self._op = self._op, None
        http = self._http
        if op is not None and op.session.session_id and http is not None:
            with contextlib.suppress(httpx.HTTPError):
                await http.delete(self.server.url, headers=message_headers(self.server, op.session, "DELETE"))

    async def _close_http(self) -> None:
        """Close the connections (bounded: closing a connection the server holds must not hang)."""
        http, self._http = self._http, None
        if http is not None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(STOP_WAIT_S):
                    await http.aclose()

    # -- helpers -------------------------------------------------------------------------------

    async def _wait(self, delay_s: float) -> None:
        self._say(ListenerStatus(ListenerState.RECONNECTING, retry_in_s=delay_s, reconnects=self.reconnects))
        await asyncio.sleep(delay_s)

    def _give_up(self, why: Message | McpTransportError) -> None:
        self._say(ListenerStatus(ListenerState.STOPPED, why, reconnects=self.reconnects))

    def _say(self, status: ListenerStatus) -> None:
        if status.state is ListenerState.LISTENING:
            self.listened = True
        elif status.state is ListenerState.RECONNECTING and self.listened:
            status = replace(status, listened=True)
        self.status = status
        self._on_status(status)


class _RefusalObserver(NullObserver):
    """The listening session's handshake reports nothing but a refused log level."""

    def __init__(self, on_refused: Callable[[LogLevelRefused], None]) -> None:
        self._on_refused = on_refused

    def log_level_refused(self, report: LogLevelRefused) -> None:
        self._on_refused(report)
