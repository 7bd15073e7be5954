"""The standalone stream: ``GET`` on the endpoint after ``initialize``, for server messages not
tied to a request (log messages, list-changed notices, requests such as a question).

One :class:`StandaloneStream` belongs to one session. The command line opens it for the length
of one operation; a long-lived session (the window's) keeps it open and lets observers
subscribe. A server that offers no stream answers ``405``; that is not an error. When the
stream ends after giving event ids, it is resumed with ``Last-Event-ID`` after the server's
``retry`` delay (never sooner than :data:`~.stream_limits.MIN_RECONNECT_S`, and later while it
keeps ending at once), as long as the stream is wanted. The server's requests on it are answered
at most :data:`~.stream_limits.MAX_REQUESTS_IN_FLIGHT` at a time; the rest are dropped and counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any

import httpx

from .server import ServerEndpoint
from .server_requests import is_server_request
from .sse import EventStreamParser, EventTooLarge, stream_events
from .stream_limits import IMMEDIATE_CLOSE_S, RequestGate, reconnect_delay

#: How long an operation waits for the stream to be established before it goes on anyway.
OPEN_WAIT_S = 1.0
#: The reconnection delay when the server gave no ``retry:``.
DEFAULT_RETRY_MS = 1000
#: How often a stream that keeps ending is resumed before the client gives up on it.
MAX_RECONNECTS = 20
#: A stream's events larger than this (bytes of one event) end the stream: it is not ours to hoard.
MAX_EVENT_BYTES = 2 * 1024 * 1024


class StreamState(str, Enum):
    """Where the standalone stream stands."""

    OPENING = "opening"
    OPEN = "open"
    #: The server offers no standalone stream (405, or another refusal).
    UNSUPPORTED = "unsupported"
    CLOSED = "closed"


@dataclass(frozen=True)
class ServerNotification:
    """A notification the server sent (besides progress): a log message, a list-changed notice."""

    method: str
    params: dict[str, Any]
    #: Which stream carried it: ``GET`` (the standalone stream) or the leg's method.
    via: str

    @property
    def level(self) -> str | None:
        """The level of a ``notifications/message`` (debug … emergency), else ``None``."""
        level = self.params.get("level") if self.method == "notifications/message" else None
        return level if isinstance(level, str) else None


#: The pseudo-methods of what a line to the server says besides messages: a line the server wrote
#: on stderr (its log), and a fault of the line (not JSON on stdout, a line over the limit).
STDERR = "stderr"
LINE_PROBLEM = "line problem"


def line_note(method: str, text: str, via: str) -> ServerNotification:
    """A stderr line or a fault of the line, as a notification of the operations that saw it."""
    return ServerNotification(method, {"data": text}, via)


NotificationCallback = Callable[[ServerNotification], None]
RequestAnswerer = Callable[[dict[str, Any]], Awaitable[None]]


class StandaloneStream:
    """The ``GET`` stream of one session, read in a task of its own.

    ``headers`` are the session's message headers; ``answer`` answers a server request (it
    POSTs the reply); every notification goes to each subscriber, on the loop's thread.
    """

    def __init__(self, http: httpx.AsyncClient, server: ServerEndpoint, headers: dict[str, str],
                 answer: RequestAnswerer) -> None:
        self._http = http
        self._server = server
        self._headers = {name: value for name, value in headers.items() if name.lower() != "content-type"}
        self._headers["Accept"] = "text/event-stream"
        self._answer = answer
        self._secrets = server.secrets()  # cut out of whatever the server says on the stream
        self._subscribers: list[NotificationCallback] = []
        self._task: asyncio.Task[None] | None = None
        #: Answers the server's requests, a few at a time (``replies.dropped`` counts the rest).
        self.replies = RequestGate()
        self._settled = asyncio.Event()
        self.state = StreamState.OPENING
        #: The HTTP status of the last attempt to open it (405: the server offers none).
        self.http_status: int | None = None
        self.reconnects = 0

    def subscribe(self, callback: NotificationCallback) -> Callable[[], None]:
        """Call ``callback`` with every notification; returns the function that unsubscribes."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    async def open(self, wait_s: float = OPEN_WAIT_S) -> StreamState:
        """Start reading; wait (at most ``wait_s``) until the server has said yes or no."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="mcp-standalone-stream")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(wait_s, 0.0)):
                await self._settled.wait()
        return self.state

    async def settle(self, timeout_s: float) -> None:
        """Wait (bounded) for replies still being delivered, so that their status is known."""
        pending = self.replies.pending()
        if pending:
            await asyncio.wait(pending, timeout=timeout_s)

    def abort(self) -> None:
        """Stop reading and answering now, without waiting for the tasks to wind down."""
        self.replies.cancel()
        if self._task is not None and not self._task.done():
            self._task.cancel()
        if self.state is not StreamState.UNSUPPORTED:
            self.state = StreamState.CLOSED

    async def close(self) -> None:
        """Stop reading and stop answering: the stream is no longer wanted."""
        tasks = self.replies.cancel()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            tasks.append(self._task)
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.state is not StreamState.UNSUPPORTED:
            self.state = StreamState.CLOSED

    async def _run(self) -> None:
        last_event_id: str | None = None
        at_once = 0  # streams in a row that ended within IMMEDIATE_CLOSE_S
        while True:
            opened = time.monotonic()
            parser = EventStreamParser()
            parser.last_event_id = last_event_id
            headers = dict(self._headers)
            if last_event_id is not None:
                headers["Last-Event-ID"] = last_event_id
            try:
                async with self._http.stream("GET", self._server.url, headers=headers) as response:
                    self.http_status = response.status_code
                    media_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
                    if response.status_code != 200 or media_type != "text/event-stream":
                        self.state = StreamState.UNSUPPORTED
                        self._settled.set()
                        return
                    self.state = StreamState.OPEN
                    self._settled.set()
                    await self._read(response, parser)
            except httpx.HTTPError:
                pass
            finally:
                self._settled.set()
            last_event_id = parser.last_event_id
            # Ended by the server: resume only a stream that can be resumed (it gave ids).
            if last_event_id is None or self.reconnects >= MAX_RECONNECTS:
                self.state = StreamState.CLOSED if self.state is StreamState.OPEN else self.state
                return
            self.reconnects += 1
            at_once = at_once + 1 if time.monotonic() - opened < IMMEDIATE_CLOSE_S else 0
            await asyncio.sleep(reconnect_delay(parser.retry_ms, at_once, DEFAULT_RETRY_MS))

    async def _read(self, response: httpx.Response, parser: EventStreamParser) -> None:
        with contextlib.suppress(EventTooLarge):  # an event without end: the stream is given up
            async for data in stream_events(response.aiter_bytes(), parser, MAX_EVENT_BYTES):
                self._consider(data)

    def _consider(self, data: str) -> None:
        if not data:
            return  # a priming event
        try:
            message = self._secrets.scrub_parsed(json.loads(data), data)
        except (ValueError, RecursionError):
            return
        if is_server_request(message):
            self.replies.admit(lambda: self._answer(message))  # over the limit: dropped, counted
            return
        if isinstance(message, dict) and isinstance(message.get("method"), str) and "id" not in message:
            self.notify(ServerNotification(message["method"], _params(message), "GET"))

    def notify(self, notification: ServerNotification) -> None:
        """Pass a notification to every subscriber (also used for those on answer streams)."""
        for callback in list(self._subscribers):
            callback(notification)


def _params(message: dict[str, Any]) -> dict[str, Any]:
    params = message.get("params")
    return params if isinstance(params, dict) else {}
