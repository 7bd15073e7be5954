"""Which legs make one operation: the proxy's grouping of an agent's requests into runs.

One run per operation, as Run Inspector records its own calls:

- A request the agent sends (``tools/call``, ``tools/list``, ``resources/read``, ``ping``, …) opens
  an operation; its answer ends it.
- The session's handshake (``initialize``, ``notifications/initialized``) opens the session's first
  operation: those legs come first in it, as in a call Run Inspector makes itself. A session that
  ends with no operation after its handshake is recorded as an ``initialize`` run.
- Pages of ``tools/list`` (a request whose cursor is the ``nextCursor`` of the one before) are legs of
  one operation: the run is written when the catalogue has no further page, the next request of the
  session is not its next page, or the session ends.
- The agent's ``notifications/cancelled`` for a request in flight is a leg of that operation and
  marks it cancelled; its answer to a server's request (e.g. ``elicitation/create``) is a leg of the
  operation whose stream carried the request.
- The server's stream (``GET``), the session's end (``DELETE``) and any other notification are runs
  of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from inspector.runs.times import utc_now

from .legs import CapturedLeg

#: The handshake's legs: they open the session's first operation.
HANDSHAKE = ("initialize", "notifications/initialized")


@dataclass
class ProxiedOperation:
    """An agent's operation as it went through the proxy: its legs, in the order they started."""

    method: str
    started_at: datetime
    legs: list[CapturedLeg] = field(default_factory=list)
    #: The agent cancelled it (``notifications/cancelled``) or dropped its connection mid-call.
    cancelled_by_agent: bool = False
    #: The proxy's budget ended it (``--budget``), after ``budget_s`` seconds.
    budget_s: float | None = None
    ended_by_budget: bool = False

    @property
    def main(self) -> CapturedLeg:
        """The leg that carried the operation's own request (the last of its method)."""
        own = [leg for leg in self.legs if leg.method == self.method]
        return own[-1] if own else self.legs[-1]

    @property
    def first(self) -> CapturedLeg:
        return next((leg for leg in self.legs if leg.method == self.method), self.legs[0])


@dataclass
class _Session:
    handshake: list[CapturedLeg] = field(default_factory=list)
    handshake_at: datetime | None = None
    #: A catalogue walk waiting for its next page.
    paging: ProxiedOperation | None = None


class OperationBook:
    """Groups the legs the proxy carries into operations; hands each finished one to ``finished``.

    Called from the proxy's event loop only (one thread): no locks."""

    def __init__(self, finished: Callable[[ProxiedOperation], None]) -> None:
        self._finished = finished
        self._sessions: dict[str | None, _Session] = {}
        # Open operations by (session, request id); server requests by (session, id) to their operation.
        self._open: dict[tuple[str | None, str], ProxiedOperation] = {}
        self._asked: dict[tuple[str | None, str], ProxiedOperation] = {}

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
            operation = self._asked.pop((leg.session_id, _key(leg.message.get("id"))), None)
            if operation is not None:
                operation.legs.append(leg)
                return operation
        if session.paging is not None:
            paging, session.paging = session.paging, None
            if method == "tools/list" and leg.params.get("cursor") is not None and \
                    leg.params.get("cursor") == _next_cursor(paging.main):
                paging.legs.append(leg)
                self._open[(leg.session_id, _key(leg.rpc_id))] = paging
                return paging
            self._finished(paging)
        if leg.rpc_id is None:  # a stream, a session's end, a notification: a run of its own
            return ProxiedOperation(method, utc_now(), [leg])
        operation = ProxiedOperation(method, session.handshake_at or utc_now())
        operation.legs.extend(session.handshake)
        session.handshake.clear()
        session.handshake_at = None
        operation.legs.append(leg)
        if leg.rpc_id is not None:
            self._open[(leg.session_id, _key(leg.rpc_id))] = operation
        return operation

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
        if leg.method != operation.method or leg is not operation.main:
            return  # a leg that joined the operation (a cancel, an answer to the server) does not end it
        if leg.rpc_id is not None:
            self._open.pop((leg.session_id, _key(leg.rpc_id)), None)
        if operation.method == "DELETE":
            self._close_session(leg.session_id, operation)
            return
        if operation.method == "tools/list" and _next_cursor(leg) is not None and not operation.cancelled_by_agent:
            self._sessions.setdefault(leg.session_id, _Session()).paging = operation
            return
        self._finished(operation)

    def _close_session(self, session_id: str | None, ending: ProxiedOperation) -> None:
        session = self._sessions.pop(session_id, None)
        if session is not None and session.paging is not None:
            self._finished(session.paging)
        if session is not None and session.handshake:
            # The handshake was all the session did: one run, its end included.
            opening = ProxiedOperation("initialize", session.handshake_at or ending.started_at,
                                       list(session.handshake) + ending.legs)
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
        for session_id, session in list(self._sessions.items()):
            if session.paging is not None:
                self._finished(session.paging)
                session.paging = None
            if session.handshake:
                self._flush_handshake(session_id, session)
        self._sessions.clear()

    def open_operations(self) -> list[ProxiedOperation]:
        return list({id(op): op for op in self._open.values()}.values())


def _key(value: Any) -> str:
    # JSON-RPC ids are strings or numbers; 1 and "1" are different ids.
    return f"{type(value).__name__}:{value}"


def _next_cursor(leg: CapturedLeg) -> Any:
    result = (leg.answer or {}).get("result")
    return result.get("nextCursor") if isinstance(result, dict) else None
