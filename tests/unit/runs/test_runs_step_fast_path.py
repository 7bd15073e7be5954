"""The fast path of RunStep.from_payload and Leg.from_dict (a payload of plain dicts, lists and
scalars, as a JSON parser makes it) builds exactly what the full checks build, and leaves every
payload they refuse to them, so the message is theirs.

The full checks are reached with the same payload behind a read-only mapping proxy: not a dict,
so never taken by the fast path.
"""

import math
from dataclasses import fields
from types import MappingProxyType

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.runs import InvalidLegError, InvalidStepError, Leg, RunStep, StepKind, ToolOutcome
from inspector.runs._frozen import freeze, freeze_plain, thaw

scalars = (st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from([2**70, 10**400, -0.0, 1.5, 1e308])
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=4)
           | st.sampled_from(["ok", "failed", "cancelled", "not_sent", "tool", "llm", "initialize"]))
json_values = st.recursive(scalars, lambda children: st.lists(children, max_size=3)
                           | st.dictionaries(st.text(max_size=3), children, max_size=3), max_leaves=8)
legs = st.fixed_dictionaries(
    {"method": st.sampled_from(["initialize", "tools/call"]), "outcome": st.sampled_from(Leg.OUTCOMES)},
    optional={"grantedS": st.none() | st.integers(0, 30), "elapsedMs": st.none() | st.sampled_from([0, 4, 4.5]),
              "httpStatus": st.none() | st.sampled_from([200, 599, 100]), "extra": json_values})

progress_notes = st.fixed_dictionaries(
    {"atMs": st.sampled_from([0, 12.5, -1, 2**70, 10**400, float("nan"), True, "3"]),
     "progress": st.sampled_from([0, 1.5, -2, float("inf"), None, False])},
    optional={"total": st.none() | st.sampled_from([10, 0.5, float("nan"), "x"]),
              "message": st.none() | st.text(max_size=3) | st.integers(0, 2), "extra": json_values})


@st.composite
def payloads(draw):
    """A coherent payload (often valid), then a few of its values replaced by anything."""
    payload = {"kind": draw(st.sampled_from([kind.value for kind in StepKind])), "round": draw(st.integers(0, 9)),
               "durationMs": draw(st.sampled_from([0, 3, 17.3, 0.0, 2.345]))}
    optional = {
        "messagesSent": st.lists(json_values, max_size=2),
        "content": st.text(max_size=5),
        "promptTokens": st.integers(0, 10),
        "estimatedCost": st.sampled_from([0, 2, 0.5]),
        "raw": json_values,
        "toolName": st.text(max_size=5),
        "toolArguments": st.dictionaries(st.text(max_size=3), json_values, max_size=3),
        "contextBudget": st.sampled_from([5, -2.5, 0]) | st.lists(json_values, max_size=2),
        "writeTargetUid": st.integers(0, 10),
        "legs": st.lists(legs, max_size=3),
        "contentBlocks": st.lists(
            st.fixed_dictionaries({"type": st.sampled_from(["image", "resource"])},
                                  optional={"size": st.integers(0, 9), "uri": st.text(max_size=3)}),
            max_size=2) | json_values,
        "contentBlocksDropped": st.integers(0, 3) | json_values,
        "structuredContent": st.dictionaries(st.text(max_size=3), json_values, max_size=3) | json_values,
        "structuredContentText": st.text(max_size=5) | json_values,
        "progress": st.lists(progress_notes, max_size=3) | json_values,
        "progressDropped": st.integers(0, 3) | json_values,
        "serverRequests": st.lists(st.fixed_dictionaries({"method": st.text(max_size=3), "count": st.integers(1, 3),
                                                          "declined": st.booleans()}), max_size=2) | json_values,
        "serverToldToStop": st.booleans() | json_values,
        "transport": st.sampled_from(["http", "sse", "stdio", "tcp"]) | json_values,
        "serverCommand": st.text(max_size=5) | json_values,
        "era": st.sampled_from(["handshake", "stateless", "auto", "Stateless"]) | json_values,
        "stderr": st.lists(st.text(max_size=3), max_size=3) | json_values,
        "stderrDropped": st.integers(0, 3) | json_values,
        "lineProblems": st.lists(st.text(max_size=3), max_size=2) | json_values,
        "unknownKey": json_values,
    }
    for key in draw(st.lists(st.sampled_from(sorted(optional)), max_size=6, unique=True)):
        payload[key] = draw(optional[key])
    if payload["kind"] == "tool" and draw(st.booleans()):
        tool_outcome = draw(st.sampled_from(list(ToolOutcome)))
        payload["toolOutcome"], payload["toolIsError"] = tool_outcome.value, tool_outcome is not ToolOutcome.OK
        if tool_outcome is ToolOutcome.CANCELLED and draw(st.booleans()):
            payload["cancelledInFlight"] = draw(st.booleans())
    elif draw(st.booleans()):
        payload["toolIsError"] = draw(st.booleans())
    keys = sorted(payload) + ["toolOutcome", "toolIsError", "cancelledInFlight", "legs", "progress"]
    for key in draw(st.lists(st.sampled_from(keys), max_size=2)):
        legs_now = payload.get("legs")
        if key == "legs" and isinstance(legs_now, list) and legs_now and isinstance(legs_now[0], dict) \
                and draw(st.booleans()):  # a wrong value inside a leg
            leg = legs_now[0] = dict(legs_now[0])
            leg[draw(st.sampled_from(["method", "outcome", "grantedS", "elapsedMs", "httpStatus"]))] = \
                draw(json_values)
        else:
            payload[key] = draw(json_values)
    return payload


