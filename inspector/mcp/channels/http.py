"""Sending one leg of an operation over Streamable HTTP (one POST, or a GET resuming its answer),
in the leg's frame (:mod:`..legs`: grant, reports, cancel, time-out): :class:`LegTransport`.

The request's headers come from :mod:`.http_requests`, the answer is read by :mod:`.http_answers`,
the HTTP library's failures are named by :mod:`.http_faults`, the client is made by :mod:`.http_client`."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from ..cancel import CancelSignal
from ..clock import Clock
from ..deadline import OperationDeadline
from ..eras import AUTO
from ..errors import METHOD_NOT_FOUND, STATELESS_ERRORS, McpTransportError
from ..leg_names import RESUMED_LEG
from ..legs import LegEnded, LegFrame, LegWire
from ..messages import N_, Message
from ..reports import OperationObserver
from ..server import ServerEndpoint
from ..server_requests import ServerRequestHandler
from ..signin.challenge import signin_refusal
from ..trace_context import trace_headers
from .framed_legs import FramedLegs
from .http_answers import AnswerReader, StreamEnded, keep_refusal
from .http_faults import named_failures
from .http_requests import message_headers, stream_headers
from .leg_messages import LegAnswer, OutgoingMessage, Session, leg_answer

MAX_BODY_BYTES = 2 * 1024 * 1024
#: How often one leg's answer stream may be resumed (each time bounded by the deadline too).
MAX_RESUMES = 10
#: The reconnection delay when the server gave no ``retry:``.
DEFAULT_RETRY_MS = 1000
_VISIBLE_ASCII = frozenset(range(0x21, 0x7F))


class SessionGone(LegEnded):
    """HTTP 404 on a leg that carried a session id: the client may start afresh once."""

    error_kind = "session_expired"


class LegTransport(FramedLegs):
    """Sends the legs of one operation to one server, each bounded by the deadline's grant.

    The grant bounds connect, send and the whole body, including an event stream that keeps
    sending progress. Every failure becomes a :class:`McpTransportError` naming the server.
    """

    def __init__(self, http: httpx.AsyncClient, server: ServerEndpoint, *, deadline: OperationDeadline | None = None,
                 observer: OperationObserver | None = None, clock: Clock | None = None,
                 cancel: CancelSignal | None = None, max_body_bytes: int = MAX_BODY_BYTES,
                 handler: ServerRequestHandler | None = None, frame: LegFrame | None = None) -> None:
        if frame is None:
            assert deadline is not None and observer is not None and clock is not None
            frame = LegFrame(server.label, deadline=deadline, observer=observer, clock=clock, cancel=cancel)
        self._http = http
        self._handler = handler
        self._server = server
        self._observer = frame.observer
        self._clock = frame.clock
        #: The server's credentials, cut out of everything it says (it may repeat what it was sent).
        self.secrets = server.secrets()
        #: The legs' frame: grants, reports, cancel, time-out; what was sent and torn down.
        self.frame = frame
        #: Every operation on an address has this progress token (its session is its own).
        self.progress_token = "run-inspector"
        #: Methods of requests the server sent the client and the client declined, in order.
        self.declined: list[str] = []
        #: Reads each leg's answer (and a refusal's body) for these legs.
        self._answers = AnswerReader(self, max_body_bytes)

    @property
    def http(self) -> httpx.AsyncClient:
        return self._http

    async def send(self, leg: OutgoingMessage, session: Session) -> LegAnswer:
        """Send one leg; return its answer or raise :class:`McpTransportError`.

        When the answer stream ends without the answer after giving event ids, the server
        means the client to come back for it: after the ``retry`` delay the client resumes with
        ``GET`` and ``Last-Event-ID``, as a leg of its own, while the deadline allows.
        """
        ended: StreamEnded | None = None
        for attempt in range(MAX_RESUMES + 1):
            try:
                return await self._send_once(leg, session, ended)
            except StreamEnded as again:  # never in the stateless era: its broken streams are sent anew
                ended = again
            if attempt < MAX_RESUMES:
                await self._wait_to_resume(leg, ended)
        raise McpTransportError.malformed(
            self._server.label, leg.method,
            Message(N_("its event stream ended without an answer {count} times in a row"), {"count": MAX_RESUMES + 1}))

    async def _wait_to_resume(self, leg: OutgoingMessage, ended: StreamEnded) -> None:
        """Wait the delay the server asked for; fail at once if the deadline ends before it."""
        delay_s = (ended.retry_ms if ended.retry_ms is not None else DEFAULT_RETRY_MS) / 1000
        remaining_s = self.frame.deadline.remaining_s()
        if delay_s >= remaining_s:
            self.frame.interrupt(leg, "timed out on the client's budget", is_work=leg.is_work)
            raise McpTransportError.resume_too_late(self._server.label, leg.method, self.frame.deadline.budget_s,
                                                    delay_s, max(remaining_s, 0.0))
        await asyncio.sleep(delay_s)

    async def _send_once(self, leg: OutgoingMessage, session: Session, resume: StreamEnded | None) -> LegAnswer:
        """One HTTP request of a leg, in the leg's frame: the POST, or a GET that resumes its answer stream."""
        method = leg.leg_name if resume is None else RESUMED_LEG.format(method=leg.method)

        async def exchange(wire: LegWire) -> LegAnswer:
            return await self._carried(leg, method, session, wire, resume)

        return await self.frame.run(leg, method, exchange, is_work=leg.is_work)

    async def _carried(self, leg: OutgoingMessage, method: str, session: Session, wire: LegWire,
                       resume: StreamEnded | None) -> LegAnswer:
        """The HTTP request of a leg, the HTTP library's failures named as the leg's."""
        return await named_failures(self._server.label, method, leg, session, wire,
                                    self._exchange(leg, session, wire) if resume is None
                                    else self._resume(leg, session, wire, resume))

    async def _post(self, leg: OutgoingMessage, session: Session,
                    wire: LegWire | None = None) -> tuple[httpx.Request, httpx.Response]:
        """POST the leg's message; once more with a fresh proof when a DPoP-bound sign-in's server
        asks for its nonce (RFC 9449 §9)."""
        for attempt in range(2):
            request = self._http.build_request("POST", self._server.url, content=leg.body(),
                                               headers={**message_headers(self._server, session), **leg.headers,
                                                        **trace_headers(self._server.headers)})
            if leg.is_work:
                self.frame.work_sent = True
            if wire is not None and wire.exchange is not None:
                wire.exchange.sent("POST", str(request.url), request.headers.multi_items(), request.content)
            response = await self._http.send(request, stream=True)
            proof = self._server.dpop
            if proof is None or not proof.observe(self._server.url, response.status_code, response.headers) \
                    or attempt:
                return request, response
            await response.aclose()
        raise AssertionError("unreachable")

    async def _exchange(self, leg: OutgoingMessage, session: Session, wire: LegWire) -> LegAnswer:
        label = self._server.label
        request, response = await self._post(leg, session, wire)
        try:
            status = wire.status = response.status_code
            if wire.exchange is not None:
                wire.exchange.answered(status, response.headers.multi_items())
            if status >= 300:
                if status == 404 and session.session_id:
                    raise SessionGone()
                kept = wire.exchange is not None and wire.exchange.bodies
                if kept:
                    await keep_refusal(response, wire)  # its bytes counted there
                refusal = signin_refusal(label, leg.method, response, request.headers, self._server.signed_in,
                                         self._server.unkept_headers)
                if refusal is not None:
                    raise refusal
                if 400 <= status < 500 and (session.stateless or leg.method == "server/discover"):
                    # The stateless era says why in a JSON-RPC error body (an unsupported version...).
                    await self._answers.raise_error_body(leg, response, status, None if kept else wire)
                if status in (400, 404) and leg.method == "initialize" and self._server.era == AUTO:
                    # A server remembered in the handshake era that now speaks only the stateless one
                    # says so in its body (at 404: the method unknown, as that era refuses a method it
                    # lacks): the operation probes again (else every one would fail here, or take the
                    # address for one of the older transport).
                    await self._answers.raise_error_body(leg, response, status, None if kept else wire,
                                                         only=STATELESS_ERRORS if status == 400 else
                                                         (*STATELESS_ERRORS, METHOD_NOT_FOUND))
                raise McpTransportError.http_status(
                    label, leg.method, status, self._said(response.reason_phrase),
                    self._said(response.headers.get("location")) if 300 <= status < 400 else None,
                    credentials=self._server.sends_credentials, in_address=self._server.credentials_in_address)
            new_session = response.headers.get("mcp-session-id") or None
            if new_session is not None and not all(ord(c) in _VISIBLE_ASCII for c in new_session):
                raise McpTransportError.malformed(label, leg.method,
                                                  Message(N_("its session id has characters outside visible ASCII")))
            if leg.is_notification:
                # The answer to a notification is not read; 202 without a body is the norm.
                # An announced empty body is consumed so that the connection can be reused.
                if response.headers.get("content-length", "").strip() == "0":
                    await response.aread()
                return LegAnswer(None, status, new_session)
            answer = await self._answers.read(leg, response, wire, session)
            return leg_answer(label, leg, answer, status, new_session)
        finally:
            await response.aclose()

    async def _resume(self, leg: OutgoingMessage, session: Session, wire: LegWire, ended: StreamEnded) -> LegAnswer:
        """GET the endpoint with ``Last-Event-ID``: the server replays what followed, answer included."""
        label, method = self._server.label, RESUMED_LEG.format(method=leg.method)
        headers = stream_headers(self._server, session, ended.last_event_id)
        request = self._http.build_request("GET", self._server.url, headers=headers)
        if wire.exchange is not None:
            wire.exchange.sent("GET", str(request.url), request.headers.multi_items())
        response = await self._http.send(request, stream=True)
        try:
            status = wire.status = response.status_code
            if wire.exchange is not None:
                wire.exchange.answered(status, response.headers.multi_items())
            if status == 404 and session.session_id:
                # Never a fresh start here: that would send the request a second time.
                raise McpTransportError.session_expired(label, method)
            if status >= 300:
                raise signin_refusal(label, method, response, headers, self._server.signed_in,
                                     self._server.unkept_headers) or \
                    McpTransportError.http_status(label, method, status, self._said(response.reason_phrase),
                                                  credentials=self._server.sends_credentials,
                                                  in_address=self._server.credentials_in_address)
            raw_type = response.headers.get("content-type", "")
            if raw_type.split(";", 1)[0].strip().lower() != "text/event-stream":
                raise McpTransportError.content_type(label, method, self._said(raw_type))
            answer = await self._answers.read_event_stream(leg, response, wire, session, ended.last_event_id)
            return leg_answer(label, leg, answer, status, None)
        finally:
            await response.aclose()

    def _said(self, text: str | None) -> str:
        """Text from a response's head, scrubbed before an error clips it (a cut must not leave half a secret)."""
        return self.secrets.scrub(text or "")

    async def reply_on(self, via: str, request: dict[str, Any], session: Session) -> None:
        """Answer a request the server sent, POSTing the reply. Runs inside the leg, so the leg's
        grant and the cancel signal bound it too; the leg goes on reading its answer."""
        await self.answer_request(via, request, lambda reply: self.post_reply(reply, session))

    async def post_reply(self, reply: dict[str, Any], session: Session) -> int | None:
        """POST a JSON-RPC response to the server; its HTTP status, or ``None`` if it failed."""
        try:
            sent = await self._http.send(
                self._http.build_request("POST", self._server.url,
                                         content=json.dumps(reply, separators=(",", ":")).encode(),
                                         headers=message_headers(self._server, session)),
                stream=True)
            await sent.aclose()
            return sent.status_code
        except httpx.HTTPError:
            return None
