"""The limits of a standalone stream: the reconnection delay's floor and backoff, the gate on
answers in flight and its counted report of the requests it dropped."""

from __future__ import annotations

import asyncio

import pytest

from inspector.mcp.stream_limits import (
    MAX_RECONNECT_S,
    MAX_REQUESTS_IN_FLIGHT,
    MIN_RECONNECT_S,
    RequestGate,
    RequestsDropped,
    reconnect_delay,
)


@pytest.mark.parametrize("retry_ms, in_a_row, expected", [
    (0, 0, MIN_RECONNECT_S),  # retry: 0 is no reason to come back at once
    (None, 0, 1.0),  # no retry: the default, one second
    (50, 1, MIN_RECONNECT_S),
    (0, 2, 2.0), (0, 3, 4.0), (0, 5, 16.0), (0, 6, MAX_RECONNECT_S), (0, 60, MAX_RECONNECT_S),  # doubling, capped
    (2500, 0, 2.5), (2500, 2, 2.5), (2500, 3, 4.0),  # a larger retry is honoured (or the backoff, if larger)
    (3_600_000, 0, MAX_RECONNECT_S),  # an hour is cut to the cap
])
def test_the_reconnect_delay_has_a_floor_a_backoff_and_a_cap(retry_ms, in_a_row, expected) -> None:
    assert reconnect_delay(retry_ms, in_a_row) == expected


def test_the_gate_answers_a_few_at_a_time_and_reports_the_rest_once() -> None:
    async def go() -> tuple[RequestGate, list[RequestsDropped], list[int]]:
        reports: list[RequestsDropped] = []
        reported = asyncio.Event()
        release = asyncio.Event()
        finished: list[int] = []

        def on_dropped(dropped: RequestsDropped) -> None:
            reports.append(dropped)
            reported.set()

        async def answer(number: int) -> None:
            await release.wait()
            finished.append(number)

        gate = RequestGate(on_dropped=on_dropped, note_after_s=0.05)
        admitted = [gate.admit(lambda n=n: answer(n)) for n in range(MAX_REQUESTS_IN_FLIGHT + 100)]
        assert admitted.count(True) == MAX_REQUESTS_IN_FLIGHT and gate.in_flight == MAX_REQUESTS_IN_FLIGHT
        await asyncio.wait_for(reported.wait(), 5)
        release.set()
        await asyncio.wait_for(asyncio.gather(*gate.pending()), 5)
        assert gate.admit(lambda: answer(-1))  # room again once the answers are done
        await asyncio.wait_for(asyncio.gather(*gate.pending()), 5)
        return gate, reports, finished

    gate, reports, finished = asyncio.run(go())
    assert [report.count for report in reports] == [100] and gate.dropped == 100
    assert gate.peak == MAX_REQUESTS_IN_FLIGHT and len(finished) == MAX_REQUESTS_IN_FLIGHT + 1
    assert str(reports[0].message) == ("The server sent 100 requests that got no answer: more than 16 were "
                                       "waiting at once.")


def test_closing_the_gate_cancels_the_answers_within_its_bound_and_reports_what_was_dropped() -> None:
    async def go() -> tuple[list[RequestsDropped], list[asyncio.Task[None]]]:
        reports: list[RequestsDropped] = []
        gate = RequestGate(limit=2, on_dropped=reports.append)  # the note would come after two seconds
        for _ in range(5):
            gate.admit(lambda: asyncio.Event().wait())  # answers that never end
        tasks = gate.pending()
        await gate.close(1.0)
        return reports, tasks

    reports, tasks = asyncio.run(go())
    assert [report.count for report in reports] == [3]  # said at once, not lost
    assert all(task.cancelled() for task in tasks)