def proxied(payload):
    """The same payload, and each leg in it, behind a mapping proxy (what they hold unchanged,
    so that messages quoting a value read the same)."""
    legs = payload.get("legs")
    if isinstance(legs, list):
        payload = {**payload, "legs": [MappingProxyType(leg) if isinstance(leg, dict) else leg for leg in legs]}
    return MappingProxyType(payload)


def typed(value):
    """A value with the type of every part spelled out, NaN made comparable."""
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(typed(item) for item in value)
    if hasattr(value, "items"):
        return type(value).__name__, tuple((key, typed(item)) for key, item in value.items())
    if isinstance(value, Leg):
        return "Leg", tuple(typed(getattr(value, field.name)) for field in fields(Leg)), tuple(vars(value))
    if isinstance(value, float) and math.isnan(value):
        return "float", "nan"
    return type(value).__name__, repr(value)


def outcome(read, data):
    try:
        built = read(data)
    except (InvalidStepError, InvalidLegError) as error:
        return type(error).__name__, str(error)
    return typed(built), _layout(built)


def _layout(value):
    """What an instance holds besides its fields' values: a step has slots and no dict."""
    return type(value).__name__, tuple(vars(value)) if hasattr(value, "__dict__") else "slots"


@settings(max_examples=400)
@given(payloads())
def test_a_payload_reads_as_the_full_checks_read_it(payload):
    assert outcome(RunStep.from_payload, payload) == outcome(RunStep.from_payload, proxied(payload))


@settings(max_examples=300)
@given(legs | st.dictionaries(st.sampled_from(["method", "outcome", "grantedS", "elapsedMs", "httpStatus"]),
                              json_values))
def test_a_leg_reads_as_the_full_checks_read_it(data):
    assert outcome(Leg.from_dict, data) == outcome(Leg.from_dict, MappingProxyType(data))


@given(json_values)
def test_freezing_plain_values_matches_freeze(value):
    assert typed(freeze_plain(value)) == typed(freeze(value))
    assert typed(thaw(freeze_plain(value))) == typed(thaw(freeze(value)))


def test_a_fast_step_is_laid_out_as_a_constructed_one():
    payload = {"kind": "tool", "round": 1, "durationMs": 2, "toolName": "t", "toolIsError": False,
               "toolOutcome": "ok", "legs": [{"method": "m", "outcome": "ok", "elapsedMs": 3}]}
    read = RunStep.from_payload(payload)
    built = RunStep(kind="tool", round=1, duration_ms=2, tool_name="t", tool_is_error=False,
                    tool_outcome=ToolOutcome.OK, legs=(Leg("m", None, 3, None, "ok"),))
    assert read == built and hash(read) == hash(built)
    # Slots, not a dict: every field is set, in field order, and nothing else is held.
    assert not hasattr(read, "__dict__") and not hasattr(built, "__dict__")
    assert RunStep.__slots__ == tuple(field.name for field in fields(RunStep))
    assert [getattr(read, name) for name in RunStep.__slots__] == [getattr(built, name) for name in RunStep.__slots__]
    assert list(vars(read.legs[0])) == [field.name for field in fields(Leg)]


def test_to_payload_without_legs_leaves_out_only_the_legs():
    step = RunStep.from_payload({"kind": "tool", "round": 1, "durationMs": 2.345, "toolIsError": True,
                                 "legs": [{"method": "m", "outcome": "failed"}]})
    payload = step.to_payload()
    assert payload.pop("legs") == [{"method": "m", "grantedS": None, "elapsedMs": None, "httpStatus": None,
                                    "outcome": "failed"}]
    assert step.to_payload(legs=False) == payload


def test_the_callers_payload_is_not_shared_with_the_step():
    arguments = {"query": "x", "nested": {"a": [1]}}
    step = RunStep.from_payload({"kind": "tool", "round": 0, "durationMs": 1.0, "toolArguments": arguments})
    arguments["query"] = "changed"
    arguments["nested"]["a"].append(2)
    assert step.to_payload()["toolArguments"] == {"query": "x", "nested": {"a": [1]}}


def test_outcome_parse_reads_plain_text_and_subclasses_alike():
    class Text(str):
        pass

    for value in ("ok", "failed", "cancelled", "OK", "", "not_sent"):
        assert ToolOutcome.parse(value) is ToolOutcome.parse(Text(value))
    assert ToolOutcome.parse("cancelled") is ToolOutcome.CANCELLED
    assert ToolOutcome.parse(None) is None and ToolOutcome.parse(1) is None
