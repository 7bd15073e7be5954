"""One outcome string travels end to end (seed ADR-191, decision 3).

Renaming the string on one side alone would render an empty Outcome cell and
nothing else would notice, so the equality is asserted hop by hop, with the
spec's literal strings as the anchor.
"""

import json

import pytest

from inspector.runs import RunTrace, TimelineEntry, ToolOutcome, ToolResult, outcome_label_key, step_outcome

CASES = [
    ("ok", ToolOutcome.OK, TimelineEntry.OUTCOME_OK, lambda: ToolResult.text("fine")),
    ("failed", ToolOutcome.FAILED, TimelineEntry.OUTCOME_FAILED, lambda: ToolResult.error("boom")),
    (
        "cancelled",
        ToolOutcome.CANCELLED,
        TimelineEntry.OUTCOME_CANCELLED,
        lambda: ToolResult.cancelled("stopped", in_flight=True),
    ),
]


@pytest.mark.parametrize("literal, outcome, constant, make_result", CASES, ids=[c[0] for c in CASES])
def test_the_outcome_string_is_equal_on_every_hop(literal, outcome, constant, make_result):
    result = make_result()
    assert result.outcome is outcome
    step = RunTrace().record_tool_result(1, "tool", {}, result, 1.0)
    # Through storage, as the timeline will read it.
    payload = json.loads(json.dumps(step.to_payload()))
    shown = step_outcome(payload)
    key = outcome_label_key(shown)
    assert outcome.value == payload["toolOutcome"] == shown == constant == literal
    assert key == f"outcome.{literal}"
    assert key.rsplit(".", 1)[1] == outcome.value
    assert TimelineEntry.from_step_payload(payload, sequence=0).outcome == literal


@pytest.mark.parametrize("is_error, literal", [(False, "ok"), (True, "failed")])
def test_the_boolean_entry_point_gives_the_same_strings(is_error, literal):
    step = RunTrace().record_tool_execution(1, "tool", {}, "x", is_error, 1.0)
    payload = json.loads(json.dumps(step.to_payload()))
    assert payload["toolOutcome"] == step_outcome(payload) == literal
    legacy = {key: value for key, value in payload.items() if key != "toolOutcome"}
    assert step_outcome(legacy) == literal
    assert outcome_label_key(step_outcome(legacy)) == f"outcome.{literal}"


def test_every_timeline_outcome_but_none_has_a_label_key():
    for outcome in TimelineEntry.OUTCOMES:
        key = outcome_label_key(outcome)
        assert (key == "") == (outcome == TimelineEntry.OUTCOME_NONE)
        assert key.endswith(outcome)
