"""The long-lived listening session the window holds for a server.

One :class:`ServerListener` makes the handshake (``initialize``, ``notifications/initialized``,
``logging/setLevel`` when a level is set and the server logs), then opens the standalone ``GET``
stream when the server offers it (``405``: it offers none, which is said once, not retried), and
reads it until it is stopped: log messages and list-changed notices go to ``on_notification``;
requests on it are answered (``ping``, ``roots/list`` with the server's configured roots; a
question or a sampling request is declined, since no operation and no budget owns it) and
reported to ``on_request``; at most :data:`~.stream_limits.MAX_REQUESTS_IN_FLIGHT` at a time,
the rest dropped and counted (``on_requests_dropped``). The stream is read by
:mod:`.listen_stream`. A server that refuses ``logging/setLevel`` is reported to
``on_log_level_refused`` and listened to all the same. A stream that breaks is resumed with
``Last-Event-ID`` after the server's ``retry:`` delay, but never sooner than
:data:`~.stream_limits.MIN_RECONNECT_S`, backing off when it keeps breaking or ending at once, and
given up after :data:`~.listen_backoff.MAX_FAILURES` failures in a row (:mod:`.listen_backoff`). A server of the
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
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx

from .channels.http import LegTransport
from .channels.http_client import new_http_client
from .channels.http_requests import message_headers
from .clock import Clock, MonotonicClock
from .deadline import OperationDeadline
from .eras import EraMemory
from .errors import ErrorKind, McpTransportError
from .listen_backoff import ListenBackoff
from .listen_legacy import refused_as_older, speaks_older_transport
from .listen_stateless import StatelessListening, speaks_stateless
from .listen_stream import NO_OPERATION_REFUSAL, ListeningStream, NoStreamOffered, SessionForgotten, StreamClosed
from .listener_status import ListenerState, ListenerStatus  # also imported from here by the window and the CLI
from .messages import N_, Message
from .reports import LogLevelRefused, NullObserver
from .resource_subscriptions import SessionSubscriptions
from .server import ServerEndpoint
from .server_requests import LOG_LEVELS, ServerRequestHandler, ServerRequestSeen
from .sse import EventStreamParser
from .standalone import ServerNotification
from .stream_limits import RequestGate, RequestsDropped

#: The handshake of a listening session (and a ``logging/setLevel``) gets this budget.
HANDSHAKE_BUDGET_S = 10.0
#: Ending the session (DELETE) when stopped never takes longer than this.
STOP_BOUND_S = 0.5
#: When stopped, the reading task and the answers still running get this long to wind down.
STOP_WAIT_S = 0.5
#: Kinds of handshake failure that a retry cannot mend.
_PERMANENT = {ErrorKind.PROTOCOL_VERSION, ErrorKind.MALFORMED, ErrorKind.CONTENT_TYPE, ErrorKind.RPC_ERROR,
              ErrorKind.TOO_LARGE}


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
        backoff = ListenBackoff()
        stream = ListeningStream(self)
        last_event_id: str | None = None
        while True:
            if self._op is None and speaks_stateless(self.server, self.eras):
                self.stateless = True
                await StatelessListening(self).run()
                return
            if self._op is None and self.server.key in self.legacy:
                await self._no_stream_of_its_own()
                return
            if self._op is None:
                self._say(ListenerStatus(ListenerState.CONNECTING if backoff.failures == 0
                                         else ListenerState.RECONNECTING, reconnects=self.reconnects))
                try:
                    await self._start_session()
                except McpTransportError as exc:
                    too_many = backoff.failed()
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
                    if too_many:
                        self._give_up(exc)
                        return
                    await self._wait(backoff.failed_delay())
                    continue
                last_event_id = None
                backoff.new_session()
            parser = EventStreamParser()
            parser.last_event_id = last_event_id
            opened = time.monotonic()
            try:
                await stream.read(parser)
                events, error = 0, None
            except NoStreamOffered as refused:
                self._say(ListenerStatus(ListenerState.NO_STREAM, http_status=refused.status))
                await asyncio.Event().wait()  # the session stands; nothing to read, until stopped
                return
            except SessionForgotten:
                self._op = None
                if backoff.failed():
                    self._give_up(Message(N_("The server {server} kept forgetting the listening session."),
                                          {"server": self.server.label}))
                    return
                await self._wait(backoff.failed_delay())  # a new session, not at once
                continue
            except StreamClosed as ended:
                events, error = ended.events, ended.error
            last_event_id = parser.last_event_id
            if backoff.stream_ended(opened, bool(events), parser.retry_ms):
                self._give_up(error or Message(N_("The standalone stream of {server} kept ending without a "
                                                  "message."), {"server": self.server.label}))
                return
            self.reconnects += 1
            await self._wait(backoff.stream_delay())

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

    def _heard(self, note: ServerNotification) -> None:
        """A notification on the stream (a log message, a list changed), counted and handed on."""
        self.notifications_seen += 1
        self._on_notification(note)


class _RefusalObserver(NullObserver):
    """The listening session's handshake reports nothing but a refused log level."""

    def __init__(self, on_refused: Callable[[LogLevelRefused], None]) -> None:
        self._on_refused = on_refused

    def log_level_refused(self, report: LogLevelRefused) -> None:
        self._on_refused(report)
