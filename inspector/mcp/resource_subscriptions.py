"""Subscribing to resources on a listening session, in both eras.

A subscription belongs to the session that listens (:class:`~.listening.ServerListener`):

- **Handshake era** (2025-06-18, 2025-11-25): ``resources/subscribe {uri}`` and
  ``resources/unsubscribe {uri}`` are requests on the listener's own session (a server that does
  not say ``resources.subscribe: true`` is not asked), each an operation with its budget and its
  legs, reported to an observer like every operation. The updates, ``notifications/resources/
  updated {uri}``, arrive on that session's standalone ``GET`` stream. A session the server forgot
  and the listener opened anew is subscribed again to what was wanted (quietly: no operation).
- **Stateless era** (2026-07-28): there is no ``resources/subscribe``; the resources wanted ride in
  the ``subscriptions/listen`` request (``resourceSubscriptions``). Changing them is a new listen
  request (the old stream is closed); the operation is its one leg, ``subscriptions/listen``, until
  the server's acknowledgement, which says whether it honours the resource.

An update for a resource nobody subscribed to (a server's mistake) is not handed on: it is counted
(:attr:`SessionSubscriptions.unsolicited`). No Qt here.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from .deadline import DEFAULT_BUDGET_SECONDS, OperationDeadline, parse_budget
from .errors import McpTransportError
from .listener_status import ListenerState
from .messages import N_, Message
from .reports import NullObserver, OperationFinished, OperationObserver, OperationStarted
from .secrets import Secrets
from .standalone import ServerNotification
from .wire import DEFAULT_WIRE, check_level

if TYPE_CHECKING:
    from .cancel import CancelSignal
    from .listening import ServerListener

SUBSCRIBE = "resources/subscribe"
UNSUBSCRIBE = "resources/unsubscribe"
UPDATED = "notifications/resources/updated"
#: The operations that change what a session is subscribed to.
SUBSCRIPTION_OPERATIONS = (SUBSCRIBE, UNSUBSCRIBE)
#: The most resources one session is subscribed to (a listen request carries them all).
MAX_SUBSCRIPTIONS = 100
#: Subscribing again after the server forgot the session: each request gets this long.
RENEW_BUDGET_S = 5.0


@dataclass(frozen=True)
class SubscriptionChange:
    """What a subscribe or unsubscribe did: the resource, whether it is subscribed now, the era."""

    uri: str
    method: str
    subscribed: bool
    era: str
    #: Stateless era: the resources the acknowledgement said are honoured (``None``: handshake era).
    honoured: tuple[str, ...] | None = None


@dataclass(frozen=True)
class ResourceUpdate:
    """The server said the resource at ``uri`` changed (read it again to see how)."""

    uri: str
    #: When it arrived (UTC).
    at: datetime
    #: Which stream carried it (``GET``, or ``subscriptions/listen``).
    via: str


def offers_subscribe(capabilities: Any) -> bool:
    """Whether a server's capabilities say ``resources.subscribe: true``."""
    resources = capabilities.get("resources") if isinstance(capabilities, dict) else None
    return isinstance(resources, dict) and resources.get("subscribe") is True


