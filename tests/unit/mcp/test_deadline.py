"""One deadline per operation (reference §1): the six reference cases, on a fake clock.

First on :class:`OperationDeadline` directly, then through :class:`McpClient`, whose HTTP
client is an in-memory transport that advances the fake clock by each leg's scripted duration.
"""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

from inspector.mcp import (
    DEFAULT_BUDGET_SECONDS,
    MINIMUM_LEG_SECONDS,
    BudgetExhausted,
    BudgetVerdict,
    ErrorKind,
    FakeClock,
    LegOutcome,
    McpClient,
    McpTransportError,
    OperationDeadline,
    OperationRecorder,
    ServerEndpoint,
    parse_budget,
    read_budget,
)

# (case id, leg durations, expected grants) for the cases that end normally.
REFERENCE_CASES = [
    ("slow handshake", [4, 2, 1], [20, 16, 14]),
    ("catalogue walk", [1, 0, 5, 3], [20, 19, 19, 14]),
    ("floor", [19, 0.7, 0], [20, 1, 1]),
    ("fast server", [0, 0, 0], [20, 20, 20]),
]


def walk(deadline: OperationDeadline, clock: FakeClock, durations: list[float]) -> list[int]:
    """Ask for a grant before each leg, then let the leg take its duration."""
    grants = []
    for duration in durations:
        grants.append(deadline.grant())
        clock.advance(duration)
    return grants


# -- OperationDeadline on its own ---------------------------------------------------------------


@pytest.mark.parametrize(("durations", "expected"), [c[1:] for c in REFERENCE_CASES],
                         ids=[c[0] for c in REFERENCE_CASES])
def test_reference_grants_on_the_deadline(durations, expected):
    clock = FakeClock()
    deadline = OperationDeadline(20, clock)
    assert walk(deadline, clock, durations) == expected


def test_a_second_operation_starts_afresh():
    clock = FakeClock()
    first = walk(OperationDeadline(20, clock), clock, [8, 0, 9])
    second = walk(OperationDeadline(20, clock), clock, [0, 0, 0])
    assert first + second == [20, 12, 12, 20, 20, 20]


def test_exhaustion_refuses_the_third_leg():
    clock = FakeClock()
    deadline = OperationDeadline(20, clock)
    assert walk(deadline, clock, [12, 9]) == [20, 8]
    with pytest.raises(BudgetExhausted) as caught:
        deadline.grant()
    assert caught.value.budget_s == 20
    assert caught.value.remaining_s == pytest.approx(-1)


@pytest.mark.parametrize(("durations", "expected"), [
    ([0.25, 0.5, 0.25], [20, 20, 20, 19]),
    ([0.001, 18.998, 0.5], [20, 20, 2, 1]),
    ([4.5, 4.5, 4.5, 4.5], [20, 16, 11, 7, 2]),
])
def test_grants_round_the_remaining_time_up(durations, expected):
    clock = FakeClock()
    deadline = OperationDeadline(20, clock)
    grants = walk(deadline, clock, durations)
    grants.append(deadline.grant())
    assert grants == expected


def test_exactly_zero_remaining_is_exhausted_and_a_sliver_gets_the_floor():
    clock = FakeClock()
    deadline = OperationDeadline(2, clock)
    clock.advance(1.999999)
    assert deadline.grant() == MINIMUM_LEG_SECONDS
    clock.advance(0.000001)
    with pytest.raises(BudgetExhausted):
        deadline.grant()


def test_the_deadline_reads_only_its_clock():
    clock = FakeClock(start_ns=5_000_000_000)
    deadline = OperationDeadline(3, clock)
    assert deadline.remaining_s() == 3
    clock.advance(1.25)
    assert deadline.elapsed_s() == pytest.approx(1.25)
    assert deadline.remaining_s() == pytest.approx(1.75)
    assert deadline.grant() == 2


def test_the_default_budget_is_twenty_seconds():
    assert DEFAULT_BUDGET_SECONDS == 20
    assert OperationDeadline(None, FakeClock()).grant() == 20


