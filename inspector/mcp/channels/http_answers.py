"""Reading what a server answered one leg over Streamable HTTP: a JSON body or an event stream, with
the progress notices, notifications and requests the server sends on the way; and the body of a
refusal, kept for the leg's exchange and read for the JSON-RPC error it may carry.

Every answer is bounded in size and cut free of the server's secrets before anyone sees it. Sending
the leg (the POST, a resumption, the HTTP library's failures) is :mod:`.http`'s.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

import httpx

from ..errors import McpTransportError
from ..jsonrpc import NotAnAnswer, RpcAnswer, answers_request, decode_answer, decode_body, is_answer
from ..legs import LegEnded, LegWire
from ..messages import N_, NP_, Message
from ..reports import LegOutcome
from ..server_requests import is_server_request
from ..sse import EventStreamParser, EventTooLarge, stream_events
from ..standalone import ServerNotification
from ..text import load_wire_json

if TYPE_CHECKING:
    from ..secrets import Secrets
    from .http import LegTransport
    from .leg_messages import OutgoingMessage, Session

#: The most of a refusal's body read for the JSON-RPC error it may carry.
ERROR_BODY_BYTES = 64 * 1024
#: How long a refusal's body is read for the leg's exchange, at most.
REFUSAL_READ_S = 1.0
#: How long an event stream may take to end after its answer before it is closed by us.
STREAM_END_GRACE_S = 0.02


class StreamBroken(LegEnded):
    """In the stateless era, an answer stream that ended without the answer: it cannot be resumed,
    the request is sent again under a new id. ``lost``: the connection broke under it (our words for
    why, empty when the server just closed it), rather than the stream ending without the answer."""

    error_kind = "malformed"

    def __init__(self, lost: Message | None = None) -> None:
        super().__init__()
        self.lost = lost
        if lost is not None:
            self.error_kind = "unreachable"


class StreamEnded(LegEnded):
    """An answer stream ended without the answer but with event ids: it may be resumed (the
    request itself went well)."""

    outcome = LegOutcome.OK

    def __init__(self, last_event_id: str, retry_ms: int | None) -> None:
        super().__init__(last_event_id)
        self.last_event_id = last_event_id
        self.retry_ms = retry_ms


class AnswerReader:
    """Reads the answers of one operation's legs for their transport (``legs``): what is said on the
    way is reported through it, the server's requests are answered through it, and its secrets (which
    a refreshed sign-in changes) are cut out of everything read."""

    def __init__(self, legs: LegTransport, max_body_bytes: int) -> None:
        self._legs = legs
        self._label = legs.server.label
        self._max_body = max_body_bytes

    @property
    def _secrets(self) -> Secrets:
        return self._legs.secrets

    async def read(self, leg: OutgoingMessage, response: httpx.Response, wire: LegWire,
                   session: Session) -> RpcAnswer:
        """The answer to ``leg`` in ``response`` (a JSON body or an event stream)."""
        label = self._label
        raw_type = response.headers.get("content-type", "")
        media_type = raw_type.split(";", 1)[0].strip().lower()
        if media_type == "text/event-stream":  # bounded event by event, not as a whole
            return await self.read_event_stream(leg, response, wire, session)
        declared = response.headers.get("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > self._max_body:
            raise McpTransportError.too_large(label, leg.method, self._max_body)
        if media_type not in ("application/json", ""):
            raise McpTransportError.content_type(label, leg.method, self._secrets.scrub(raw_type))
        body = bytearray()
        kept = wire.exchange
        async for chunk in response.aiter_bytes():
            wire.received += len(chunk)
            if kept is not None:
                kept.body(chunk)
            if wire.received > self._max_body:
                raise McpTransportError.too_large(label, leg.method, self._max_body)
            body += chunk
        if response.status_code == 202 and not body.strip():
            # "Accepted" is the answer to a notification; a request left with it never gets its answer.
            raise McpTransportError.malformed(label, leg.method, Message(
                N_("it answered HTTP 202 (Accepted) with no body, as if it were a notification, so no answer came")))
        try:
            return self._scrubbed(decode_body(bytes(body), leg.request_id), body)
        except NotAnAnswer as why:
            raise McpTransportError.malformed(label, leg.method, why.sentence) from None

    async def read_event_stream(self, leg: OutgoingMessage, response: httpx.Response,
                                wire: LegWire, session: Session, last_event_id: str | None = None) -> RpcAnswer:
        """The answer to ``leg`` in an event stream; one that ends with event ids but no answer is
        :class:`StreamEnded` (it may be resumed), in the stateless era :class:`StreamBroken`."""
        label = self._label
        parser = EventStreamParser()
        parser.last_event_id = last_event_id
        invalid = 0
        #: The ids of answers the stream carried for other requests.
        strays: list[Any] = []
        answer: RpcAnswer | None = None
        chunks = response.aiter_bytes()
        # A stream may carry progress for as long as the deadline allows: the limit is each event's.
        try:
            async with aclosing(_counted(chunks, wire)) as counted, \
                    aclosing(stream_events(counted, parser, self._max_body)) as events:
                async for data in events:
                    answer, bad = await self._take_events(leg, [data], wire, session, strays)
                    invalid += bad
                    if answer is not None:
                        break
        except EventTooLarge:
            raise McpTransportError.event_too_large(label, leg.method, self._max_body) from None
        if answer is not None:
            await _finish_quietly(chunks)
            return answer
        if strays and not leg.is_notification:
            # The server answered, under another id: not a stream that broke off (sending the request
            # again would have it done again), nor one to resume.
            raise McpTransportError.malformed(label, leg.method, Message(
                N_("its event stream ended without an answer to it; the answer it carried is for another "
                   "request (id {other}, not {ours})"), {"other": json.dumps(strays[0])[:40], "ours": leg.request_id}))
        if session.stateless and not leg.is_notification:
            # No resumption in this era, event ids or not: the leg broke off, the caller sends the request anew.
            raise StreamBroken()
        if parser.last_event_id is not None and not leg.is_notification:
            # Event ids mean the stream can be resumed: the answer may still come (SEP-1699).
            raise StreamEnded(parser.last_event_id, parser.retry_ms)
        if invalid:
            what = NP_("its event stream ended without an answer ({count} event was not valid JSON)",
                       "its event stream ended without an answer ({count} events were not valid JSON)",
                       {"count": invalid}, count="count")
        else:
            what = Message(N_("its event stream ended without an answer"))
        raise McpTransportError.malformed(label, leg.method, what)

    async def _take_events(self, leg: OutgoingMessage, events: list[str], wire: LegWire,
                           session: Session, strays: list[Any]) -> tuple[RpcAnswer | None, int]:
        """The events' data in order, up to the answer: (the answer to ``leg``, how many were not
        JSON); each is kept in the leg's exchange, a server's request is answered on the way, and the
        id of an answer to another request is added to ``strays``."""
        invalid = 0
        for data in events:
            if wire.exchange is not None:
                wire.exchange.event(self._legs.frame.clock.now_ns(), data)
            answer, bad, request = self._consider_event(leg, data, strays)
            invalid += bad
            if request is not None:
                await self._legs.reply_on(leg.method, request, session)
            if answer is not None:
                return answer, invalid
        return None, invalid

    def _consider_event(self, leg: OutgoingMessage, data: str,
                        strays: list[Any]) -> tuple[RpcAnswer | None, int, dict[str, Any] | None]:
        """One event's data: (the answer to ``leg``, 1 if it was not JSON, a server request)."""
        if data == "":
            return None, 0, None  # e.g. the priming event (an id, empty data): not a message
        try:
            obj = self._secrets.scrub_parsed(load_wire_json(data), data)  # text repaired and scrubbed here, once
        except (ValueError, RecursionError):
            return None, 1, None
        if isinstance(obj, dict) and obj.get("method") == "notifications/progress":
            self._legs.report_progress(leg.method, obj.get("params"))
            return None, 0, None
        if is_server_request(obj):
            return None, 0, obj
        if isinstance(obj, dict) and isinstance(obj.get("method"), str) and "id" not in obj:
            params = obj.get("params")
            self._legs.frame.observer.notification(
                ServerNotification(obj["method"], params if isinstance(params, dict) else {}, leg.method))
            return None, 0, None
        # Only the answer to this leg's request counts; an answer to another id is not ours.
        if not is_answer(obj):
            return None, 0, None
        if not answers_request(obj, leg.request_id):
            strays.append(obj.get("id"))
            return None, 0, None
        try:
            return decode_answer(obj), 0, None
        except NotAnAnswer as why:
            raise McpTransportError.malformed(self._label, leg.method, why.sentence) from None

    async def raise_error_body(self, leg: OutgoingMessage, response: httpx.Response, status: int,
                               wire: LegWire | None = None, only: tuple[int, ...] | None = None) -> None:
        """Raise the JSON-RPC error a refusal carries in its body; return when it carries none (or,
        given ``only``, none of those codes). The bytes read are counted on ``wire`` (``None``: they
        were counted when the body was kept)."""
        if response.headers.get("content-type", "").split(";", 1)[0].strip().lower() != "application/json":
            return
        body = bytearray()
        async for chunk in response.aiter_bytes():
            body += chunk
            if wire is not None:
                wire.received += len(chunk)
            if len(body) > ERROR_BODY_BYTES:
                return
        try:
            answer = decode_body(bytes(body))
        except NotAnAnswer:
            return
        if answer.is_error and (only is None or answer.error_code in only):
            answer = self._scrubbed(answer, body)
            raise McpTransportError.rpc_error(self._label, leg.method, answer.error_code or 0,
                                              answer.error_message or "no message", data=answer.error_data,
                                              http_status=status, code_sent=answer.error_code_sent)

    def _scrubbed(self, answer: RpcAnswer, body: bytearray) -> RpcAnswer:
        """The answer decoded from ``body`` without the server's secrets."""
        secrets = self._secrets
        message, sent = answer.error_message, answer.error_code_sent
        return RpcAnswer(result=secrets.scrub_parsed(answer.result, body), error_code=answer.error_code,
                         error_message=secrets.scrub(message) if message is not None else None,
                         error_data=secrets.scrub_parsed(answer.error_data, body),
                         error_code_sent=secrets.scrub(sent) if sent is not None else None)


