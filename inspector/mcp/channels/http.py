"""Sending one leg of an operation over Streamable HTTP (one POST, or a GET resuming its answer),
in the leg's frame (:mod:`.legs`: grant, reports, cancel, time-out); its answer is read by
:mod:`.http_answers`."""

from __future__ import annotations

import asyncio
import json
import math
import ssl
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import httpx

from ..cancel import CancelSignal
from ..clock import Clock
from ..connect_reasons import connection_reason
from ..deadline import OperationDeadline
from ..eras import STATELESS_VERSIONS
from ..errors import McpTransportError
from ..jsonrpc import RpcAnswer
from ..legs import LegEnded, LegFrame, LegWire
from ..messages import N_, Message
from ..reports import OperationObserver, ProgressSeen
from ..server import ServerEndpoint
from ..server_requests import (
    ServerRequestHandler,
    ServerRequestSeen,
    answer_server_request,
    clipped,
    shown_method,
    timed_out_reply,
)
from ..signin.challenge import signin_refusal
from ..trace_context import trace_headers, with_traceparent
from .http_answers import AnswerReader, StreamBroken, StreamEnded, keep_refusal

MAX_BODY_BYTES = 2 * 1024 * 1024
USER_AGENT = "run-inspector/0.1"
#: How often one leg's answer stream may be resumed (each time bounded by the deadline too).
MAX_RESUMES = 10
#: The reconnection delay when the server gave no ``retry:``.
DEFAULT_RETRY_MS = 1000
#: How a resumption leg is named in reports (the budget bar, the stored legs).
RESUMED_LEG = "{method} (resumed)"
_VISIBLE_ASCII = frozenset(range(0x21, 0x7F))


class _VerifiedOnFirstUse(ssl.SSLContext):
    """A verifying TLS client context (as :func:`ssl.create_default_context` makes) that loads the
    system's certificate authorities when it is first used: reading them costs tens of
    milliseconds, which a call to a plain ``http://`` server need not pay."""

    _loaded = False
    _loading = threading.Lock()

    def _load(self) -> None:
        with self._loading:
            if not self._loaded:
                self.load_default_certs(ssl.Purpose.SERVER_AUTH)
                self._loaded = True

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:  # type: ignore[override]
        self._load()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:  # type: ignore[override]
        self._load()
        return super().wrap_bio(*args, **kwargs)


@lru_cache(maxsize=1)
def shared_ssl_context() -> ssl.SSLContext:
    """One verified TLS context per process: building it costs milliseconds per client."""
    return _VerifiedOnFirstUse(ssl.PROTOCOL_TLS_CLIENT)


def new_http_client() -> httpx.AsyncClient:
    """An httpx client for one operation: no redirects, no time-outs of its own (the leg's
    grant bounds everything), no proxy or ``.netrc`` credentials taken from the environment."""
    return httpx.AsyncClient(
        verify=shared_ssl_context(),
        follow_redirects=False,
        timeout=httpx.Timeout(None),
        trust_env=False,
        headers={"User-Agent": USER_AGENT},
    )


@dataclass
class Session:
    """What the handshake of one operation established (or, in the stateless era, the revision
    every request names). Never shared between operations."""

    session_id: str | None = None
    protocol_version: str | None = None

    @property
    def stateless(self) -> bool:
        """True in the stateless era: no session, every request carries its version."""
        return self.protocol_version in STATELESS_VERSIONS


def message_headers(server: ServerEndpoint, session: Session, method: str = "POST") -> dict[str, str]:
    """The headers of every message: the server's own, then ours (which win), then the session's;
    with a DPoP-bound sign-in, a fresh proof for this request (``method`` to the server's address)."""
    headers = dict(server.headers)
    if server.dpop is not None and server.signed_in:
        token = headers.get("Authorization", "").partition(" ")[2]
        headers.update(server.dpop.resource_headers(method, server.url, token))
    headers["Content-Type"] = "application/json"
    headers["Accept"] = "application/json, text/event-stream"
    if session.session_id:
        headers["Mcp-Session-Id"] = session.session_id
    if session.protocol_version:
        headers["MCP-Protocol-Version"] = session.protocol_version
    return headers


@dataclass
class OutgoingMessage:
    """One message a leg sends: a request (with an id) or a notification (without).

    Not to be confused with :class:`inspector.runs.Leg`, the recorded leg of a step.
    """

    method: str
    params: dict[str, Any] | None
    request_id: int | None = None
    #: True for the request that carries the work (``tools/call``, ``tools/list``).
    is_work: bool = False
    #: Headers of this message only (the stateless era's ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``).
    headers: dict[str, str] = field(default_factory=dict)
    #: The leg's name where it differs from the method (``tools/call (round 2)``).
    shown: str | None = None
    #: A probe: the server refusing it is an answer (the leg is reported as it went well).
    refusal_answers: bool = False

    @property
    def leg_name(self) -> str:
        return self.shown or self.method
    _on_wire: bool = field(default=False, repr=False)

    @property
    def is_notification(self) -> bool:
        return self.request_id is None

    def body(self) -> bytes:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": self.method}
        if self.request_id is not None:
            message["id"] = self.request_id
        if self.params is not None:
            message["params"] = self.params
        return json.dumps(with_traceparent(message), separators=(",", ":")).encode()


