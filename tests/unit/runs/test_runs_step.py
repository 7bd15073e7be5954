"""RunStep: the stored payload, reading it back, and the step's invariants."""

import dataclasses
import json

import pytest

from inspector.runs import InvalidStepError, Leg, RunStep, StepKind, ToolOutcome

REFERENCE_KEYS = [
    "kind", "round", "durationMs", "messagesSent", "toolSpecs", "content", "thinking",
    "finishReason", "promptTokens", "completionTokens", "totalTokens", "estimatedCost",
    "requestedToolCalls", "raw", "droppedSources", "toolName", "toolArguments", "toolResult",
    "toolIsError", "toolOutcome", "toolArtifacts", "contextBudget", "writeTargetTable",
    "writeTargetUid",
]  # fmt: skip


def full_payload() -> dict:
    """A tool step payload with every key set (legs and cancelledInFlight included)."""
    return {
        "kind": "tool",
        "round": 3,
        "durationMs": 1234.57,
        "messagesSent": [{"role": "user", "content": "hi"}],
        "toolSpecs": [{"name": "search", "inputSchema": {"type": "object"}}],
        "content": "reply",
        "thinking": "hmm",
        "finishReason": "tool_calls",
        "promptTokens": 10,
        "completionTokens": 5,
        "totalTokens": 15,
        "estimatedCost": 0.0012,
        "requestedToolCalls": [{"id": "c1", "name": "search"}],
        "raw": {"id": "resp-1", "choices": [None, 1.5, True]},
        "droppedSources": ["doc-1"],
        "toolName": "search",
        "toolArguments": {"q": "cats", "limit": 3},
        "toolResult": "nothing found",
        "toolIsError": True,
        "toolOutcome": "cancelled",
        "toolArtifacts": [{"name": "a", "mediaType": "text/plain", "data": "x"}],
        "contextBudget": {"max": 8000, "used": 1200},
        "writeTargetTable": "tt_content",
        "writeTargetUid": 7,
        "legs": [
            {"method": "initialize", "grantedS": 30, "elapsedMs": 3.5, "httpStatus": 200, "outcome": "ok"},
            {"method": "tools/call", "grantedS": 27, "elapsedMs": 900.0, "httpStatus": None, "outcome": "cancelled"},
        ],
        "cancelledInFlight": True,
    }


def test_step_kinds_are_the_reference_kinds():
    assert [kind.value for kind in StepKind] == [
        "request", "llm", "tool", "assembled", "context", "dropped", "tool_write",
    ]  # fmt: skip


def test_a_minimal_step_writes_only_kind_round_and_duration():
    step = RunStep(kind=StepKind.LLM, round=1, duration_ms=12.3456)
    assert step.to_payload() == {"kind": "llm", "round": 1, "durationMs": 12.35}


def test_payload_values_are_plain_json_types():
    payload = RunStep.from_payload(full_payload()).to_payload()
    assert type(payload["kind"]) is str
    assert type(payload["toolOutcome"]) is str
    assert json.loads(json.dumps(payload)) == payload


def test_a_full_payload_reads_back_and_writes_the_same_keys_and_values():
    payload = full_payload()
    step = RunStep.from_payload(payload)
    assert step.to_payload() == payload
    assert list(step.to_payload()) == REFERENCE_KEYS + ["legs", "cancelledInFlight"]


def test_payload_keys_map_to_snake_case_attributes():
    step = RunStep.from_payload(full_payload())
    assert step.kind is StepKind.TOOL
    assert step.duration_ms == 1234.57
    assert step.messages_sent == ({"role": "user", "content": "hi"},)
    assert step.finish_reason == "tool_calls"
    assert (step.prompt_tokens, step.completion_tokens, step.total_tokens) == (10, 5, 15)
    assert step.estimated_cost == 0.0012
    assert step.requested_tool_calls[0]["name"] == "search"
    assert step.dropped_sources == ("doc-1",)
    assert step.tool_name == "search"
    assert step.tool_arguments == {"q": "cats", "limit": 3}
    assert step.tool_result == "nothing found"
    assert step.tool_is_error is True
    assert step.tool_outcome is ToolOutcome.CANCELLED
    assert step.tool_artifacts[0]["mediaType"] == "text/plain"
    assert step.context_budget == {"max": 8000, "used": 1200}
    assert (step.write_target_table, step.write_target_uid) == ("tt_content", 7)
    assert step.legs[1] == Leg("tools/call", 27, 900.0, None, "cancelled")
    assert step.cancelled_in_flight is True


def test_false_zero_and_empty_values_are_kept():
    payload = {
        "kind": "tool",
        "round": 0,
        "durationMs": 0.0,
        "content": "",
        "promptTokens": 0,
        "estimatedCost": 0.0,
        "toolArguments": [],  # an empty PHP array
        "toolResult": "",
        "toolIsError": False,
        "toolOutcome": "ok",
        "writeTargetUid": 0,
    }
    written = RunStep.from_payload(payload).to_payload()
    assert written == payload
    # == alone would let 0 pass for False; the types must survive too.
    assert written["toolIsError"] is False
    assert type(written["promptTokens"]) is int and written["promptTokens"] == 0
    assert type(written["writeTargetUid"]) is int
    assert written["round"] == 0 and type(written["round"]) is int


