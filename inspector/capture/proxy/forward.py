"""The proxy's ASGI application: each request of the agent passed on unchanged, each answer streamed back.

Headers go both ways as they came (``Mcp-Session-Id``, ``MCP-Protocol-Version``, ``Authorization``
included), except the hop-by-hop ones HTTP gives each connection its own of. The answer's bytes
go back as they arrive (an event stream is never held back), compressed or not; a redirect is
passed back, not followed. When the server cannot be reached, or breaks off before its answer
begins, the agent gets a 502 whose body says so in a sentence (a JSON-RPC error for a request).

Beside the forwarding, each exchange is heard by a :class:`~.legs.CapturedLeg` and placed in the
:class:`~.book.OperationBook`, which groups legs into operations and hands them on to be recorded.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from inspector.mcp import public_url
from inspector.mcp.messages import N_, Message
from inspector.mcp.wire import DEFAULT_WIRE

from .book import OperationBook, ProxiedOperation
from .gate import (
    BODY_DEADLINE_S,
    PROXY_ERROR_CODE,
    AgentGone,
    BodyBudget,
    Refused,
    answer_refusal,
    check_origin,
    read_body,
)
from .legs import (
    AGENT_LEFT,
    BUDGET,
    COMPLETE,
    PROXY_STOPPED,
    SERVER_BROKE,
    CapturedLeg,
    parse_json,
    rpc_messages,
)
from .scrub import request_secrets

# Headers of one connection, not of the message (RFC 9110 7.6.1), and the ones the HTTP library
# sets for the connection it makes (Host, Content-Length).
_HOP_BY_HOP = frozenset({"connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization",
                         "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length"})
_ANSWER_HOP_BY_HOP = _HOP_BY_HOP - {"content-length"}
#: How long the proxy waits to connect to the server.
CONNECT_TIMEOUT_S = 10.0

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


class _BrokenAnswer(Exception):
    """The server broke off an answer whose length the agent was told: its connection must drop too."""


class ForwardingApp:
    """Forwards to ``target`` (the server's MCP address); records through ``book``.

    ``budget_s``: a deadline per operation the proxy enforces on the agent's behalf (``None``: none).
    ``wire_level``: how much of each exchange the runs keep (:data:`inspector.mcp.wire.WIRE_LEVELS`).
    ``local_only``: the proxy listens on loopback, so a request must name this machine as its Host
    (see :mod:`.gate`)."""

    def __init__(self, target: str, book: OperationBook, *, budget_s: float | None = None,
                 wire_level: str = DEFAULT_WIRE, verify: bool = True, local_only: bool = True) -> None:
        self.target = target
        #: The server's address as sentences name it: without the user info and query (credentials) of ``target``.
        self.shown_target = public_url(target)
        self.local_only = local_only
        #: The bytes of agents' bodies held by the requests in flight (bounded together: see :mod:`.gate`).
        self.bodies = BodyBudget()
        #: How long a request's body may take to arrive whole (:data:`.gate.BODY_DEADLINE_S`).
        self.body_deadline_s = BODY_DEADLINE_S
        self.book = book
        self.budget_s = budget_s
        self.wire_level = wire_level
        self._verify = verify
        self._http: httpx.AsyncClient | None = None
        self.pending: set[asyncio.Task[Any]] = set()

    def _client(self) -> httpx.AsyncClient:
        if self._http is None:
            # No bound on connections to the server: one per request in flight, as the agent opened them. The
            # library's default (100) made the 101st request wait for ever behind 100 open event streams, and
            # requests cancelled while waiting for a connection left it behind taken: the proxy hung for good.
            self._http = httpx.AsyncClient(timeout=httpx.Timeout(None, connect=CONNECT_TIMEOUT_S), verify=self._verify,
                                           follow_redirects=False, limits=httpx.Limits(max_connections=None,
                                                                                   max_keepalive_connections=20))
        return self._http

    async def aclose(self) -> None:
        if self._http is not None:
            await self._http.aclose()
            self._http = None

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in scope["headers"]]
        try:  # a web page's request, or a body too large, is answered here: never forwarded, never recorded
            check_origin(headers, self.local_only)
            body = await read_body(headers, receive, self.bodies, self.body_deadline_s)
        except Refused as refused:
            await answer_refusal(send, refused)
            return
        except AgentGone:  # nobody to answer, nothing whole to forward
            return
        try:
            await self._pass_on(scope, headers, body, receive, send)
        finally:
            self.bodies.give_back(len(body))

    async def _pass_on(self, scope: dict[str, Any], headers: list[tuple[str, str]], body: bytes, receive: Receive,
                       send: Send) -> None:
        """Forward one request of the agent's (its body read) and record it."""
        query = scope.get("query_string", b"").decode("latin-1")
        url = self.target + (("&" if "?" in self.target else "?") + query if query else "")
        message = None
        if scope["method"] == "POST":
            messages = rpc_messages(parse_json(body)) if body else []
            message = messages[0] if messages else {}
        session = next((value for name, value in headers if name.lower() == "mcp-session-id"), None)
        leg = CapturedLeg(scope["method"], url, message, session, request_secrets(headers, url), self.wire_level)
        operation = self.book.begin(leg)
        if operation is not None and self.budget_s is not None and operation.budget_s is None:
            operation.budget_s = self.budget_s
        forwarded = [(name, value) for name, value in headers if name.lower() not in _HOP_BY_HOP]
        leg.sent(forwarded, body)
        try:
            await self._carry(leg, operation, forwarded, body, receive, send)
        finally:
            if leg.ended_ns is None:  # the proxy itself is stopping
                leg.ended(PROXY_STOPPED)
            self.book.end(leg, operation)

    async def _carry(self, leg: CapturedLeg, operation: ProxiedOperation | None, headers: list[tuple[str, str]],
                     body: bytes, receive: Receive, send: Send) -> None:
        state = _AnswerState()
        work = asyncio.ensure_future(self._forward(leg, headers, body, send, state))
        watch = asyncio.ensure_future(_agent_leaves(receive))
        deadline = self._deadline(leg, operation)
        try:
            done, _ = await asyncio.wait({work, watch}, timeout=deadline, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # the proxy is stopping: its server cancels what is still in flight
            work.cancel()
            watch.cancel()
            leg.ended(PROXY_STOPPED)
            raise
        if work in done:
            watch.cancel()
            work.result()  # a broken answer of known length drops the agent's connection too
            return
        work.cancel()
        await asyncio.gather(work, return_exceptions=True)
        if watch in done:
            leg.ended(AGENT_LEFT)
            return
        watch.cancel()
        assert operation is not None
        operation.ended_by_budget = True
        leg.ended(BUDGET)
        await self._budget_answer(leg, operation, state, send)
        self._tell_server_to_stop(leg, headers)

    def _deadline(self, leg: CapturedLeg, operation: ProxiedOperation | None) -> float | None:
        """Seconds this leg may still take under the proxy's budget: what is left of its grant
        (``None``: no budget, or not a request)."""
        granted_s = None if operation is None or leg.rpc_id is None else operation.granted_s(leg)
        if granted_s is None:
            return None
        return max(granted_s - (time.monotonic_ns() - leg.started_ns) / 1e9, 0.0)

    async def _forward(self, leg: CapturedLeg, headers: list[tuple[str, str]], body: bytes, send: Send,
                       state: _AnswerState) -> None:
        request = httpx.Request(leg.http_method, leg.url, headers=headers, content=body)
        try:
            response = await self._client().send(request, stream=True, follow_redirects=False)
        except httpx.HTTPError as exc:
            said = _unreachable(self.shown_target, leg.method, exc)
            leg.ended(SERVER_BROKE, said)
            await _proxy_answer(send, leg, str(said), state)  # the agent is told in English (a protocol message)
            return
        try:
            answer_headers = [(name.decode("latin-1"), value.decode("latin-1"))
                              for name, value in response.headers.raw]
            leg.answered(response.status_code, answer_headers)
            session = leg.answer_headers.get("mcp-session-id")
            if leg.method == "initialize" and session and leg.session_id is None:
                self.book.session_known(leg, session)
            kept = [(name.encode("latin-1"), value.encode("latin-1")) for name, value in answer_headers
                    if name.lower() not in _ANSWER_HOP_BY_HOP]
            state.started = True
            state.event_stream = leg.answer_headers.get("content-type", "").startswith("text/event-stream")
            state.sized = "content-length" in leg.answer_headers
            await send({"type": "http.response.start", "status": response.status_code, "headers": kept})
            try:
                async for raw in response.aiter_raw():
                    leg.chunk(raw)
                    await send({"type": "http.response.body", "body": raw, "more_body": True})
            except httpx.HTTPError as exc:
                said = Message(N_("The server {server} broke off its answer to {method} before it ended ({reason})."),
                               {"server": self.shown_target, "method": leg.method, "reason": _reason(exc)})
                leg.ended(SERVER_BROKE, said)
                if state.sized:
                    raise _BrokenAnswer(str(said)) from exc
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            leg.ended(COMPLETE)
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            await response.aclose()

    async def _budget_answer(self, leg: CapturedLeg, operation: ProxiedOperation, state: _AnswerState,
                             send: Send) -> None:
        """Tell the agent that the proxy's budget ended its request: a JSON-RPC error for its id."""
        sentence = (f"Run Inspector's proxy ended {operation.method}: its budget of {operation.budget_s:g} s "
                    "for this operation was used up.")
        error = json.dumps({"jsonrpc": "2.0", "id": leg.rpc_id,
                            "error": {"code": PROXY_ERROR_CODE, "message": sentence}}).encode("utf-8")
        try:
            if not state.started:
                await send({"type": "http.response.start", "status": 200,
                            "headers": [(b"content-type", b"application/json")]})
                await send({"type": "http.response.body", "body": error, "more_body": False})
            elif state.event_stream:
                await send({"type": "http.response.body", "body": b"event: message\ndata: " + error + b"\n\n",
                            "more_body": False})
            elif state.sized:
                raise _BrokenAnswer(sentence)
            else:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the agent left meanwhile

    def _tell_server_to_stop(self, leg: CapturedLeg, headers: list[tuple[str, str]]) -> None:
        """In a session, the server is told the request is cancelled (else dropping the request says it)."""
        if leg.session_id is None:
            return
        note = json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                           "params": {"requestId": leg.rpc_id, "reason": "the proxy's budget was used up"}})

        async def tell() -> None:
            kept = [(name, value) for name, value in headers if name.lower() not in ("content-type", "accept")]
            kept += [("content-type", "application/json"), ("accept", "application/json, text/event-stream")]
            try:
                await self._client().post(self.target, content=note, headers=kept, timeout=5.0)
            except httpx.HTTPError:
                pass  # the request was dropped on the wire too: the server learns it either way

        task = asyncio.ensure_future(tell())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return


