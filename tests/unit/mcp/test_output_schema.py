"""Checking a tool's structured result against its output schema: path, rule, no network."""

from __future__ import annotations

import pytest

from inspector.mcp.output_schema import check_structured, json_path
from inspector.mcp.results import ToolCallResult

SCHEMA = {
    "type": "object",
    "$defs": {"money": {"type": "number", "minimum": 0}},
    "properties": {
        "items": {"type": "array", "items": {"type": "object", "properties": {"price": {"$ref": "#/$defs/money"}},
                                             "required": ["price"]}},
        "currency": {"enum": ["EUR", "USD"]},
        "id": {"type": "integer"},
        "odd key": {"type": "string"},
    },
    "required": ["items"],
    "additionalProperties": False,
}
TOOL = {"name": "quote", "outputSchema": SCHEMA}


def check(structured: object) -> str | None:
    problem = check_structured(TOOL, {"content": [], "structuredContent": structured})
    return None if problem is None else str(problem)


def test_json_paths_read_as_jsonpath():
    assert json_path([]) == "$"
    assert json_path(["items", 2, "price"]) == "$.items[2].price"
    assert json_path(["odd key", 0]) == '$["odd key"][0]'


@pytest.mark.parametrize(("structured", "said"), [
    ({"items": [{"price": 1}, {"price": -1}]}, "at $.items[1].price: -1 is less than the minimum of 0."),
    ({"items": [], "id": None}, "at $.id: null is not of type integer."),
    ({"items": [], "id": "7"}, 'at $.id: "7" is not of type integer.'),
    ({"items": [], "currency": "GBP"}, 'at $.currency: "GBP" is not one of ["EUR", "USD"].'),
    ({}, 'at $: the required property "items" is missing.'),
    ({"items": [], "extra": True}, "at $: it has properties the schema does not allow (additionalProperties: false)."),
    ({"items": [{}]}, 'at $.items[0]: the required property "price" is missing.'),
    ({"items": [], "odd key": 1}, 'at $["odd key"]: 1 is not of type string.'),
])
def test_a_broken_rule_is_named_with_its_path_in_json_words(structured, said):
    assert check(structured) == f"The result of the tool quote breaks its output schema {said}"


def test_several_problems_are_counted():
    assert check({"items": [{"price": -1}], "id": 1.5, "currency": "X"}).endswith("(and 2 more problems).")


def test_a_result_that_keeps_the_schema_or_a_tool_without_one_passes():
    assert check({"items": [{"price": 0}], "currency": "EUR", "id": 3}) is None
    assert check_structured({"name": "free"}, {"content": []}) is None


def test_an_error_result_is_not_checked_and_missing_structure_is_a_problem():
    assert check_structured(TOOL, {"isError": True, "content": []}) is None
    assert "returned no structured content" in str(check_structured(TOOL, {"content": []}))
    assert "returned no structured content" in str(check_structured(TOOL, {"structuredContent": None}))


def test_a_tool_call_result_is_checked_as_well():
    answer = ToolCallResult.from_result("quote", {"content": [], "structuredContent": {"items": [{"price": -2}]}})
    assert "-2 is less than the minimum of 0" in str(check_structured(TOOL, answer))
    failed = ToolCallResult.from_result("quote", {"content": [], "isError": True})
    assert check_structured(TOOL, failed) is None


def test_an_unusable_schema_or_a_ref_outside_it_says_the_result_cannot_be_checked():
    broken = {"name": "b", "outputSchema": {"type": "object", "properties": {"a": {"type": 5}}}}
    assert "is not a valid JSON Schema" in str(check_structured(broken, {"structuredContent": {"a": 1}}))
    elsewhere = {"name": "r", "outputSchema": {"properties": {"a": {"$ref": "https://example.invalid/a.json"}}}}
    said = str(check_structured(elsewhere, {"structuredContent": {"a": 1}}))
    assert "https://example.invalid/a.json" in said and "never fetches" in said
    missing_def = {"name": "m", "outputSchema": {"properties": {"a": {"$ref": "#/$defs/nothing"}}}}
    assert "cannot be checked" in str(check_structured(missing_def, {"structuredContent": {"a": 1}}))


def test_a_draft_07_schema_is_read_by_its_own_draft():
    old = {"name": "o", "outputSchema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                                         "definitions": {"n": {"type": "integer"}},
                                         "properties": {"n": {"$ref": "#/definitions/n"}}}}
    assert check_structured(old, {"structuredContent": {"n": 1}}) is None
    assert "at $.n" in str(check_structured(old, {"structuredContent": {"n": "x"}}))


def test_the_server_is_named_beside_the_tool_when_given():
    said = str(check_structured(TOOL, {"content": []}, server="Weather"))
    assert said.startswith("The tool quote on the server Weather declares an output schema")


def test_the_first_problem_in_the_results_order_is_named_and_a_flood_is_counted_without_end():
    assert check({"items": [{"price": 1}, {"price": None}, {"price": -1}]}).startswith(
        "The result of the tool quote breaks its output schema at $.items[1].price: null is not of type number")
    flood = check({"items": [{"price": -1}] * 5000})
    assert flood == ("The result of the tool quote breaks its output schema at $.items[0].price: -1 is less than "
                     "the minimum of 0 (and at least 999 more problems).")


def test_an_alternative_names_its_most_telling_branch():
    tool = {"name": "alt", "outputSchema": {"properties": {"v": {"anyOf": [{"type": "string"},
                                                                           {"type": "integer", "minimum": 5}]}}}}
    said = str(check_structured(tool, {"structuredContent": {"v": 2}}))
    assert said.startswith("The result of the tool alt breaks its output schema at $.v:")


def test_a_schema_without_end_or_a_result_too_deep_cannot_be_checked():
    endless = {"name": "e", "outputSchema": {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
                                             "$ref": "#/$defs/a"}}
    assert "cannot be checked" in str(check_structured(endless, {"structuredContent": {}}))
    deep: dict = {}
    level = deep
    for _ in range(5000):
        level["a"] = {}
        level = level["a"]
    recursive = {"name": "d", "outputSchema": {"type": "object", "properties": {"a": {"$ref": "#"}}}}
    assert "nested too deeply" in str(check_structured(recursive, {"structuredContent": deep}))
