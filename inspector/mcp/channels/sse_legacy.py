"""The older HTTP+SSE transport (protocol 2024-11-05): one event stream in, a POST address out.

The client opens a GET event stream at the server's address; the server's first event, ``endpoint``,
names the address to POST messages to. Every answer, notification and server request then arrives
as a ``message`` event on that one stream, so the requests of several operations share it
(:class:`~.multiplex.Multiplexer`). A POST is answered ``202 Accepted`` (some servers say ``200``).

The endpoint must be on the server's own origin: a server naming another host would have the
client send its messages, and the headers configured for the server (credentials), there.
Redirects are not followed, as everywhere in this client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from ..errors import McpTransportError
from ..messages import N_, Message
from ..server import ServerEndpoint, public_url
from ..signin.challenge import signin_refusal
from ..sse import EventStreamParser, EventTooLarge, stream_events
from ..text import load_wire_json
from ..trace_context import trace_headers
from .multiplex import Multiplexer
from .stdio import ChannelError

#: Most bytes one event may take (a tools/list page of a large server fits many times over).
MAX_EVENT_BYTES = 16 * 1024 * 1024


class SignInRefused(ChannelError):
    """The event stream was refused until the client signs in: ``error`` says so to the operation."""

    def __init__(self, error: McpTransportError) -> None:
        super().__init__(error.sentences[0])
        self.error = error


class LegacySseChannel:
    """An open event stream to a 2024-11-05 server, and the address its messages are posted to."""

    def __init__(self, http: httpx.AsyncClient, server: ServerEndpoint,
                 on_message: Callable[[dict[str, Any]], None] | None,
                 on_problem: Callable[[Message], None] | None) -> None:
        self._http = http
        self.server = server
        self._on_problem = on_problem
        self._requests = Multiplexer(self._post, on_message)
        self._endpoint: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._reader: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, http: httpx.AsyncClient, server: ServerEndpoint, *, wait_s: float,
                   on_message: Callable[[dict[str, Any]], None] | None = None,
                   on_problem: Callable[[Message], None] | None = None) -> LegacySseChannel:
        """Open the stream and wait up to ``wait_s`` seconds for the server to name its POST address."""
        channel = cls(http, server, on_message, on_problem)
        channel._reader = asyncio.create_task(channel._read())
        try:
            await asyncio.wait_for(asyncio.shield(channel._endpoint), wait_s)
        except asyncio.TimeoutError:
            await channel.close()
            raise ChannelError(Message(N_("{server} opened an event stream but named no endpoint to post messages "
                                          "to: it does not speak the older HTTP+SSE transport"),
                                       {"server": server.label})) from None
        except BaseException:
            await channel.close()
            raise
        return channel

    @property
    def endpoint(self) -> str | None:
        return self._endpoint.result() if self._endpoint.done() and not self._endpoint.exception() else None

    async def request(self, message: Mapping[str, Any]) -> dict[str, Any]:
        """Post a request and return its answer from the event stream (the caller's id kept)."""
        return await self._requests.request(message)

    async def send(self, message: Mapping[str, Any]) -> None:
        """Post a notification, or an answer to the server's own request."""
        await self._post(dict(message))

    async def _post(self, message: dict[str, Any]) -> None:
        endpoint = self.endpoint
        if endpoint is None:
            raise ChannelError(Message(N_("the event stream of {server} is closed"), {"server": self.server.label}))
        body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
        headers = {**self.server.headers, "Content-Type": "application/json", **trace_headers(self.server.headers)}
        try:
            response = await self._http.post(endpoint, content=body, headers=headers, follow_redirects=False)
        except httpx.HTTPError as error:
            raise ChannelError(Message(N_("posting to {server} failed: {reason}"), {
                "server": self.server.label, "reason": type(error).__name__})) from None
        # A token that ran out meanwhile (401), or a tool that needs a larger scope (403): a sign-in, as on the stream.
        refusal = signin_refusal(self.server.label, str(message.get("method") or "message"), response,
                                 self.server.headers, self.server.signed_in, self.server.unkept_headers)
        if refusal is not None:
            raise SignInRefused(refusal)
        if response.status_code not in (200, 202, 204):
            raise ChannelError(Message(N_("{server} refused the message with HTTP status {status}"),
                                       {"server": self.server.label, "status": response.status_code}))

    async def _read(self) -> None:
        headers = {**self.server.headers, "Accept": "text/event-stream"}
        reason = Message(N_("the event stream of {server} is closed"), {"server": self.server.label})
        refused: SignInRefused | None = None
        try:
            async with self._http.stream("GET", self.server.url, headers=headers, follow_redirects=False,
                                         timeout=httpx.Timeout(30.0, read=None)) as response:
                self._check_stream(response)
                async for data in stream_events(response.aiter_bytes(), EventStreamParser(), MAX_EVENT_BYTES):
                    self._event(data)
        except SignInRefused as error:
            reason, refused = error.sentence, error
        except ChannelError as error:
            reason = error.sentence
        except EventTooLarge:
            reason = Message(N_("{server} sent an event larger than 16 MB"), {"server": self.server.label})
        except httpx.DecodingError:  # it answered ("… failed: DecodingError" before)
            reason = Message(N_("{server} answered, but its event stream cannot be unpacked as its Content-Encoding "
                                "header says (the stream is damaged, or a proxy changed it)"),
                             {"server": self.server.label})
        except httpx.HTTPError as error:
            reason = Message(N_("the event stream of {server} failed: {reason}"),
                             {"server": self.server.label, "reason": type(error).__name__})
        finally:
            closed = reason
            if not self._endpoint.done():
                self._endpoint.set_exception(refused or ChannelError(closed))
                self._endpoint.exception()  # seen here: nobody may be waiting for it any more
            self._requests.close(lambda: ChannelError(closed))

    def _check_stream(self, response: httpx.Response) -> None:
        refusal = signin_refusal(self.server.label, "connect", response, self.server.headers, self.server.signed_in,
                                 self.server.unkept_headers)
        if refusal is not None:
            raise SignInRefused(refusal)
        if response.status_code != 200:
            raise ChannelError(Message(N_("{server} answered the event stream request with HTTP status {status}: "
                                          "no older HTTP+SSE endpoint at this address"),
                                       {"server": self.server.label, "status": response.status_code}))
        media = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if media != "text/event-stream":
            raise ChannelError(Message(N_("{server} answered the event stream request with '{media}', not an event "
                                          "stream"), {"server": self.server.label, "media": media[:60] or "nothing"}))

    def _event(self, data: str) -> None:
        name = getattr(data, "name", "message")
        if name == "endpoint":
            if not self._endpoint.done():
                self._endpoint.set_result(self._same_origin(data.strip()))
            return
        if name != "message":
            return
        try:
            message = load_wire_json(data)
        except (ValueError, RecursionError):
            self._problem(Message(N_("{server} sent an event that is not JSON"), {"server": self.server.label}))
            return
        if isinstance(message, dict):
            self._requests.dispatch(message)

    def _same_origin(self, given: str) -> str:
        endpoint = urljoin(self.server.url, given)
        ours, theirs = urlsplit(self.server.url), urlsplit(endpoint)
        if (ours.scheme, ours.hostname, ours.port) != (theirs.scheme, theirs.hostname, theirs.port):
            raise ChannelError(Message(N_("{server} named an endpoint on another origin ({endpoint}); messages are "
                                          "only posted to the server's own origin"),
                                       {"server": self.server.label, "endpoint": public_url(endpoint)[:200]}))
        return endpoint

    def _problem(self, sentence: Message) -> None:
        if self._on_problem is not None:
            self._on_problem(sentence)

    async def close(self) -> None:
        """Close the event stream (the server ends its session with it)."""
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader


__all__ = ["LegacySseChannel"]