def test_absent_and_null_fields_are_left_out():
    step = RunStep.from_payload({"kind": "llm", "round": 1, "durationMs": 1.0, "content": None})
    assert step.content is None
    assert "content" not in step.to_payload()


def test_empty_legs_are_left_out():
    step = RunStep(kind="tool", round=1, duration_ms=1.0, legs=())
    assert "legs" not in step.to_payload()
    assert RunStep.from_payload({"kind": "tool", "round": 1, "durationMs": 1.0, "legs": []}).legs == ()


def test_unknown_keys_are_ignored():
    step = RunStep.from_payload({"kind": "llm", "round": 1, "durationMs": 1.0, "futureKey": {"x": 1}})
    assert step.to_payload() == {"kind": "llm", "round": 1, "durationMs": 1.0}


def test_whole_number_durations_and_costs_read_back():
    step = RunStep.from_payload({"kind": "llm", "round": 1, "durationMs": 5, "estimatedCost": 0})
    assert step.duration_ms == 5.0 and isinstance(step.duration_ms, float)
    assert step.estimated_cost == 0.0 and isinstance(step.estimated_cost, float)


# -- legacy rows -------------------------------------------------------------


@pytest.mark.parametrize("is_error", [True, False])
def test_a_legacy_payload_with_only_tool_is_error_round_trips_without_inventing_an_outcome(is_error):
    payload = {
        "kind": "tool",
        "round": 2,
        "durationMs": 40.0,
        "toolName": "search",
        "toolArguments": {"q": "x"},
        "toolResult": "r",
        "toolIsError": is_error,
    }
    step = RunStep.from_payload(payload)
    assert step.tool_outcome is None
    assert step.to_payload() == payload
    assert "toolOutcome" not in step.to_payload()


def test_a_reference_cancelled_row_without_cancelled_in_flight_reads():
    payload = {"kind": "tool", "round": 1, "durationMs": 2.0, "toolIsError": True, "toolOutcome": "cancelled"}
    step = RunStep.from_payload(payload)
    assert step.cancelled_in_flight is None
    assert step.to_payload() == payload


# -- immutability ----------------------------------------------------------


def test_a_step_is_immutable_and_hashable():
    step = RunStep.from_payload(full_payload())
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.round = 4  # type: ignore[misc]
    assert hash(step) == hash(RunStep.from_payload(full_payload()))


def test_changing_the_callers_data_does_not_change_the_step():
    arguments = {"q": ["a"]}
    step = RunStep(kind="tool", round=1, duration_ms=1.0, tool_arguments=arguments)
    arguments["q"].append("b")
    arguments["new"] = 1
    assert step.to_payload()["toolArguments"] == {"q": ["a"]}


def test_changing_a_written_payload_does_not_change_the_step():
    step = RunStep(kind="llm", round=1, duration_ms=1.0, messages_sent=[{"role": "user"}])
    step.to_payload()["messagesSent"][0]["role"] = "system"
    assert step.to_payload()["messagesSent"] == [{"role": "user"}]


def test_a_kind_given_as_text_equals_one_given_as_step_kind():
    assert RunStep(kind="llm", round=1, duration_ms=1.0) == RunStep(kind=StepKind.LLM, round=1, duration_ms=1.0)


# -- invariants --------------------------------------------------------------


@pytest.mark.parametrize("kind", [kind for kind in StepKind if kind is not StepKind.TOOL])
@pytest.mark.parametrize("outcome", list(ToolOutcome))
def test_an_outcome_on_a_non_tool_step_is_refused(kind, outcome):
    payload = {
        "kind": kind.value, "round": 1, "durationMs": 1.0,
        "toolIsError": outcome is not ToolOutcome.OK, "toolOutcome": outcome.value,
    }  # fmt: skip
    with pytest.raises(InvalidStepError, match="an outcome on a non-tool step") as caught:
        RunStep.from_payload(payload)
    assert f"'{kind.value}' step" in str(caught.value)


@pytest.mark.parametrize(
    "is_error, outcome", [(True, "ok"), (False, "failed"), (False, "cancelled")]
)
def test_a_tool_is_error_that_contradicts_the_outcome_is_refused(is_error, outcome):
    payload = {"kind": "tool", "round": 1, "durationMs": 1.0, "toolIsError": is_error, "toolOutcome": outcome}
    with pytest.raises(InvalidStepError, match="contradicts toolOutcome") as caught:
        RunStep.from_payload(payload)
    assert "toolIsError must be true exactly when the outcome is not ok" in str(caught.value)


@pytest.mark.parametrize("is_error, outcome", [(False, "ok"), (True, "failed"), (True, "cancelled")])
def test_an_agreeing_pair_is_accepted(is_error, outcome):
    step = RunStep(kind="tool", round=1, duration_ms=1.0, tool_is_error=is_error, tool_outcome=outcome)
    assert step.tool_outcome == outcome


