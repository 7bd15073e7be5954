"""Legs over a line that carries whole messages both ways and is shared by operations: a server
process's stdin and stdout, or the older HTTP+SSE transport's event stream and POST address.

Each leg is one request (or notification) handed to the line in the leg's frame (:mod:`..legs`:
grant, reports, cancel, time-out); the line routes its answer back. What the server sends besides
answers arrives for every operation on the line at once, so :class:`LineRoutes` sorts it out: a
progress notice goes to the operation whose progress token it names, a request of the server to
the newest operation with work in flight (there is no other way to tell whose it is), any other
notification (a log message, a list change) to every operation on the line.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..clock import Clock
from ..errors import McpTransportError
from ..jsonrpc import NotAnAnswer, decode_answer
from ..legs import LegFrame, LegWire
from ..messages import N_, Message
from ..reports import OperationObserver
from ..server import ServerEndpoint
from ..server_requests import (
    ServerRequestHandler,
    is_server_request,
)
from ..standalone import LINE_PROBLEM, ServerNotification, line_note
from ..trace_context import with_traceparent
from .framed_legs import FramedLegs
from .leg_messages import LegAnswer, OutgoingMessage, Session, leg_answer
from .line_faults import AnswerLost
from .sse_legacy import SignInRefused
from .stdio import ChannelError, ProcessExited

#: A progress token unique in this process, so that operations sharing a line get their own notices.
_TOKENS = itertools.count(1)
#: How many faults of the line one operation keeps (each is also reported as it happens).
MAX_PROBLEMS = 20


class MessageLine(Protocol):
    async def request(self, message: Mapping[str, Any]) -> dict[str, Any]: ...

    async def send(self, message: Mapping[str, Any]) -> None: ...


class LineTransport(FramedLegs):
    """Sends the legs of one operation over a shared line, each bounded by the deadline's grant.

    Its surface is :class:`~.http.LegTransport`'s (``send``, ``frame``, ``secrets``, ``declined``),
    so the operation does not know how its messages travel."""

    def __init__(self, frame: LegFrame, server: ServerEndpoint, *, observer: OperationObserver, clock: Clock,
                 handler: ServerRequestHandler | None) -> None:
        self.frame = frame
        self._server = server
        self._observer = observer
        self._clock = clock
        self._handler = handler
        self.secrets = server.secrets()
        self.declined: list[str] = []
        #: This operation's progress token: a line is shared, so every operation has its own.
        self.progress_token = f"run-inspector-{next(_TOKENS)}"
        self.line: MessageLine | None = None
        #: The method of the leg in flight: the "via" of what the server says meanwhile.
        self.current = "GET"
        self._replies: set[asyncio.Task[None]] = set()
        #: Faults of the line seen during this operation (not JSON on stdout, a line over the limit).
        self.problems: list[Message] = []

    async def send(self, leg: OutgoingMessage, session: Session) -> LegAnswer:
        """Send one leg; return its answer or raise :class:`McpTransportError`. A cancel or a
        time-out while the request waits tells the server at once (``notifications/cancelled``)."""
        label = self._server.label

        async def exchange(wire: LegWire) -> LegAnswer:
            if self.line is None:
                raise McpTransportError.process_ended(label, leg.method, Message(N_("the server is not running")))
            message: dict[str, Any] = {"jsonrpc": "2.0", "method": leg.method}
            if leg.params is not None:
                message["params"] = leg.params
            if leg.is_work:
                self.frame.work_sent = True
            self.current = leg.method
            sent = message if leg.is_notification else dict(with_traceparent({**message, "id": leg.request_id}))
            kept = wire.exchange
            if kept is not None:
                # The line writes this very text (stdin, or the older transport's POST body).
                kept.sent(*self._where(), (), _line_text(sent).encode())
            try:
                if leg.is_notification:
                    await self.line.send(message)
                    return LegAnswer(None, 0, None)
                answer = await self.line.request(sent)
            except AnswerLost as lost:
                self.problems = [problem for problem in self.problems if problem != lost.problem]
                if lost.size is not None and lost.limit is not None:
                    raise McpTransportError.line_too_large(label, leg.method, lost.size, lost.limit) from None
                raise McpTransportError.malformed(label, leg.method, lost.sentence) from None
            except ProcessExited as exited:
                raise McpTransportError.process_ended(label, leg.method, exited.sentence) from None
            except SignInRefused as refused:
                raise refused.error from None
            except ChannelError as error:
                raise McpTransportError.process_ended(label, leg.method, error.sentence) from None
            wire.received = len(json.dumps(answer, ensure_ascii=False))
            if kept is not None:
                kept.answered(None)
                kept.body(_line_text(answer).encode())
            try:
                decoded = decode_answer(self.secrets.scrub_parsed(answer, json.dumps(answer)))
            except NotAnAnswer as why:
                raise McpTransportError.malformed(label, leg.method, why.sentence) from None
            return leg_answer(label, leg, decoded, 0, None)

        return await self.frame.run(leg, leg.leg_name, exchange, is_work=leg.is_work)

    def _where(self) -> tuple[str, str]:
        """How a leg's message travels, for its exchange: a line on stdin, or a POST to the address."""
        if self._server.is_command:
            return "stdin", self._server.label
        return "POST", self._server.url

    # -- what the server says on the line, routed here by LineRoutes -----------------------------

    def progress(self, params: dict[str, Any]) -> None:
        self.report_progress(self.current, params)

    def notification(self, note: ServerNotification) -> None:
        if self.secrets and note.params:
            # A server may repeat what it was given (a variable of its environment): cut out here.
            note = ServerNotification(note.method, self.secrets.scrub_parsed(note.params, json.dumps(note.params)),
                                      note.via)
        self._observer.notification(note)

    def line_problem(self, sentence: Message) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(sentence)
        self._observer.notification(line_note(LINE_PROBLEM, str(sentence), self.current))

    def answer(self, request: dict[str, Any]) -> None:
        """Answer a request of the server in a task of this operation (ended with it)."""
        task = asyncio.get_running_loop().create_task(self._answer(request))
        self._replies.add(task)
        task.add_done_callback(self._replies.discard)

    async def _answer(self, request: dict[str, Any]) -> None:
        await self.answer_request(self.current, request, self._deliver)

    async def _deliver(self, reply: dict[str, Any]) -> int | None:
        """Write the reply on the line; 200 when it was written (a line has no status of its own)."""
        if self.line is None:
            return None
        try:
            await self.line.send(reply)
        except ChannelError:
            return None
        return 200

    def end(self) -> None:
        """The operation is over: requests of the server still being answered are dropped."""
        for task in list(self._replies):
            task.cancel()


