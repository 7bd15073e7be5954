"""Which legs make one operation: the proxy's grouping of an agent's requests into runs.

One run per operation, as Run Inspector records its own calls:

- A request the agent sends (``tools/call``, ``tools/list``, ``resources/read``, ``ping``, …) opens
  an operation; its answer ends it.
- The session's handshake (``initialize``, ``notifications/initialized``) opens the session's first
  operation: those legs come first in it, as in a call Run Inspector makes itself. A session that
  ends with no operation after its handshake is recorded as an ``initialize`` run.
- Pages of ``tools/list`` (a request whose cursor is the ``nextCursor`` of the one before), and the
  rounds of a request the server answered ``input_required`` (the retry carries its
  ``requestState`` back, in the stateless era) are legs of one operation: the run is written when
  no further page or round is asked for, when the session's next request is not one, when the
  session ends, or :data:`HOLD_S` seconds after the last answer.
- The agent's ``notifications/cancelled`` for a request in flight is a leg of that operation and
  marks it cancelled; its answer to a server's request (e.g. ``elicitation/create``) is a leg of the
  operation whose stream carried the request.
- The server's stream (``GET``), the session's end (``DELETE``) and any other notification are runs
  of their own; a ``DELETE`` marks the session's requests still in flight ended by the agent.
"""

from __future__ import annotations

import asyncio
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from inspector.runs.times import utc_now

from .legs import CapturedLeg

#: The handshake's legs: they open the session's first operation.
HANDSHAKE = ("initialize", "notifications/initialized")
_NUMBERS = itertools.count(1)
#: How long an operation waits for its next page or round before it is written as it stands.
HOLD_S = 10.0


@dataclass
class ProxiedOperation:
    """An agent's operation as it went through the proxy: its legs, in the order they started."""

    method: str
    started_at: datetime
    legs: list[CapturedLeg] = field(default_factory=list)
    #: The agent cancelled it (``notifications/cancelled``) or dropped its connection mid-call.
    cancelled_by_agent: bool = False
    #: The agent ended its session (``DELETE``) while it was in flight: the server then ends its answer
    #: without a result (the ``mcp`` 1.x client does so when it leaves with a call it gave up on).
    session_ended_by_agent: bool = False
    #: The proxy's budget ended it (``--budget``), after ``budget_s`` seconds.
    budget_s: float | None = None
    ended_by_budget: bool = False
    #: Its number in this proxy, from 1 (a key for its running row).
    number: int = field(default_factory=lambda: next(_NUMBERS))

    @property
    def main(self) -> CapturedLeg:
        """The leg that carried the operation's own request (the last of its method)."""
        own = [leg for leg in self.legs if leg.method == self.method]
        return own[-1] if own else self.legs[-1]

    @property
    def first(self) -> CapturedLeg:
        return next((leg for leg in self.legs if leg.method == self.method), self.legs[0])

    def granted_s(self, leg: CapturedLeg) -> int | None:
        """What ``leg`` is granted of the budget: what was left of it when the leg started, rounded up to
        whole seconds, as Run Inspector's own calls grant it (ADR-170); the leg's deadline, and so a
        leg the budget ended used its whole grant ("timed out"). ``None`` without a budget."""
        if self.budget_s is None:
            return None  # no deadline: the agent's requests spent what they took
        offset_s = (leg.started_ns - self.legs[0].started_ns) / 1e9
        return max(0, math.ceil(self.budget_s - offset_s))


@dataclass
class _Session:
    handshake: list[CapturedLeg] = field(default_factory=list)
    handshake_at: datetime | None = None


