"""The sampling limits' counting: per operation, per server within a sliding minute, in all."""

from __future__ import annotations

import pytest

from inspector.cli.sampling_option import with_bare_flag_counted
from inspector.mcp.sampling_limits import SamplingLimitReached, SamplingLimits, limit_reached


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def kind_refused(limits: SamplingLimits) -> str:
    with pytest.raises(SamplingLimitReached) as refused:
        limits.admit()
    return refused.value.kind


def test_each_operation_counts_afresh_and_a_refusal_counts_nothing() -> None:
    clock = Clock()
    limits = SamplingLimits(per_operation=2, per_server_per_minute=5, clock=clock)
    first = limits.for_operation("http://a/mcp")
    first.admit()
    first.admit()
    assert kind_refused(first) == "operation"
    second = limits.for_operation("http://a/mcp")
    second.admit()
    second.admit()
    third = limits.for_operation("http://a/mcp")
    third.admit()  # the fifth in this minute
    assert kind_refused(third) == "server"
    limits.for_operation("http://b/mcp").admit()  # another server has a minute of its own
    clock.now = 59.9
    assert kind_refused(limits.for_operation("http://a/mcp")) == "server"
    clock.now = 60.0  # the first two are a minute old
    limits.for_operation("http://a/mcp").admit()


def test_approved_requests_are_counted_across_operations() -> None:
    limits = SamplingLimits.approving(2)
    limits.for_operation("s").admit()
    limits.for_operation("s").admit()
    error = {"code": -1, "message": "…", "data": (refused := _refused(limits.for_operation("s"))).data()}
    assert refused.kind == "approved" and str(limit_reached(error)).startswith("Over the 2 sampling requests")
    assert SamplingLimits.approving(20).per_operation == 20  # a larger number raises the rate limits
    assert limit_reached({"code": -1, "message": "x"}) is None
    assert limit_reached({"code": -1, "data": {"samplingLimit": "operation", "limit": True}}) is None


def _refused(limits: SamplingLimits) -> SamplingLimitReached:
    with pytest.raises(SamplingLimitReached) as refused:
        limits.admit()
    return refused.value


@pytest.mark.parametrize(("argv", "seen"), [
    (["call", "--allow-sampling", "http://x/mcp", "t"], ["call", "--allow-sampling=3", "http://x/mcp", "t"]),
    (["call", "u", "t", "--allow-sampling", "5"], ["call", "u", "t", "--allow-sampling", "5"]),
    (["call", "u", "t", "--allow-sampling"], ["call", "u", "t", "--allow-sampling"]),
    (["call", "u", "t", "--allow-sampling", "--json"], ["call", "u", "t", "--allow-sampling", "--json"]),
    (["call", "u", "--", "--allow-sampling", "t"], ["call", "u", "--", "--allow-sampling", "t"]),
])
def test_the_bare_flag_before_a_word_means_the_default(argv: list[str], seen: list[str]) -> None:
    assert with_bare_flag_counted(argv) == seen