@dataclass(frozen=True)
class LegAnswer:
    """A leg that succeeded: the JSON-RPC result (``None`` for a notification) and headers."""

    result: dict[str, Any] | None
    http_status: int
    session_id: str | None


class SessionGone(LegEnded):
    """HTTP 404 on a leg that carried a session id: the client may start afresh once."""

    error_kind = "session_expired"


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
            if self.frame.deadline.remaining_s() <= 0:
                self._seen(via, request, timed_out_reply(request.get("id")), None, self._since(started))
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
            except StreamEnded as again:
                if session.stateless:
                    raise StreamBroken() from None  # no resumption in this era: the caller sends anew
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
        label = self._server.label
        try:
            return await (self._exchange(leg, session, wire) if resume is None
                          else self._resume(leg, session, wire, resume))
        except httpx.DecodingError:
            raise McpTransportError.malformed(
                label, method, Message(N_("its body could not be decoded as its Content-Encoding claims"))) from None
        except httpx.InvalidURL:
            # ServerEndpoint checks the address first; this is the last line of defence,
            # so that a bad address is a failed operation rather than a traceback.
            raise McpTransportError.unreachable(label, method, "the address cannot be used") from None
        except httpx.ConnectError as exc:
            raise McpTransportError.unreachable(label, method, connection_reason(exc) or _describe(exc)) from None
        except httpx.RemoteProtocolError as exc:
            if not _is_disconnect(exc):
                # Headers too large, a status line that is not HTTP...: the server answered, badly.
                raise McpTransportError.malformed(
                    label, method, Message(N_("its HTTP response headers or framing are not valid ({reason})"),
                                           {"reason": _describe(exc)})) from None
            if session.stateless and wire.status == 200 and not leg.is_notification:
                raise StreamBroken() from None  # the answer stream broke: sent anew, not resumed
            # The library's own words ("Server disconnected without sending a response.") are
            # English only: the server went away, which connection_lost says without a detail.
            raise McpTransportError.connection_lost(label, method, connection_reason(exc) or "") from None
        except httpx.TransportError as exc:
            if session.stateless and wire.status == 200 and not leg.is_notification:
                raise StreamBroken() from None
            raise McpTransportError.connection_lost(label, method, connection_reason(exc) or _describe(exc)) from None

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
                refusal = signin_refusal(label, leg.method, response, request.headers, self._server.signed_in)
                if refusal is not None:
                    raise refusal
                if 400 <= status < 500 and (session.stateless or leg.method == "server/discover"):
                    # The stateless era says why in a JSON-RPC error body (an unsupported version...).
                    await self._answers.raise_error_body(leg, response, status, None if kept else wire)
                raise McpTransportError.http_status(
                    label, leg.method, status, self._said(response.reason_phrase),
                    self._said(response.headers.get("location")) if 300 <= status < 400 else None,
                    credentials=self._sends_credentials)
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
            return _leg_answer(label, leg, answer, status, new_session)
        finally:
            await response.aclose()

    async def _resume(self, leg: OutgoingMessage, session: Session, wire: LegWire, ended: StreamEnded) -> LegAnswer:
        """GET the endpoint with ``Last-Event-ID``: the server replays what followed, answer included."""
        label, method = self._server.label, RESUMED_LEG.format(method=leg.method)
        headers = message_headers(self._server, session, "GET")
        del headers["Content-Type"]
        headers["Accept"] = "text/event-stream"
        headers["Last-Event-ID"] = ended.last_event_id
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
                raise signin_refusal(label, method, response, headers, self._server.signed_in) or \
                    McpTransportError.http_status(label, method, status, self._said(response.reason_phrase),
                                                  credentials=self._sends_credentials)
            raw_type = response.headers.get("content-type", "")
            if raw_type.split(";", 1)[0].strip().lower() != "text/event-stream":
                raise McpTransportError.content_type(label, method, self._said(raw_type))
            answer = await self._answers.read_event_stream(leg, response, wire, session, ended.last_event_id)
            return _leg_answer(label, leg, answer, status, None)
        finally:
            await response.aclose()

    @property
    def _sends_credentials(self) -> bool:
        """The requests carry something a server could refuse: headers configured for it, or a sign-in."""
        return bool(self._server.headers) or self._server.signed_in

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

def _leg_answer(label: str, leg: OutgoingMessage, answer: RpcAnswer, status: int, session_id: str | None) -> LegAnswer:
    """The leg's answer; a JSON-RPC error answer is the leg's failure."""
    if answer.is_error:
        raise McpTransportError.rpc_error(label, leg.method, answer.error_code or 0,
                                          answer.error_message or "no message", data=answer.error_data,
                                          http_status=status or None)
    return LegAnswer(answer.result, status, session_id)


def _finite(value: Any) -> float | None:
    """A JSON number as a finite float, or ``None`` (booleans, text, huge integers refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _is_disconnect(exc: httpx.RemoteProtocolError) -> bool:
    """True when the server went away (rather than sent something that is not HTTP)."""
    text = str(exc).lower()
    return "disconnected" in text or "peer closed" in text or "connection closed" in text


def _describe(exc: Exception) -> str:
    text = str(exc)
    if not text:
        text = type(exc).__name__
    return text
