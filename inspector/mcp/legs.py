"""One leg of an operation, whatever carries it: its grant, its reports, its cancel, its time-out.

A leg is one request (or notification) of an operation. Before anything is sent it asks the
deadline for its grant (a spent budget sends nothing) and checks the cancel signal; it reports
``leg started`` and, whatever happens, ``leg finished`` with what was seen on the wire; it is
bounded as a whole by its grant; the user's cancel ends it as a cancelled leg, the grant's end as
a timed-out one. How the message travels (an HTTP POST, a line on a pipe) is the channel's
``exchange``, given to :meth:`LegFrame.run`; the frame knows no transport.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from .cancel import CancelSignal, claim_cancel
from .clock import Clock
from .deadline import BudgetExhausted, OperationDeadline
from .errors import McpTransportError
from .reports import LegFinished, LegOutcome, LegStarted, OperationObserver
from .secrets import Secrets
from .trace_context import in_leg, operation_trace
from .wire import OFF, WireRecorder, check_level

T = TypeVar("T")


@dataclass
class LegWire:
    """What one leg saw on the wire so far: reported even when the leg fails midway."""

    status: int | None = None
    received: int = 0
    #: What travelled, when the operation keeps it (``None``: its wire level is ``off``).
    exchange: WireRecorder | None = None


class LegEnded(Exception):  # noqa: N818 - an ending a channel hands through the frame, not an error
    """A channel's own way for a leg to end (e.g. "resume this stream", "the session is gone"):
    raised through the frame, which reports the leg with ``outcome`` and ``error_kind``."""

    outcome = LegOutcome.FAILED
    error_kind: str | None = None


class LegFrame:
    """The legs of one operation on one server: grants, reports, cancel and time-out.

    ``work_sent`` says whether a work request (``tools/call``, ``tools/list``) was handed to the
    wire; ``interrupted`` is the work request torn down on the wire (cancel or time-out), and
    ``interrupted_because`` why: the protocol asks the client to tell the server."""

    def __init__(self, label: str, *, deadline: OperationDeadline, observer: OperationObserver, clock: Clock,
                 cancel: CancelSignal | None = None) -> None:
        self.label = label
        self.deadline = deadline
        self.observer = observer
        self.clock = clock
        self.cancel = cancel
        self.work_sent = False
        self.interrupted: object | None = None
        self.interrupted_because = ""
        #: How much of each leg's exchange is kept (:data:`.wire.WIRE_LEVELS`), and what is cut out
        #: of it: the server's secrets (with the patterns of the layer above) and its secret headers.
        #: Off until the operation says what to keep (:meth:`keep_wire`): a frame made elsewhere (a
        #: sign-in's, whose requests carry its secrets in their bodies) keeps nothing.
        self.wire_level = OFF
        self.wire_secrets: Secrets | None = None
        self.secret_headers: frozenset[str] = frozenset()
        #: The trace the operation's requests join (``traceparent``), from :func:`.trace_context.traced`.
        self.trace = operation_trace()
        #: How many legs were reported so far: the position of the next one among the step's legs.
        self.legs_counted = 0

    def keep_wire(self, level: str, secrets: Secrets | None, secret_headers: frozenset[str] = frozenset()) -> None:
        self.wire_level, self.wire_secrets, self.secret_headers = check_level(level), secrets, secret_headers

    def interrupt(self, leg: object, because: str, *, is_work: bool) -> None:
        """Note a work request torn down after it was sent."""
        if is_work and self.work_sent:
            self.interrupted, self.interrupted_because = leg, because

    async def run(self, leg: object, method: str, exchange: Callable[[LegWire], Awaitable[T]], *,
                  is_work: bool = False) -> T:
        """Run one leg named ``method``: ``exchange(wire)`` does the travelling, within the grant."""
        if self.cancel is not None and self.cancel.fired:
            self.report_unsent(method, LegOutcome.CANCELLED, "cancelled")
            raise McpTransportError.cancelled(self.label, method, in_flight=self.work_sent)
        try:
            grant = self.deadline.grant()  # before anything is built: a spent budget sends nothing
        except BudgetExhausted as exhausted:
            self.report_unsent(method, LegOutcome.NOT_SENT, "exhausted_budget")
            raise McpTransportError.exhausted_budget(self.label, method, exhausted.budget_s) from None

        self.observer.leg_started(LegStarted(method, grant, self.deadline.elapsed_s()))
        position, self.legs_counted = self.legs_counted, self.legs_counted + 1
        traceparent = self.trace.traceparent(position) if self.trace is not None else None
        started = self.clock.now_ns()
        wire = LegWire()
        if self.wire_level != OFF:
            wire.exchange = WireRecorder(self.wire_level, secrets=self.wire_secrets,
                                         secret_headers=self.secret_headers, started_ns=started)
        outcome, error_kind = LegOutcome.FAILED, None
        try:
            try:
                async with asyncio.timeout(grant):
                    with in_leg(traceparent):
                        answer = await exchange(wire)
                outcome = LegOutcome.OK
                return answer
            except TimeoutError:
                self.interrupt(leg, "timed out on the client's budget", is_work=is_work)
                raise McpTransportError.timed_out(self.label, method, self.deadline.budget_s, grant,
                                                  self.deadline.remaining_at_grant_s) from None
            except asyncio.CancelledError:
                # Our own cancel: it ends here as a cancelled operation, not a cancelled task.
                if not claim_cancel(self.cancel):
                    raise
                outcome = LegOutcome.CANCELLED
                self.interrupt(leg, "cancelled by the user", is_work=is_work)
                raise McpTransportError.cancelled(self.label, method, in_flight=self.work_sent) from None
        except McpTransportError as exc:
            error_kind = exc.kind.value
            if exc.kind.value == "cancelled":
                outcome = LegOutcome.CANCELLED
            elif getattr(leg, "refusal_answers", False) and exc.kind.value in ("rpc_error", "http_status") \
                    and not exc.is_redirect:
                # A probe the server refused has its answer: the refusal is the finding, not a fault
                # (a redirect is none: it names another address, which is not followed).
                outcome, error_kind = LegOutcome.OK, None
            raise
        except LegEnded as ended:
            outcome, error_kind = ended.outcome, ended.error_kind
            raise
        finally:
            elapsed_ms = (self.clock.now_ns() - started) / 1e6
            self.observer.leg_finished(LegFinished(
                method, grant, elapsed_ms, wire.status, wire.received, outcome, error_kind,
                wire.exchange.exchange() if wire.exchange is not None else None))

    def report_unsent(self, method: str, outcome: LegOutcome, kind: str) -> None:
        self.legs_counted += 1
        self.observer.leg_finished(LegFinished(method, None, None, None, 0, outcome, kind))


__all__ = ["LegEnded", "LegFrame", "LegWire"]