async def keep_refusal(response: httpx.Response, wire: LegWire) -> None:
    """Read the body of a refusal for the leg's exchange (at most 64 KB, for at most
    :data:`REFUSAL_READ_S`: a refusal is never made to wait on a body that does not come); what
    was read stays readable for the error body after."""
    body = bytearray()
    try:
        async with asyncio.timeout(REFUSAL_READ_S):
            async for chunk in response.aiter_bytes():
                body += chunk
                if len(body) > ERROR_BODY_BYTES:
                    break
    except (TimeoutError, httpx.HTTPError):
        pass  # what came is kept; the refusal is reported as it would have been
    wire.received += len(body)
    if wire.exchange is not None:
        wire.exchange.body(bytes(body))
    response._content = bytes(body[:ERROR_BODY_BYTES])  # noqa: SLF001 - read again below, from memory


async def _counted(chunks: AsyncIterator[bytes], wire: LegWire) -> AsyncIterator[bytes]:
    """The chunks of an answer, each counted on ``wire`` as it is read."""
    async for chunk in chunks:
        wire.received += len(chunk)
        yield chunk


async def _finish_quietly(chunks: AsyncIterator[bytes]) -> None:
    """After the answer, give the stream a moment to end so the connection can be reused.

    Servers usually close the stream right after the answer; one that keeps it open is not
    waited for (the stream is then closed, and the next leg opens a new connection).
    """
    try:
        async with asyncio.timeout(STREAM_END_GRACE_S):
            async for _ in chunks:
                pass  # anything after the answer is not ours to read
    except TimeoutError:
        pass