# -- parse_budget ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "expected"), [
    (None, 20), ("", 20), ("   ", 20), ("abc", 20), ("0", 20), ("-3", 20), (0, 20), (-1.5, 20),
    ("nan", 20), ("inf", 20), ("-inf", 20), (float("nan"), 20), (float("inf"), 20),
    ("0.5", 1), (0.2, 1), ("2.5", 2.5), (" 7 ", 7), (1000, 1000), ("86400", 86400),
    (True, 20), (False, 20),
])
def test_parse_budget(value, expected):
    parsed = parse_budget(value)
    assert parsed == expected
    assert isinstance(parsed, float)


# -- the same arithmetic through McpClient ------------------------------------------------------


class ScriptedServer:
    """An in-memory MCP server: each leg advances the fake clock by the next scripted duration."""

    def __init__(self, clock: FakeClock, durations: list[float], *, pages: int = 1, session: bool = True):
        self.clock = clock
        self.durations = list(durations)
        self.pages = pages
        self.session = session
        self.methods: list[str] = []
        self.http_methods: list[str] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.http_methods.append(request.method)
        if request.method == "DELETE":
            return httpx.Response(200)
        message = json.loads(request.content)
        method = message["method"]
        self.methods.append(method)
        self.clock.advance(self.durations.pop(0))
        if "id" not in message:
            return httpx.Response(202)
        if method == "initialize":
            headers = {"Mcp-Session-Id": "abc"} if self.session else {}
            result = {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "s"}}
        elif method == "tools/list":
            page = int((message.get("params") or {}).get("cursor", "1"))
            result = {"tools": [{"name": f"tool{page}"}]}
            if page < self.pages:
                result["nextCursor"] = str(page + 1)
            headers = {}
        else:
            result = {"content": [{"type": "text", "text": "ok"}]}
            headers = {}
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": message["id"], "result": result},
                              headers=headers)

    def client(self) -> McpClient:
        return McpClient(clock=self.clock,
                         http_factory=lambda: httpx.AsyncClient(transport=httpx.MockTransport(self.handler)))


# The reference numbers are the handshake era's legs: that era is pinned.
SERVER = ServerEndpoint("http://mcp.example.test/mcp", name="scripted", era="handshake")


def run(coro):
    return asyncio.run(coro)


async def _call(client: McpClient, recorder: OperationRecorder):
    try:
        return await client.call_tool(SERVER, "echo", {"text": "x"}, observer=recorder)
    finally:
        await client.drain()


@pytest.mark.parametrize(("durations", "expected"),
                         [c[1:] for c in REFERENCE_CASES if c[0] != "catalogue walk"],
                         ids=[c[0] for c in REFERENCE_CASES if c[0] != "catalogue walk"])
def test_reference_grants_through_the_client(durations, expected):
    clock = FakeClock()
    server = ScriptedServer(clock, durations)
    recorder = OperationRecorder()
    result = run(_call(server.client(), recorder))
    assert result.content == "ok"
    assert recorder.grants == expected
    assert [leg.method for leg in recorder.legs] == ["initialize", "notifications/initialized", "tools/call"]
    assert [leg.granted_s for leg in recorder.legs] == expected
    assert recorder.finished.outcome == "ok"
    assert server.http_methods[-1] == "DELETE"  # housekeeping is not a leg


def test_catalogue_walk_through_the_client():
    clock = FakeClock()
    server = ScriptedServer(clock, [1, 0, 5, 3], pages=2)
    recorder = OperationRecorder()

    async def walk_catalogue():
        client = server.client()
        try:
            return await client.list_tools(SERVER, observer=recorder)
        finally:
            await client.drain()

    catalogue = run(walk_catalogue())
    assert catalogue.pages == 2
    assert catalogue.names == ["tool1", "tool2"]
    assert recorder.grants == [20, 19, 19, 14]
    assert server.methods == ["initialize", "notifications/initialized", "tools/list", "tools/list"]


