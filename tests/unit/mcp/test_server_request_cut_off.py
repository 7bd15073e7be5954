"""A server's question cut off by the operation's deadline is recorded as declined (-32001) even when the
leg's end at the deadline cancels it in the same turn as its own time-out (a double cancel, which
``asyncio.timeout`` passes on as a cancel, not as a time-out); one cut off before the deadline (the operation
cancelled, or answered without it) is recorded as declined with -32800: no reply was sent (it was not recorded
at all, so a cancelled step said nothing of the question that was open)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from inspector.mcp.channels.framed_legs import FramedLegs
from inspector.mcp.clock import FakeClock
from inspector.mcp.deadline import OperationDeadline
from inspector.mcp.reports import NullObserver
from inspector.mcp.server_requests import REQUEST_CUT_OFF, REQUEST_TIMEOUT, ServerRequestHandler

QUESTION = {"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
            "params": {"message": "Your name?", "requestedSchema": {"type": "object", "properties": {
                "name": {"type": "string"}}}}}


class _Seen(NullObserver):
    def __init__(self) -> None:
        self.requests: list = []

    def server_request(self, report) -> None:
        self.requests.append(report)


def _legs(clock: FakeClock, budget_s: float) -> tuple[FramedLegs, _Seen]:
    async def nobody_answers(request):
        await asyncio.Event().wait()

    legs = FramedLegs()
    seen = _Seen()
    legs.frame = SimpleNamespace(deadline=OperationDeadline(budget_s, clock))
    legs._clock, legs._observer, legs.declined = clock, seen, []
    legs._handler = ServerRequestHandler(elicit=nobody_answers)
    return legs, seen


async def _asked_then_cancelled(legs: FramedLegs, clock: FakeClock, advance_s: float) -> None:
    delivered = []

    async def deliver(reply):
        delivered.append(reply)
        return 202

    asking = asyncio.create_task(legs.answer_request("tools/call", QUESTION, deliver))
    await asyncio.sleep(0.01)  # the question waits for its answer
    clock.advance(advance_s)
    asking.cancel()  # the leg ends
    with pytest.raises(asyncio.CancelledError):
        await asking
    assert delivered == []  # nothing reached the server: the leg had ended


def test_a_question_cut_off_at_the_deadline_is_recorded_as_declined_for_the_budget() -> None:
    clock = FakeClock()
    legs, seen = _legs(clock, 30)
    asyncio.run(_asked_then_cancelled(legs, clock, 31))
    [report] = seen.requests
    assert report.method == "elicitation/create" and report.declined and report.reply_status is None
    assert report.answered["code"] == REQUEST_TIMEOUT
    assert legs.declined == ["elicitation/create"]


def test_a_question_cancelled_before_the_deadline_is_recorded_as_cut_off() -> None:
    clock = FakeClock()
    legs, seen = _legs(clock, 30)
    asyncio.run(_asked_then_cancelled(legs, clock, 5))
    [report] = seen.requests
    assert report.method == "elicitation/create" and report.declined and report.reply_status is None
    assert report.answered["code"] == REQUEST_CUT_OFF
    assert legs.declined == ["elicitation/create"]