class LineRoutes:
    """The operations on one line, and who gets what the server says on it."""

    def __init__(self) -> None:
        self._operations: list[LineTransport] = []
        self.line: MessageLine | None = None
        #: Who hears a notification that arrives while no operation is on the line.
        self.on_unclaimed: Callable[[ServerNotification], None] | None = None

    def enter(self, transport: LineTransport) -> None:
        self._operations.append(transport)

    def leave(self, transport: LineTransport) -> None:
        if transport in self._operations:
            self._operations.remove(transport)
        transport.end()

    @property
    def operations(self) -> tuple[LineTransport, ...]:
        return tuple(self._operations)

    def dispatch(self, message: dict[str, Any]) -> None:
        """A message of the server that is not an answer (the line routed those already)."""
        method = message.get("method")
        params = message.get("params")
        params = params if isinstance(params, dict) else {}
        if is_server_request(message):
            target = self._asked()
            if target is not None:
                target.answer(message)
            elif self.line is not None:
                asyncio.get_running_loop().create_task(self._refuse(message))
            return
        if not isinstance(method, str):
            return
        if method == "notifications/progress":
            token = params.get("progressToken")
            for transport in self._operations:
                if transport.progress_token == token:
                    transport.progress(params)
            return
        for transport in self._operations:
            transport.notification(ServerNotification(method, params, transport.current))
        if not self._operations and self.on_unclaimed is not None:
            # Between operations (a process lives on): a log message is still the server's log.
            self.on_unclaimed(ServerNotification(method, params, "process"))

    def _asked(self) -> LineTransport | None:
        """Whose is a request of the server: the newest operation with work in flight, else the newest."""
        working = [transport for transport in self._operations if transport.work_sent]
        chosen = working or self._operations
        return chosen[-1] if chosen else None

    async def _refuse(self, request: dict[str, Any]) -> None:
        """No operation is running: nobody can answer (a ``ping`` is answered all the same)."""
        assert self.line is not None
        if request.get("method") == "ping":
            reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request.get("id"), "result": {}}
        else:
            reply = {"jsonrpc": "2.0", "id": request.get("id"),
                     "error": {"code": -32603, "message": "No operation of the client is running to answer this."}}
        try:
            await self.line.send(reply)
        except ChannelError:
            pass


def _line_text(message: Any) -> str:
    """A message as the lines write it (stdio and the older transport alike), without its newline."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


__all__ = ["LineRoutes", "LineTransport", "MessageLine"]