def test_a_second_operation_through_the_client_starts_afresh():
    clock = FakeClock()
    server = ScriptedServer(clock, [8, 0, 9, 0, 0, 0])
    client = server.client()
    first, second = OperationRecorder(), OperationRecorder()

    async def twice():
        await client.call_tool(SERVER, "echo", {}, observer=first)
        await client.call_tool(SERVER, "echo", {}, observer=second)
        await client.drain()

    run(twice())
    assert first.grants + second.grants == [20, 12, 12, 20, 20, 20]
    assert second.legs_started[0].offset_s == 0


def test_exhaustion_through_the_client():
    clock = FakeClock()
    server = ScriptedServer(clock, [12, 9])
    recorder = OperationRecorder()
    with pytest.raises(McpTransportError) as caught:
        run(_call(server.client(), recorder))
    error = caught.value
    assert error.kind is ErrorKind.EXHAUSTED_BUDGET
    assert error.method == "tools/call"
    assert server.methods == ["initialize", "notifications/initialized"]  # tools/call never sent
    assert recorder.grants == [20, 8]
    last = recorder.legs[-1]
    assert (last.method, last.outcome, last.granted_s, last.http_status) == ("tools/call", LegOutcome.NOT_SENT,
                                                                             None, None)
    assert recorder.finished.outcome == "failed"
    assert recorder.finished.error is error
    assert "20-second budget" in error.message
    assert "scripted" in error.message
    assert "cancel" not in error.message.lower()


def test_the_client_default_budget_is_a_setting():
    clock = FakeClock()
    server = ScriptedServer(clock, [0, 0, 0])
    client = McpClient(clock=clock, default_budget_s="7",
                       http_factory=lambda: httpx.AsyncClient(transport=httpx.MockTransport(server.handler)))
    recorder = OperationRecorder()
    run(_call(client, recorder))
    assert recorder.grants == [7, 7, 7]
    assert recorder.started.budget_s == 7


def test_a_per_call_budget_wins_over_the_default():
    clock = FakeClock()
    server = ScriptedServer(clock, [0, 0, 0])
    client = McpClient(clock=clock, default_budget_s=7,
                       http_factory=lambda: httpx.AsyncClient(transport=httpx.MockTransport(server.handler)))
    recorder = OperationRecorder()

    async def call():
        await client.call_tool(SERVER, "echo", {}, budget_s=3, observer=recorder)
        await client.drain()

    run(call())
    assert recorder.grants == [3, 3, 3]


def test_a_huge_budget_has_no_clamp_and_no_overflow() -> None:
    clock = FakeClock()
    deadline = OperationDeadline(1e300, clock)
    assert deadline.budget_s == 1e300
    first = deadline.grant()
    clock.advance(5)
    assert deadline.grant() == first - 5  # exact whole-second arithmetic, even at this size


@pytest.mark.parametrize("value, seconds, verdict", [
    (None, 20.0, BudgetVerdict.DEFAULT),
    ("", 20.0, BudgetVerdict.DEFAULT),
    ("soon", 20.0, BudgetVerdict.UNUSABLE),
    ("0", 20.0, BudgetVerdict.UNUSABLE),
    (-3, 20.0, BudgetVerdict.UNUSABLE),
    ("nan", 20.0, BudgetVerdict.UNUSABLE),
    ("0.5", 1.0, BudgetVerdict.RAISED),
    ("2.5", 2.5, BudgetVerdict.AS_GIVEN),
    (7, 7.0, BudgetVerdict.AS_GIVEN),
])
def test_one_place_reads_a_budget_and_says_why(value: object, seconds: float, verdict: BudgetVerdict) -> None:
    reading = read_budget(value)
    assert (reading.seconds, reading.verdict) == (seconds, verdict)
    assert parse_budget(value) == seconds  # the lenient reading asks the same place
    assert reading.usable is (verdict is not BudgetVerdict.UNUSABLE)


def test_the_deadline_remembers_what_was_left_when_it_granted() -> None:
    clock = FakeClock()
    deadline = OperationDeadline(2.5, clock)
    clock.advance(0.4)
    assert deadline.grant() == 3
    assert deadline.remaining_at_grant_s == pytest.approx(2.1)