def test_an_outcome_without_tool_is_error_is_refused():
    with pytest.raises(InvalidStepError, match="needs toolIsError beside it"):
        RunStep(kind="tool", round=1, duration_ms=1.0, tool_outcome=ToolOutcome.OK)


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"tool_is_error": False, "tool_outcome": "ok"},
        {"tool_is_error": True, "tool_outcome": "failed"},
        {"tool_is_error": True},
    ],
)
def test_cancelled_in_flight_is_only_for_a_cancelled_step(fields):
    with pytest.raises(InvalidStepError, match="cancelledInFlight is only for a step whose toolOutcome is 'cancelled'"):
        RunStep(kind="tool", round=1, duration_ms=1.0, cancelled_in_flight=True, **fields)


@pytest.mark.parametrize("kind", ["thinking", "", "TOOL", None, 1])
def test_an_unknown_kind_is_refused(kind):
    with pytest.raises(InvalidStepError, match="kind must be one of"):
        RunStep(kind=kind, round=1, duration_ms=1.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("round_", [-1, True, 1.0, "1"])
def test_round_must_be_a_non_negative_whole_number(round_):
    with pytest.raises(InvalidStepError, match="round must be a non-negative whole number"):
        RunStep(kind="llm", round=round_, duration_ms=1.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("duration", [-0.01, float("nan"), float("inf"), True, "1", 10**400])
def test_duration_must_be_a_finite_non_negative_number(duration):
    with pytest.raises(InvalidStepError, match=r"durationMs must be a finite non-negative number, got "):
        RunStep(kind="llm", round=1, duration_ms=duration)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "key, value",
    [
        ("messagesSent", {"role": "user"}),
        ("messagesSent", "hi"),
        ("toolSpecs", 1),
        ("content", 1),
        ("content", ["a"]),
        ("thinking", False),
        ("finishReason", 1),
        ("promptTokens", "10"),
        ("promptTokens", True),
        ("promptTokens", -1),
        ("promptTokens", 1.5),
        ("completionTokens", False),
        ("totalTokens", 2.0),
        ("estimatedCost", "0.1"),
        ("estimatedCost", -0.1),
        ("estimatedCost", True),
        ("estimatedCost", float("nan")),
        ("requestedToolCalls", {}),
        ("raw", "text"),
        ("raw", 3),
        ("droppedSources", "doc"),
        ("toolName", 5),
        ("toolArguments", "q=x"),
        ("toolResult", {"text": "x"}),
        ("toolIsError", "true"),
        ("toolIsError", 1),
        ("toolIsError", 0),
        ("toolOutcome", "aborted"),
        ("toolOutcome", 1),
        ("toolArtifacts", {"name": "a"}),
        ("contextBudget", "8000"),
        ("contextBudget", True),
        ("writeTargetTable", 7),
        ("writeTargetUid", "7"),
        ("writeTargetUid", -1),
        ("writeTargetUid", False),
        ("legs", {"method": "m"}),
        ("cancelledInFlight", "yes"),
        ("cancelledInFlight", 1),
    ],
)
def test_a_wrong_type_is_refused_naming_the_key(key, value):
    payload = {"kind": "tool", "round": 1, "durationMs": 1.0, key: value}
    with pytest.raises(InvalidStepError) as caught:
        RunStep.from_payload(payload)
    assert str(caught.value).startswith(f"{key} must be ")


def test_a_non_json_value_inside_a_field_is_refused_naming_the_key():
    with pytest.raises(InvalidStepError, match=r"toolArguments \(tool_arguments\).*toolArguments\.q.*set"):
        RunStep(kind="tool", round=1, duration_ms=1.0, tool_arguments={"q": {1, 2}})
    with pytest.raises(InvalidStepError, match="non-string key"):
        RunStep(kind="tool", round=1, duration_ms=1.0, raw={1: "x"})


def test_an_invalid_leg_is_refused_naming_its_position():
    payload = {"kind": "tool", "round": 1, "durationMs": 1.0, "legs": [
        {"method": "initialize", "outcome": "ok"},
        {"method": "tools/call", "outcome": "lost"},
    ]}  # fmt: skip
    with pytest.raises(InvalidStepError, match=r"legs\[1\]: outcome must be one of"):
        RunStep.from_payload(payload)


def test_legs_given_to_the_constructor_must_be_legs():
    with pytest.raises(InvalidStepError, match=r"legs must be a list of legs, got a list"):
        RunStep(kind="tool", round=1, duration_ms=1.0, legs=({"method": "m", "outcome": "ok"},))  # type: ignore[arg-type]


@pytest.mark.parametrize("key", ["kind", "round", "durationMs"])
def test_a_payload_without_a_required_key_is_refused(key):
    payload = {"kind": "llm", "round": 1, "durationMs": 1.0}
    del payload[key]
    with pytest.raises(InvalidStepError, match=f"a step payload needs the key '{key}'"):
        RunStep.from_payload(payload)


def test_a_payload_must_be_a_mapping():
    with pytest.raises(InvalidStepError, match="a step payload must be an object, got a list"):
        RunStep.from_payload([("kind", "llm")])  # type: ignore[arg-type]


def test_an_invalid_step_error_is_a_value_error():
    assert issubclass(InvalidStepError, ValueError)
