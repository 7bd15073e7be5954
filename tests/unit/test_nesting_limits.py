"""Every place that refuses (or keeps as text) a value nested too deeply, at its limit: one level less,
the limit, one level more. The places count differently on purpose, and these pin each one's rule:
lists and objects only (a call's arguments, a result's structured content, a trace's values), or
every value on the way down, the scalar at the bottom too (a JSON body received, a span's JSON text)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.agent.scenario import MAX_ARGUMENT_DEPTH, ScenarioError, parse_scenario
from inspector.capture import otlp_body
from inspector.cli.common import UsageError
from inspector.cli.operations import parse_arguments
from inspector.runs._frozen import FrozenMap
from inspector.runs.result import MAX_STRUCTURE_DEPTH, ToolResult
from inspector.traces import conventions
from inspector.traces.format import MAX_PAYLOAD_DEPTH, MAX_VALUE_DEPTH, TraceProblem, load_embedded_json


def nested(containers: int, leaf: Any = 1) -> Any:
    """``containers`` lists and objects, alternating, the outermost an object, ``leaf`` in the innermost
    (``None``: the innermost is empty)."""
    value: Any = None
    for level in range(containers, 0, -1):
        inner = () if value is None and leaf is None else ((leaf,) if value is None else (value,))
        value = {f"k{level}": inner[0]} if level % 2 and inner else ({} if level % 2 else list(inner))
    return value


def test_nested_counts_the_lists_and_objects_it_is_asked_for() -> None:
    assert nested(1) == {"k1": 1}
    assert nested(3) == {"k1": [{"k3": 1}]}
    assert nested(3, None) == {"k1": [{}]}
    assert nested(2, None) == {"k1": []}


# -- a scenario's call arguments: lists and objects, at most 100 --------------------------------


def _scenario(arguments: Any) -> str:
    return json.dumps({"scenario": 1, "name": "n", "description": "d", "prompt": "p",
                       "rounds": [{"calls": [{"tool": "t", "arguments": arguments}]}]})


@pytest.mark.parametrize("leaf", [1, None])
@pytest.mark.parametrize("containers", [MAX_ARGUMENT_DEPTH - 1, MAX_ARGUMENT_DEPTH])
def test_scenario_arguments_at_the_limit_are_taken(containers: int, leaf: Any) -> None:
    assert MAX_ARGUMENT_DEPTH == 100
    arguments = nested(containers, leaf)
    (call,) = parse_scenario(_scenario(arguments), "s.json").rounds[0].calls
    assert call.arguments == arguments


@pytest.mark.parametrize("leaf", [1, None])
def test_scenario_arguments_past_the_limit_are_refused(leaf: Any) -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(_scenario(nested(MAX_ARGUMENT_DEPTH + 1, leaf)), "s.json")
    assert str(refused.value) == ("The scenario file s.json is not valid at rounds[0].calls[0].arguments: "
                                  "nested deeper than 100 levels.")


# -- a result's structured content: lists and objects (tuples and frozen maps too), at most 100 ----


@pytest.mark.parametrize("leaf", [1, None])
@pytest.mark.parametrize("containers", [MAX_STRUCTURE_DEPTH - 1, MAX_STRUCTURE_DEPTH])
def test_structured_content_at_the_limit_is_kept_as_a_value(containers: int, leaf: Any) -> None:
    assert MAX_STRUCTURE_DEPTH == 100
    structured = nested(containers, leaf)
    result = ToolResult("x", False, (), "ok", None, structured_content=structured)
    assert isinstance(result.structured_content, FrozenMap)


@pytest.mark.parametrize("leaf", [1, None])
def test_structured_content_past_the_limit_is_kept_as_text(leaf: Any) -> None:
    structured = nested(MAX_STRUCTURE_DEPTH + 1, leaf)
    result = ToolResult("x", False, (), "ok", None, structured_content=structured)
    assert isinstance(result.structured_content, str)
    assert json.loads(result.structured_content) == structured


@pytest.mark.parametrize(("containers", "kept_as_value"), [(99, True), (100, True), (101, False)])
def test_structured_content_counts_tuples_and_frozen_maps_as_levels(containers: int, kept_as_value: bool) -> None:
    inner: Any = 1
    for level in range(containers - 1):
        inner = (inner,) if level % 2 else FrozenMap({"k": inner})
    result = ToolResult("x", False, (), "ok", None, structured_content={"top": inner})
    assert isinstance(result.structured_content, FrozenMap) is kept_as_value


# -- call --args: lists and objects, at most 100 ------------------------------------------------


@pytest.mark.parametrize("leaf", [1, None])
@pytest.mark.parametrize("containers", [MAX_VALUE_DEPTH - 1, MAX_VALUE_DEPTH])
def test_call_args_at_the_limit_are_taken(containers: int, leaf: Any) -> None:
    assert MAX_VALUE_DEPTH == 100
    arguments = nested(containers, leaf)
    assert parse_arguments(json.dumps(arguments)) == arguments


@pytest.mark.parametrize("leaf", [1, None])
def test_call_args_past_the_limit_are_refused(leaf: Any) -> None:
    with pytest.raises(UsageError) as refused:
        parse_arguments(json.dumps(nested(MAX_VALUE_DEPTH + 1, leaf)))
    assert str(refused.value.args[0]) == ("--args is nested deeper than 100 levels (the limit for what is "
                                          "stored and exported); nothing was sent")


# -- a payload's JSON text in an OTLP trace: lists and objects, at most 103 ----------------------


@pytest.mark.parametrize("leaf", [1, None])
@pytest.mark.parametrize("containers", [MAX_PAYLOAD_DEPTH - 1, MAX_PAYLOAD_DEPTH])
def test_embedded_json_at_the_limit_is_read(containers: int, leaf: Any) -> None:
    assert MAX_PAYLOAD_DEPTH == 103
    value = nested(containers, leaf)
    assert load_embedded_json(json.dumps(value), ("p",), MAX_PAYLOAD_DEPTH) == value


@pytest.mark.parametrize("leaf", [1, None])
def test_embedded_json_past_the_limit_is_refused(leaf: Any) -> None:
    with pytest.raises(TraceProblem) as refused:
        load_embedded_json(json.dumps(nested(MAX_PAYLOAD_DEPTH + 1, leaf)), ("p",), MAX_PAYLOAD_DEPTH)
    assert refused.value.problem == "nested deeper than 103 levels"
    assert refused.value.path == ("p",)


def test_embedded_json_of_a_scalar_is_read() -> None:
    assert load_embedded_json("7", ("p",), 1) == 7
    assert load_embedded_json("[]", ("p",), 1) == []
    with pytest.raises(TraceProblem):
        load_embedded_json("[[]]", ("p",), 1)


# -- a JSON body the receiver takes: every value on the way down, the top 1, at most 64 ----------


def _body(containers: int, leaf: Any) -> bytes:
    return json.dumps({"resourceSpans": [], "x": nested(containers - 1, leaf)}).encode()


@pytest.mark.parametrize(("containers", "leaf"), [(62, 1), (63, 1), (63, None), (64, None)])
def test_a_json_body_at_the_limit_is_read(containers: int, leaf: Any) -> None:
    assert otlp_body.MAX_JSON_DEPTH == 64
    assert otlp_body.read_request(_body(containers, leaf), "application/json") == []


@pytest.mark.parametrize(("containers", "leaf"), [(64, 1), (65, None), (65, 1)])
def test_a_json_body_past_the_limit_is_refused(containers: int, leaf: Any) -> None:
    with pytest.raises(otlp_body.BadBody) as refused:
        otlp_body.read_request(_body(containers, leaf), "application/json")
    assert str(refused.value.args[0]) == "The JSON body nests more than 64 levels deep."


def test_a_json_body_of_a_scalar_is_refused_as_no_object() -> None:
    with pytest.raises(otlp_body.BadBody) as refused:
        otlp_body.read_request(b"7", "application/json")
    assert "must be a JSON object" in str(refused.value.args[0])


# -- a span attribute's JSON text: every value on the way down, the top 1, at most 81 -------------


@pytest.mark.parametrize(("containers", "leaf"), [(79, 1), (80, 1), (80, None), (81, None)])
def test_json_text_at_the_limit_is_read(containers: int, leaf: Any) -> None:
    value = nested(containers, leaf)
    assert conventions.parse_json_text(json.dumps(value)) == value


@pytest.mark.parametrize(("containers", "leaf"), [(81, 1), (82, None), (82, 1)])
def test_json_text_past_the_limit_stays_text(containers: int, leaf: Any) -> None:
    text = json.dumps(nested(containers, leaf))
    assert conventions.parse_json_text(text) == text
