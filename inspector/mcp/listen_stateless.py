"""Listening in the stateless era: one ``subscriptions/listen`` request whose response is the stream.

A server of the stateless era (2026-07-28) has no session and no standalone ``GET`` stream. The
client asks for what it wants to hear with a ``POST`` of ``subscriptions/listen`` (its ``_meta``
like every request of the era; the tool, prompt and resource lists); the server answers with an
SSE stream whose first message, ``notifications/subscriptions/acknowledged``, says what it honours
and names the subscription (``_meta["io.modelcontextprotocol/subscriptionId"]``), followed by
list-changed notifications. There are no server requests in this era and nothing to resume:

- a stream that breaks (or ends without a result) is listened to again, with a new request id,
  after the same waits as the handshake era's stream (a floor, doubling while it keeps ending at
  once or failing, a cap; given up after :data:`~.listen_backoff.MAX_FAILURES` failures in a row);
- a result with ``resultType`` ``complete`` is the server ending the subscription on purpose:
  listening stops, without an error and without trying again;
- a refusal that another try cannot mend (a JSON-RPC error, a 4xx other than 429) stops it with
  the reason; a server that does not know the method (``-32601``, or 404/405) offers nothing to
  listen to, which is said once, as for a handshake server without a stream.

Stopping closes the stream: the :class:`~.listening.ServerListener` that runs this cancels it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx

from .eras import HANDSHAKE, STATELESS, STATELESS_VERSIONS, EraMemory
from .errors import ErrorKind, McpTransportError
from .listen_backoff import ListenBackoff
from .listener_status import ListenerState, ListenerStatus
from .messages import N_, Message
from .server import ServerEndpoint
from .signin.challenge import signin_refusal
from .sse import EventStreamParser, EventTooLarge, stream_events
from .standalone import MAX_EVENT_BYTES, ServerNotification
from .stateless import request_meta, standard_headers

if TYPE_CHECKING:
    from .listening import ServerListener

LISTEN = "subscriptions/listen"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"
#: What the window listens for: the lists it shows or may show.
WANTED = {"toolsListChanged": True, "promptsListChanged": True, "resourcesListChanged": True}
#: JSON-RPC "method not found": the server offers no subscriptions.
METHOD_NOT_FOUND = -32601
#: A JSON answer (an error instead of a stream) is read up to this many bytes.
MAX_JSON_BYTES = 256 * 1024
_ids = itertools.count(1)


def speaks_stateless(server: ServerEndpoint, eras: EraMemory | None) -> bool:
    """Whether ``server`` is listened to the stateless way: pinned to that era, or ``auto`` and
    remembered (by ``eras``, what the operations found) to speak it."""
    if server.era == STATELESS:
        return True
    if server.era == HANDSHAKE or eras is None:
        return False
    return eras.recall(server.key) == STATELESS


@dataclass(frozen=True)
class _Outcome:
    """How one listen request ended."""

    #: ``dropped`` (listen again), ``complete`` (the server ended it), ``refused`` (give up),
    #: ``unknown`` (the server does not know the method).
    how: str
    #: Whether the server acknowledged the subscription (it worked: failures start again from 0).
    acknowledged: bool = False
    error: Message | McpTransportError | None = None
    http_status: int | None = None


class StatelessListening:
    """The ``subscriptions/listen`` loop of one :class:`~.listening.ServerListener` (its host:
    its connections, its callbacks, its status and its waits), until stopped or ended."""

    def __init__(self, host: ServerListener) -> None:
        self.host = host
        self.server = host.server
        #: The id of the subscription the server acknowledged last (the listen request's id).
        self.subscription_id: str | int | None = None
        #: What the server said it honours (the acknowledged ``notifications``).
        self.honoured: dict[str, Any] = {}

    async def run(self) -> None:
        host = self.host
        backoff = ListenBackoff()
        while True:
            if backoff.failures == 0 and host.reconnects == 0:
                host._say(ListenerStatus(ListenerState.CONNECTING))
            parser = EventStreamParser()
            opened = time.monotonic()
            outcome = await self._until_changed(parser)
            if outcome is None:
                continue  # the resources wanted changed: a new listen request at once, the old stream closed
            if outcome.how in ("unknown", "refused"):
                host.subscriptions.listen_failed(outcome.error)
            if outcome.how == "complete":
                host._give_up(Message(N_("The server {server} ended its subscription."),
                                      {"server": self.server.label}))
                return
            if outcome.how == "unknown":
                host._say(ListenerStatus(ListenerState.NO_STREAM, http_status=outcome.http_status))
                await asyncio.Event().wait()  # nothing to listen to, until stopped
                return
            if outcome.how == "refused":
                host._give_up(outcome.error or Message(N_("The server {server} refused to be listened to."),
                                                       {"server": self.server.label}))
                return
            if backoff.stream_ended(opened, outcome.acknowledged, parser.retry_ms):
                host._give_up(outcome.error or Message(N_("The subscription stream of {server} kept ending "
                                                          "before it was acknowledged."),
                                                       {"server": self.server.label}))
                return
            host.reconnects += 1
            await host._wait(backoff.stream_delay())

    async def _until_changed(self, parser: EventStreamParser) -> _Outcome | None:
        """One listen request, until it ends (its outcome) or the resources wanted change (``None``)."""
        changed = self.host.subscriptions.changed
        changed.clear()
        listening = asyncio.ensure_future(self._listen_once(parser))
        waiting = asyncio.ensure_future(changed.wait())
        try:
            await asyncio.wait((listening, waiting), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (listening, waiting):
                if not task.done():
                    task.cancel()
            await asyncio.wait((listening, waiting))
        if listening.cancelled():
            return None
        return listening.result()

    # -- one request -----------------------------------------------------------------------------

    def _request(self) -> tuple[dict[str, Any], dict[str, str]]:
        from .client import CLIENT_NAME, CLIENT_VERSION

        version = STATELESS_VERSIONS[0]
        params = {"_meta": request_meta(version, self.host.handler.capabilities(),
                                        {"name": CLIENT_NAME, "version": CLIENT_VERSION}),
                  "notifications": {**WANTED, **self.host.subscriptions.listen_params()}}
        request = {"jsonrpc": "2.0", "id": f"listen-{next(_ids)}", "method": LISTEN, "params": params}
        headers = dict(self.server.headers)
        headers.update(standard_headers(version, LISTEN, params))
        headers["Content-Type"] = "application/json"
        headers["Accept"] = "application/json, text/event-stream"
        return request, headers

    async def _listen_once(self, parser: EventStreamParser) -> _Outcome:
        http = self.host._http
        assert http is not None
        request, headers = self._request()
        label = self.server.label
        acknowledged = False
        try:
            async with http.stream("POST", self.server.url, json=request, headers=headers) as response:
                media_type = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
                if media_type == "text/event-stream" and response.status_code == 200:
                    try:
                        async for data in stream_events(response.aiter_bytes(), parser, MAX_EVENT_BYTES):
                            seen = self._consider(data, request["id"])
                            if seen == "ack":
                                acknowledged = True
                            elif isinstance(seen, _Outcome):
                                return _Outcome(seen.how, acknowledged, seen.error)
                    except EventTooLarge:
                        return _Outcome("dropped", acknowledged, Message(N_(
                            "An event on the subscription stream of {server} was too large."), {"server": label}))
                    return _Outcome("dropped", acknowledged)
                return await self._refusal(response, media_type, request["id"])
        except httpx.DecodingError:  # it answered ("… broke: Error -3 while decompressing data" before)
            return _Outcome("dropped", acknowledged, Message(N_(
                "The server {server} answered, but its subscription stream cannot be unpacked as its "
                "Content-Encoding header says (the stream is damaged, or a proxy changed it)."), {"server": label}))
        except httpx.HTTPError as exc:
            return _Outcome("dropped", acknowledged, Message(N_("The subscription stream of {server} broke: "
                                                                "{reason}"), {
                "server": label, "reason": str(exc) or type(exc).__name__}))

    async def _refusal(self, response: httpx.Response, media_type: str, request_id: str) -> _Outcome:
        """An answer that is not a stream: a JSON result or error, or an HTTP status."""
        status = response.status_code
        unkept = signin_refusal(self.server.label, LISTEN, response, self.server.headers, self.server.signed_in,
                                self.server.unkept_headers)
        if unkept is not None and unkept.kind is ErrorKind.HTTP_STATUS:  # secret headers no keyring kept
            return _Outcome("refused", error=unkept, http_status=status)
        if media_type == "application/json":
            body = bytearray()
            async for chunk in response.aiter_bytes():
                body.extend(chunk)
                if len(body) > MAX_JSON_BYTES:
                    break
            try:
                message = json.loads(bytes(body))
            except (ValueError, RecursionError):
                message = None
            # A JSON-RPC response (an API-key server's own {"error": ...} is an HTTP refusal, said by its status).
            if isinstance(message, dict) and "id" in message and ("result" in message or "error" in message):
                ended = self._ended(message, request_id)
                if ended.how == "refused" and ended.error is not None and status == 404:
                    return _Outcome("unknown", error=ended.error, http_status=status)
                return _Outcome(ended.how, error=ended.error, http_status=status)
        if status in (404, 405):
            return _Outcome("unknown", http_status=status)
        if status == 429 or status >= 500 or status == 200:
            return _Outcome("dropped", error=McpTransportError.http_status(self.server.label, LISTEN, status,
                                                                             response.reason_phrase))
        return _Outcome("refused", error=McpTransportError.http_status(
            self.server.label, LISTEN, status, response.reason_phrase,
            credentials=self.server.sends_credentials, in_address=self.server.credentials_in_address),
            http_status=status)

    def _consider(self, data: str, request_id: str) -> str | _Outcome | None:
        """One event of the stream: ``"ack"``, a notification handed on, or how the stream ended."""
        if not data:
            return None
        try:
            message = json.loads(data)
        except (ValueError, RecursionError):
            return None
        if not isinstance(message, dict):
            return None
        if "id" in message and ("result" in message or "error" in message):
            return self._ended(message, request_id)
        method, params = message.get("method"), message.get("params")
        if not isinstance(method, str) or "id" in message:
            return None  # no server requests in this era: nothing to answer
        params = params if isinstance(params, dict) else {}
        meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
        subscription = meta.get(SUBSCRIPTION_ID_KEY)
        if subscription is not None and subscription != request_id:
            return None  # another subscription's (a proxy's mix-up): not ours to act on
        if method == ACKNOWLEDGED:
            self.subscription_id = subscription if subscription is not None else request_id
            honoured = params.get("notifications")
            self.honoured = honoured if isinstance(honoured, dict) else {}
            self.host.subscriptions.acknowledged(self.honoured)
            self.host._say(ListenerStatus(ListenerState.LISTENING, reconnects=self.host.reconnects, stateless=True))
            return "ack"
        self.host._heard(ServerNotification(method, params, LISTEN))
        return None

    def _ended(self, message: dict[str, Any], request_id: str) -> _Outcome:
        """The response to the listen request: its graceful end, or an error. An error whose id is null is
        the server's answer to a request it could not read as one (JSON-RPC's rule): server-everything, of
        the handshake era, refuses so a request outside a session (HTTP 400, -32000 "Server not
        initialized"); it was taken for no answer, listened to again until given up."""
        error = message.get("error")
        if message.get("id") != request_id and not (message.get("id") is None and isinstance(error, dict)):
            return _Outcome("dropped")
        if isinstance(error, dict):
            code = error.get("code") if isinstance(error.get("code"), int) else 0
            text = error.get("message") if isinstance(error.get("message"), str) else ""
            failure = McpTransportError.rpc_error(self.server.label, LISTEN, code, text)
            return _Outcome("unknown" if code == METHOD_NOT_FOUND else "refused", error=failure)
        result = message.get("result")
        kind = result.get("resultType", "complete") if isinstance(result, dict) else None
        if kind == "complete":
            return _Outcome("complete")
        return _Outcome("refused", error=McpTransportError.malformed(
            self.server.label, LISTEN, Message(N_("its result is not the end of a subscription"))))