class _AnswerState:
    """How far the answer to the agent got (its head sent? an event stream? of a told length?)."""

    def __init__(self) -> None:
        self.started = False
        self.event_stream = False
        self.sized = False


async def _agent_leaves(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _unreachable(target: str, method: str, exc: httpx.HTTPError) -> Message:
    """Why the server gave no answer, kept in English and said again in a reader's language."""
    said = {"server": target, "method": method, "reason": _reason(exc)}
    if isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout)):
        return Message(N_("Run Inspector's proxy could not reach the server {server} for {method} ({reason}): "
                          "check that it runs and that the address is right."), said)
    return Message(N_("The server {server} broke off the connection before it answered {method} ({reason})."), said)


async def _proxy_answer(send: Send, leg: CapturedLeg, sentence: str, state: _AnswerState) -> None:
    """The proxy's own 502: a JSON-RPC error for a request (so an agent shows the sentence), else text."""
    if leg.rpc_id is not None:
        body = json.dumps({"jsonrpc": "2.0", "id": leg.rpc_id,
                           "error": {"code": PROXY_ERROR_CODE, "message": sentence}}).encode("utf-8")
        kind = b"application/json"
    else:
        body, kind = sentence.encode("utf-8"), b"text/plain; charset=utf-8"
    state.started = True
    await send({"type": "http.response.start", "status": 502,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body, "more_body": False})
