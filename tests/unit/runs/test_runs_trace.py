"""RunTrace: recording steps, the one place a tool step is built, and the run's status."""

import pytest

from inspector.runs import (
    MAX_CONTENT_BYTES,
    Artifact,
    Leg,
    RunStep,
    RunTrace,
    StepKind,
    ToolOutcome,
    ToolResult,
    WriteTarget,
)
from inspector.runs.bounding import utf8_size

LEG = Leg("tools/call", 30, 12.0, 200, "ok")


@pytest.mark.parametrize("is_error, outcome", [(False, "ok"), (True, "failed")])
def test_the_boolean_entry_point_derives_ok_or_failed(is_error, outcome):
    trace = RunTrace()
    step = trace.record_tool_execution(2, "search", {"q": "x"}, "result", is_error, 12.5, legs=[LEG])
    assert step.kind is StepKind.TOOL
    assert step.tool_outcome == outcome
    assert step.tool_is_error is is_error
    assert step.to_payload() == {
        "kind": "tool",
        "round": 2,
        "durationMs": 12.5,
        "toolName": "search",
        "toolArguments": {"q": "x"},
        "toolResult": "result",
        "toolIsError": is_error,
        "toolOutcome": outcome,
        "legs": [LEG.to_dict()],
    }
    assert trace.steps == (step,)


@pytest.mark.parametrize("is_error", [0, 1, None, "true"])
def test_the_boolean_entry_point_needs_a_bool(is_error):
    with pytest.raises(TypeError, match="is_error must be a bool"):
        RunTrace().record_tool_execution(1, "t", {}, "x", is_error, 1.0)


def test_an_ok_result_records_its_artifacts_and_write_target():
    artifact = Artifact("a.txt", "text/plain", "hello")
    result = ToolResult.text("saved", artifacts=[artifact], write_target=WriteTarget("tt_content", 9))
    step = RunTrace().record_tool_result(1, "save", {"id": 9}, result, 3.0)
    payload = step.to_payload()
    assert payload["toolOutcome"] == "ok" and payload["toolIsError"] is False
    assert payload["toolArtifacts"] == [{"name": "a.txt", "mediaType": "text/plain", "data": "hello"}]
    assert (payload["writeTargetTable"], payload["writeTargetUid"]) == ("tt_content", 9)
    assert "cancelledInFlight" not in payload


def test_a_failed_result_records_failed():
    payload = RunTrace().record_tool_result(1, "t", {}, ToolResult.error("boom"), 1.0).to_payload()
    assert (payload["toolIsError"], payload["toolOutcome"], payload["toolResult"]) == (True, "failed", "boom")
    assert "toolArtifacts" not in payload and "writeTargetTable" not in payload


@pytest.mark.parametrize("in_flight", [True, False])
def test_a_cancelled_result_records_cancelled_not_failed(in_flight):
    result = ToolResult.cancelled("stopped", in_flight=in_flight)
    payload = RunTrace().record_tool_result(1, "t", {}, result, 1.0, legs=[LEG]).to_payload()
    assert payload["toolOutcome"] == "cancelled"
    assert payload["toolIsError"] is True
    assert payload["cancelledInFlight"] is in_flight
    assert payload["legs"] == [LEG.to_dict()]


def test_both_entry_points_build_the_step_in_one_place(monkeypatch):
    seen = []
    original = RunTrace._tool_step

    def spy(self, *args, **kwargs):
        step = original(self, *args, **kwargs)
        seen.append(step.tool_outcome)
        return step

    monkeypatch.setattr(RunTrace, "_tool_step", spy)
    trace = RunTrace()
    trace.record_tool_execution(1, "t", {}, "x", True, 1.0)
    trace.record_tool_result(1, "t", {}, ToolResult.cancelled("x", in_flight=False), 1.0)
    trace.record_tool_result(1, "t", {}, ToolResult.text("x"), 1.0)
    assert seen == [ToolOutcome.FAILED, ToolOutcome.CANCELLED, ToolOutcome.OK]


@pytest.mark.parametrize("outcome", list(ToolOutcome))
def test_the_tool_step_derives_is_error_from_the_outcome(outcome):
    in_flight = True if outcome is ToolOutcome.CANCELLED else None
    step = RunTrace()._tool_step(1, "t", {}, "x", outcome, 1.0, (), cancelled_in_flight=in_flight)
    assert step.tool_is_error is (outcome is not ToolOutcome.OK)


