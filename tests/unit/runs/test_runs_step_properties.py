"""Property tests: any valid step survives its stored form unchanged."""

import json

from hypothesis import given
from hypothesis import strategies as st

from inspector.runs import Leg, RunStep, StepKind, ToolOutcome, step_outcome

json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.floats(
    allow_nan=False, allow_infinity=False
) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=8), children, max_size=3),
    max_leaves=10,
)
json_lists = st.lists(json_values, max_size=3)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=3)
json_arrays = json_lists | json_objects
counts = st.integers(min_value=0, max_value=10**9)
# The payload rounds durations to 2 decimals, so generate them that way.
durations = st.floats(min_value=0, max_value=1e9, allow_nan=False).map(lambda value: round(value, 2))
costs = st.floats(min_value=0, max_value=1e6, allow_nan=False)


def optional(strategy):
    return st.none() | strategy


@st.composite
def legs(draw):
    outcome = draw(st.sampled_from(Leg.OUTCOMES))
    status = None if outcome == Leg.NOT_SENT else draw(optional(st.integers(100, 599)))
    return Leg(
        method=draw(st.sampled_from(["initialize", "tools/list", "tools/call"])),
        granted_s=draw(optional(st.integers(0, 3600))),
        elapsed_ms=draw(optional(st.floats(min_value=0, max_value=1e7, allow_nan=False))),
        http_status=status,
        outcome=outcome,
    )


@st.composite
def run_steps(draw):
    kind = draw(st.sampled_from(list(StepKind)))
    # Only tool steps state an outcome, and then with the boolean that agrees.
    tool_outcome = draw(optional(st.sampled_from(list(ToolOutcome)))) if kind is StepKind.TOOL else None
    if tool_outcome is None:
        tool_is_error = draw(optional(st.booleans()))
        in_flight = None
    else:
        tool_is_error = tool_outcome is not ToolOutcome.OK
        in_flight = draw(optional(st.booleans())) if tool_outcome is ToolOutcome.CANCELLED else None
    return RunStep(
        kind=kind,
        round=draw(st.integers(0, 1000)),
        duration_ms=draw(durations),
        messages_sent=draw(optional(json_lists)),
        tool_specs=draw(optional(json_lists)),
        content=draw(optional(st.text(max_size=30))),
        thinking=draw(optional(st.text(max_size=30))),
        finish_reason=draw(optional(st.sampled_from(["stop", "tool_calls", "length", ""]))),
        prompt_tokens=draw(optional(counts)),
        completion_tokens=draw(optional(counts)),
        total_tokens=draw(optional(counts)),
        estimated_cost=draw(optional(costs)),
        requested_tool_calls=draw(optional(json_lists)),
        raw=draw(optional(json_arrays)),
        dropped_sources=draw(optional(json_lists)),
        tool_name=draw(optional(st.text(max_size=20))),
        tool_arguments=draw(optional(json_arrays)),
        tool_result=draw(optional(st.text(max_size=30))),
        tool_is_error=tool_is_error,
        tool_outcome=tool_outcome,
        tool_artifacts=draw(optional(json_lists)),
        context_budget=draw(optional(json_arrays | counts | costs)),
        write_target_table=draw(optional(st.text(max_size=12))),
        write_target_uid=draw(optional(counts)),
        legs=tuple(draw(st.lists(legs(), max_size=3))),
        cancelled_in_flight=in_flight,
    )


def _canonical(payload: dict) -> str:
    # Compared as JSON text, because dict equality treats 0 as False and
    # 1 as 1.0; the stored form must keep the exact types.
    return json.dumps(payload, sort_keys=True)


@given(run_steps())
def test_a_step_reads_back_equal_from_its_payload(step):
    assert RunStep.from_payload(step.to_payload()) == step


@given(run_steps())
def test_writing_a_read_payload_gives_the_same_payload(step):
    payload = step.to_payload()
    assert _canonical(RunStep.from_payload(payload).to_payload()) == _canonical(payload)


@given(run_steps())
def test_a_payload_survives_json_storage(step):
    payload = step.to_payload()
    stored = json.loads(json.dumps(payload))
    assert RunStep.from_payload(stored) == step
    assert _canonical(RunStep.from_payload(stored).to_payload()) == _canonical(payload)


@given(run_steps())
def test_only_absent_fields_are_left_out_of_the_payload(step):
    payload = step.to_payload()
    if step.tool_is_error is not None:
        assert payload["toolIsError"] is step.tool_is_error
    if step.prompt_tokens is not None:
        assert payload["promptTokens"] == step.prompt_tokens
    assert ("toolOutcome" in payload) == (step.tool_outcome is not None)
    assert ("legs" in payload) == bool(step.legs)
    assert ("cancelledInFlight" in payload) == (step.cancelled_in_flight is not None)
    assert all(value is not None for value in payload.values())


@given(run_steps())
def test_the_timeline_outcome_of_a_tool_step_matches_the_step(step):
    outcome = step_outcome(step.to_payload())
    if step.tool_is_error is None:
        assert outcome == ""
    elif step.tool_outcome is not None:
        assert outcome == step.tool_outcome.value
    else:
        assert outcome == ("failed" if step.tool_is_error else "ok")