class OperationBook:
    """Groups the legs the proxy carries into operations; hands each finished one to ``finished``.

    Called from the proxy's event loop only (one thread): no locks."""

    def __init__(self, finished: Callable[[ProxiedOperation], None],
                 started: Callable[[ProxiedOperation], None] | None = None) -> None:
        self._finished = finished
        self._started = started or (lambda _operation: None)
        self._sessions: dict[str | None, _Session] = {}
        # Open operations by (session, request id); server requests by (session, id) to their operation.
        self._open: dict[tuple[str | None, str], ProxiedOperation] = {}
        self._asked: dict[tuple[str | None, str], ProxiedOperation] = {}
        # Operations waiting for a further page or round, by (session, what the next request carries).
        self._held: dict[tuple[str | None, str], ProxiedOperation] = {}
        self._timers: dict[tuple[str | None, str], asyncio.TimerHandle] = {}

    # -- a leg begins ------------------------------------------------------------------------

    def begin(self, leg: CapturedLeg) -> ProxiedOperation | None:
        """Place a leg as it starts; return the operation it opens or joins (``None`` for a handshake leg,
        which waits for the session's first operation)."""
        session = self._sessions.setdefault(leg.session_id, _Session())
        method = leg.method
        if method in HANDSHAKE:
            if method == "initialize":
                session.handshake_at = utc_now()
            session.handshake.append(leg)
            return None
        if method == "notifications/cancelled":
            operation = self._open.get((leg.session_id, _key(leg.params.get("requestId"))))
            if operation is not None:
                operation.cancelled_by_agent = True
                operation.legs.append(leg)
                return operation
        if method == "response" and leg.message is not None:
            operation = self._asked.pop((leg.session_id, _key(leg.message.get("id"))), None) or \
                self._asking(leg.session_id, leg.message.get("id"))
            if operation is not None:
                asked = next((message.get("method") for earlier in operation.legs for message in earlier.server_messages
                              if "id" in message and message.get("id") == leg.message.get("id")), None)
                if isinstance(asked, str) and asked:
                    leg.label = f"{asked} (answer)"  # the agent's answer to the server's question, named by it
                operation.legs.append(leg)
                return operation
        token = _continues(leg)
        held = None
        if token is not None:
            # Held after its answer ended, or still in flight: the agent may ask for more as soon as it
            # has read the answer, before the proxy has seen the end of the answer's stream.
            held = self._release((leg.session_id, token)) or next(
                (op for (session, _id), op in self._open.items()
                 if session == leg.session_id and _asks_for_more(op.main) == token), None) or self._same_listing(leg)
        if held is not None:
            held.legs.append(leg)
            self._open[(leg.session_id, _key(leg.rpc_id))] = held
            return held
        if leg.session_id is not None and leg.rpc_id is not None:
            self._flush_held(leg.session_id)  # the agent moved on: no further page or round follows
        if method == "DELETE":
            for (session_id, _id), open_operation in self._open.items():
                if session_id == leg.session_id and session_id is not None:
                    open_operation.session_ended_by_agent = True
        if leg.rpc_id is None:  # a stream, a session's end, a notification: a run of its own
            operation = ProxiedOperation(method, utc_now(), [leg])
        else:
            operation = ProxiedOperation(method, session.handshake_at or utc_now())
            operation.legs.extend(session.handshake)
            session.handshake.clear()
            session.handshake_at = None
            operation.legs.append(leg)
            self._open[(leg.session_id, _key(leg.rpc_id))] = operation
        self._started(operation)
        return operation

    def _same_listing(self, leg: CapturedLeg) -> ProxiedOperation | None:
        """A further page asked for before the proxy has read the page before it (the agent reads the
        answer as it is passed on, the capture beside it may be a moment behind): the session's one
        listing of that method in flight or held, when there is exactly one."""
        found = {id(op): op for (session, _id), op in self._open.items()
                 if session == leg.session_id and op.method == leg.method}
        for (session, _token), op in self._held.items():
            if session == leg.session_id and op.method == leg.method:
                found[id(op)] = op
        if len(found) != 1:
            return None
        (operation,) = found.values()
        for (session, token), op in list(self._held.items()):
            if op is operation:
                self._release((session, token))
        return operation

    def _asking(self, session_id: str | None, request_id: Any) -> ProxiedOperation | None:
        """The operation in flight whose answer stream carried the server's request ``request_id``."""
        for (session, _id), operation in self._open.items():
            if session == session_id and any(message.get("id") == request_id and "id" in message
                                             for leg in operation.legs for message in leg.server_messages):
                return operation
        return None

    def session_known(self, leg: CapturedLeg, session_id: str) -> None:
        """An ``initialize`` answer gave the session its id: its handshake moves to that session."""
        before = self._sessions.get(leg.session_id)
        if before is None or leg not in before.handshake:
            return
        before.handshake.remove(leg)
        after = self._sessions.setdefault(session_id, _Session())
        after.handshake.append(leg)
        after.handshake_at = before.handshake_at
        before.handshake_at = None
        leg.session_id = session_id

    # -- a leg ends ----------------------------------------------------------------------------

    def end(self, leg: CapturedLeg, operation: ProxiedOperation | None) -> None:
        """A leg's answer is over: its operation ends with its main leg (a further page may follow)."""
        for message in leg.server_messages:
            if "id" in message and operation is not None:
                self._asked[(leg.session_id, _key(message.get("id")))] = operation
        if operation is None:
            if (leg.answer is None and leg.ending != "complete") or (leg.status is not None and leg.status >= 400):
                # A handshake that went wrong is the session's only operation: record it now.
                session = self._sessions.get(leg.session_id)
                if session is not None and leg in session.handshake:
                    self._flush_handshake(leg.session_id, session)
            return
        if leg.rpc_id is not None and self._open.get((leg.session_id, _key(leg.rpc_id))) is operation:
            del self._open[(leg.session_id, _key(leg.rpc_id))]
        if leg.method != operation.method or leg is not operation.main:
            return  # a leg that joined the operation (a cancel, an answer, an earlier page) does not end it
        if operation.method == "DELETE":
            self._close_session(leg.session_id, operation)
            return
        token = _asks_for_more(leg)
        # A page whose answer was read whole names its next one (the agent may leave the stream at once,
        # before the proxy has seen it end): that next page may follow.
        if token is not None and not operation.cancelled_by_agent:
            self._hold((leg.session_id, token), operation)
            return
        self._finished(operation)

    def _hold(self, key: tuple[str | None, str], operation: ProxiedOperation) -> None:
        self._held[key] = operation
        self._timers[key] = asyncio.get_running_loop().call_later(HOLD_S, self._expire, key)

    def _release(self, key: tuple[str | None, str]) -> ProxiedOperation | None:
        timer = self._timers.pop(key, None)
        if timer is not None:
            timer.cancel()
        return self._held.pop(key, None)

    def _expire(self, key: tuple[str | None, str]) -> None:
        operation = self._release(key)
        if operation is not None:
            self._finished(operation)

    def _flush_held(self, session_id: str | None) -> None:
        for key in [key for key in self._held if key[0] == session_id]:
            self._expire(key)

    def _close_session(self, session_id: str | None, ending: ProxiedOperation) -> None:
        session = self._sessions.pop(session_id, None)
        self._flush_held(session_id)
        if session is not None and session.handshake:
            # The handshake was all the session did: one run, its end included.
            opening = ProxiedOperation("initialize", session.handshake_at or ending.started_at,
                                       list(session.handshake) + ending.legs, number=ending.number)
            self._finished(opening)
            return
        self._finished(ending)

    def _flush_handshake(self, session_id: str | None, session: _Session) -> None:
        operation = ProxiedOperation("initialize", session.handshake_at or utc_now(), list(session.handshake))
        session.handshake.clear()
        session.handshake_at = None
        self._finished(operation)

    def close(self) -> None:
        """The proxy stops: what waits (a handshake, a catalogue walk) is recorded as it stands."""
        for key in list(self._held):
            self._expire(key)
        for session_id, session in list(self._sessions.items()):
            if session.handshake:
                self._flush_handshake(session_id, session)
        self._sessions.clear()

    def open_operations(self) -> list[ProxiedOperation]:
        return list({id(op): op for op in self._open.values()}.values())


def _key(value: Any) -> str:
    # JSON-RPC ids are strings or numbers; 1 and "1" are different ids.
    return f"{type(value).__name__}:{value}"


def _continues(leg: CapturedLeg) -> str | None:
    """What makes this request the next page or round of an earlier one (``None``: it starts anew)."""
    state = leg.params.get("requestState")
    if isinstance(state, str):
        return f"{leg.method} state:{state}"
    cursor = leg.params.get("cursor")
    if leg.method == "tools/list" and isinstance(cursor, str):
        return f"{leg.method} cursor:{cursor}"
    return None


def _asks_for_more(leg: CapturedLeg) -> str | None:
    """What the next page or round of this answered request will carry (``None``: the operation is over)."""
    result = (leg.answer or {}).get("result")
    if not isinstance(result, dict):
        return None
    if result.get("resultType") == "input_required" and isinstance(result.get("requestState"), str):
        return f"{leg.method} state:{result['requestState']}"
    cursor = result.get("nextCursor")
    if leg.method == "tools/list" and isinstance(cursor, str):
        return f"{leg.method} cursor:{cursor}"
    return None