@pytest.mark.parametrize(
    "record",
    [
        lambda trace, text: trace.record_tool_execution(1, "t", {}, text, False, 1.0),
        lambda trace, text: trace.record_tool_result(1, "t", {}, ToolResult.cancelled(text, in_flight=True), 1.0),
    ],
    ids=["execution", "result"],
)
def test_recorded_content_is_bounded(record):
    step = record(RunTrace(), "€" * MAX_CONTENT_BYTES)
    assert utf8_size(step.tool_result) <= MAX_CONTENT_BYTES
    assert "150,000 bytes" in step.tool_result


def test_record_step_keeps_non_tool_steps_in_order():
    trace = RunTrace()
    request = trace.record_step(RunStep(kind="request", round=0, duration_ms=0.0))
    tool = trace.record_tool_execution(1, "t", {}, "x", False, 1.0)
    llm = trace.record_step(RunStep(kind="llm", round=1, duration_ms=2.0, content="hi"))
    assert trace.steps == (request, tool, llm)
    assert [p["kind"] for p in trace.payloads()] == ["request", "tool", "llm"]


def test_record_step_refuses_tool_steps():
    with pytest.raises(ValueError, match="record tool steps with record_tool_result or record_tool_execution"):
        RunTrace().record_step(RunStep(kind="tool", round=1, duration_ms=1.0))


def test_record_step_needs_a_step():
    with pytest.raises(TypeError, match="record_step takes a RunStep"):
        RunTrace().record_step({"kind": "llm"})  # type: ignore[arg-type]


def test_record_tool_result_needs_a_result():
    with pytest.raises(TypeError, match="record_tool_result takes a ToolResult"):
        RunTrace().record_tool_result(1, "t", {}, "x", 1.0)  # type: ignore[arg-type]


def test_the_steps_cannot_be_changed_from_outside():
    trace = RunTrace()
    trace.record_tool_execution(1, "t", {}, "x", False, 1.0)
    assert isinstance(trace.steps, tuple)
    assert len(trace.steps) == 1


def test_a_trace_can_start_from_stored_steps_and_refuses_anything_else():
    stored = RunStep.from_payload({"kind": "tool", "round": 1, "durationMs": 1.0, "toolIsError": True})
    assert RunTrace([stored]).steps == (stored,)
    with pytest.raises(TypeError, match="a trace holds RunStep values"):
        RunTrace([{"kind": "tool"}])  # type: ignore[list-item]


# -- the run's status --------------------------------------------------------


def _trace(*outcomes):
    trace = RunTrace()
    results = {
        "ok": ToolResult.text("x"),
        "failed": ToolResult.error("x"),
        "cancelled": ToolResult.cancelled("x", in_flight=True),
    }
    trace.record_step(RunStep(kind="llm", round=0, duration_ms=1.0))
    for round_, outcome in enumerate(outcomes, start=1):
        trace.record_tool_result(round_, "t", {}, results[outcome], 1.0)
    return trace


@pytest.mark.parametrize(
    "outcomes, expected",
    [
        ((), "ok"),
        (("ok", "ok"), "ok"),
        (("ok", "failed", "ok"), "failed"),
        (("ok", "cancelled"), "cancelled"),
        (("failed", "cancelled"), "cancelled"),  # the user's cancel ended the run
        (("cancelled", "ok"), "ok"),  # a cut-off call the loop carried on from is no fault
        (("cancelled", "failed"), "failed"),
    ],
)
def test_the_run_status_from_its_tool_steps(outcomes, expected):
    assert _trace(*outcomes).outcome == expected


def test_legacy_steps_count_by_their_boolean_and_steps_without_one_do_not_count():
    legacy_failed = RunStep.from_payload({"kind": "tool", "round": 1, "durationMs": 1.0, "toolIsError": True})
    no_outcome = RunStep.from_payload({"kind": "tool", "round": 2, "durationMs": 1.0})
    assert RunTrace([legacy_failed, no_outcome]).outcome is ToolOutcome.FAILED
    legacy_ok = RunStep.from_payload({"kind": "tool", "round": 1, "durationMs": 1.0, "toolIsError": False})
    assert RunTrace([legacy_ok, no_outcome]).outcome is ToolOutcome.OK