class SessionSubscriptions:
    """The resources one listening session is subscribed to, and the operations that change them."""

    def __init__(self, host: ServerListener) -> None:
        self.host = host
        #: The resources subscribed (or being subscribed), in the order asked.
        self.wanted: list[str] = []
        #: Updates for resources not subscribed to, not handed on.
        self.unsolicited = 0
        #: Stateless era: set when the wanted resources changed and the listen request must be made anew.
        self.changed = asyncio.Event()
        #: Stateless era: the resources the last acknowledgement honoured.
        self.honoured: tuple[str, ...] = ()
        self._acks: list[asyncio.Future[tuple[str, ...]]] = []

    # -- what the session hears ---------------------------------------------------------------------

    def offered(self) -> bool | None:
        """Whether the server offers subscriptions: from the session's capabilities (handshake era);
        in the stateless era the acknowledgement answers it (``True``: may be asked); ``None``
        while no session stands; ``False`` when the session has no stream to hear updates on."""
        if self._no_stream():
            return False
        if self.host.stateless:
            return True
        op = self.host._op  # noqa: SLF001 - the listener's session, ours to use
        return None if op is None else offers_subscribe(op.server_capabilities)

    def _no_stream(self) -> bool:
        return self.host.status.state is ListenerState.NO_STREAM

    def update_of(self, note: ServerNotification) -> ResourceUpdate | None:
        """The update ``note`` brings, or ``None`` (another notification, or a resource not subscribed)."""
        if note.method != UPDATED:
            return None
        uri = note.params.get("uri")
        if not isinstance(uri, str) or uri not in self.wanted:
            self.unsolicited += 1
            return None
        return ResourceUpdate(uri, datetime.now(timezone.utc), note.via)

    def listen_params(self) -> dict[str, Any]:
        """What a ``subscriptions/listen`` request adds for the resources (stateless era)."""
        return {"resourceSubscriptions": list(self.wanted)} if self.wanted else {}

    def acknowledged(self, notifications: dict[str, Any]) -> None:
        """The server acknowledged a listen request: which resources it honours."""
        listed = notifications.get("resourceSubscriptions")
        self.honoured = tuple(uri for uri in listed if isinstance(uri, str)) if isinstance(listed, list) else ()
        acks, self._acks = self._acks, []
        for ack in acks:
            if not ack.done():
                ack.set_result(self.honoured)

    def listen_failed(self, error: Message | McpTransportError | None) -> None:
        """The listen request was refused or the server offers none: whoever waits is told."""
        acks, self._acks = self._acks, []
        for ack in acks:
            if not ack.done():
                ack.set_exception(error if isinstance(error, McpTransportError) else McpTransportError.process_ended(
                    self.host.server.label, "subscriptions/listen",
                    error or Message(N_("the server offers no subscriptions"))))

    # -- the operations -----------------------------------------------------------------------------

    async def change(self, method: str, uri: str, *, budget_s: object = None, cancel: CancelSignal | None = None,
                     observer: OperationObserver | None = None, wire: str | None = None) -> SubscriptionChange:
        """``resources/subscribe`` or ``resources/unsubscribe`` of ``uri``, as an operation of its own."""
        if method not in SUBSCRIPTION_OPERATIONS:
            raise ValueError(method)
        from .cancel import claim_cancel
        from .legs import LegFrame

        host, observer = self.host, observer or NullObserver()
        server = host.server
        deadline = OperationDeadline(parse_budget(DEFAULT_BUDGET_SECONDS if budget_s is None else budget_s),
                                     host._clock)  # noqa: SLF001
        observer.operation_started(OperationStarted(method, server.label, deadline.budget_s))
        frame = LegFrame(server.label, deadline=deadline, observer=observer, clock=host._clock,  # noqa: SLF001
                         cancel=cancel)
        frame.keep_wire(check_level(wire or DEFAULT_WIRE), Secrets(server.headers.values()),
                        server.secret_headers | frozenset(server.headers))
        outcome, error, era = "failed", None, "stateless" if host.stateless else "handshake"
        try:
            if self._no_stream() and method == SUBSCRIBE:
                raise McpTransportError.not_offered(server.label, method, Message(N_(
                    "a stream to send the updates on (the listening session has none)")))
            with cancel.bind_current_task() if cancel is not None else contextlib.nullcontext():
                try:
                    result = await (self._listen_anew(frame, method, uri) if host.stateless
                                    else self._in_session(frame, method, uri))
                except asyncio.CancelledError:
                    if not claim_cancel(cancel):
                        raise
                    raise McpTransportError.cancelled(server.label, method, in_flight=True) from None
            outcome = "ok"
            return result
        except McpTransportError as exc:
            error = exc
            outcome = "cancelled" if exc.is_cancellation else "failed"
            raise
        finally:
            op = host._op  # noqa: SLF001
            version = op.session.protocol_version if op is not None else None
            observer.operation_finished(OperationFinished(method, server.label, deadline.budget_s,
                                                          deadline.elapsed_s() * 1000, outcome, error, None,
                                                          "http", version, era))

    async def _in_session(self, frame: Any, method: str, uri: str) -> SubscriptionChange:
        host = self.host
        op = host._op  # noqa: SLF001
        if op is None or host._http is None:  # noqa: SLF001
            raise McpTransportError.malformed(host.server.label, method, Message(N_(
                "the listening session is not open yet; try again when the Server log says it listens")))
        if not offers_subscribe(op.server_capabilities):
            raise McpTransportError.not_offered(host.server.label, method,
                                                Message(N_("resource subscriptions (resources.subscribe)")))
        subscribing = method == SUBSCRIBE
        had = uri in self.wanted
        self._want(uri, subscribing)  # an update that overtakes the answer is not taken for unsolicited
        try:
            await self.request(op, frame, method, uri)
        except BaseException:
            self._want(uri, had)
            raise
        return SubscriptionChange(uri, method, subscribing, "handshake")

    async def request(self, op: Any, frame: Any, method: str, uri: str) -> dict[str, Any]:
        """One request on the listener's session, a leg of ``frame``."""
        from .channels.http import LegTransport, SessionGone
        from .channels.leg_messages import OutgoingMessage

        host = self.host
        transport = LegTransport(host._http, host.server, frame=frame, handler=host.handler)  # noqa: SLF001
        try:
            answer = await transport.send(OutgoingMessage(method, {"uri": uri}, op.next_id(), is_work=True),
                                          op.session)
        except SessionGone:
            raise McpTransportError.session_expired(host.server.label, method) from None
        return answer.result or {}

    async def _listen_anew(self, frame: Any, method: str, uri: str) -> SubscriptionChange:
        subscribing = method == SUBSCRIBE
        had = uri in self.wanted
        self._want(uri, subscribing)
        ack: asyncio.Future[tuple[str, ...]] = asyncio.get_running_loop().create_future()
        self._acks.append(ack)
        self.changed.set()

        async def exchange(wire: Any) -> tuple[str, ...]:
            honoured = await asyncio.shield(ack)
            wire.status = 200
            return honoured

        try:
            honoured = await frame.run(None, "subscriptions/listen", exchange, is_work=True)
        except BaseException:
            self._want(uri, had)
            if ack in self._acks:
                self._acks.remove(ack)
            raise
        if subscribing and uri not in honoured:
            self._want(uri, False)
            self.changed.set()
            raise McpTransportError.not_offered(self.host.server.label, method, Message(N_(
                "a subscription to {uri} (its acknowledgement did not honour it)"), {"uri": uri}))
        return SubscriptionChange(uri, method, subscribing, "stateless", honoured)

    def _want(self, uri: str, wanted: bool) -> None:
        if wanted and uri not in self.wanted:
            if len(self.wanted) >= MAX_SUBSCRIPTIONS:
                raise McpTransportError.malformed(self.host.server.label, SUBSCRIBE, Message(N_(
                    "a session is subscribed to at most {count} resources"), {"count": MAX_SUBSCRIPTIONS}))
            self.wanted.append(uri)
        elif not wanted and uri in self.wanted:
            self.wanted.remove(uri)

    async def renew(self, op: Any) -> None:
        """A new session (the server forgot the old one): subscribe it again to what was wanted."""
        from .legs import LegFrame

        host = self.host
        if not self.wanted or not offers_subscribe(op.server_capabilities):
            return
        for uri in list(self.wanted):
            frame = LegFrame(host.server.label, deadline=OperationDeadline(RENEW_BUDGET_S, host._clock),  # noqa: SLF001
                             observer=NullObserver(), clock=host._clock)  # noqa: SLF001
            with contextlib.suppress(McpTransportError):
                await self.request(op, frame, SUBSCRIBE, uri)


__all__ = ["MAX_SUBSCRIPTIONS", "SUBSCRIBE", "SUBSCRIPTION_OPERATIONS", "UNSUBSCRIBE", "UPDATED", "ResourceUpdate",
           "SessionSubscriptions", "SubscriptionChange", "offers_subscribe"]
