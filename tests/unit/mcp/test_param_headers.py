"""x-mcp-header annotations (SEP-2243): which tools are invalid, and the Mcp-Param-* headers of a call."""

from __future__ import annotations

import base64

import pytest

from inspector.mcp.messages import Message
from inspector.mcp.param_headers import param_headers, split_catalogue, tool_header_problem


def tool(properties: dict, name: str = "t", **schema: object) -> dict:
    return {"name": name, "inputSchema": {"type": "object", "properties": properties, **schema}}


def prop(kind: object, header: object) -> dict:
    return {"type": kind, "x-mcp-header": header}


VALID = tool({"region": prop("string", "Region"), "priority": prop("integer", "Priority"),
              "verbose": prop("boolean", "Verbose"), "query": {"type": "string"},
              "score": {"type": "number"}, "method_val": prop("string", "Method")})


def test_a_tool_without_annotations_or_schema_is_valid():
    assert tool_header_problem({"name": "plain"}) is None
    assert tool_header_problem(tool({"a": {"type": "string"}})) is None
    assert tool_header_problem(VALID) is None


@pytest.mark.parametrize(("properties", "words"), [
    ({"value": prop("string", "")}, "empty"),
    ({"value": prop("string", 7)}, "not text"),
    ({"value": prop("string", "My Region")}, "not a valid HTTP header name"),
    ({"value": prop("string", "Region:Primary")}, "not a valid HTTP header name"),
    ({"value": prop("string", "Région")}, "outside ASCII"),
    ({"value": prop("string", "Region\t1")}, "control characters"),
    ({"value": prop("string", "Region\r\nX-Evil: 1")}, "control characters"),
    ({"data": prop("object", "Data")}, "of type object"),
    ({"items": {"type": "array", "items": {"type": "string"}, "x-mcp-header": "Items"}}, "of type array"),
    ({"nil": prop("null", "Nil")}, "of type null"),
    ({"score": prop("number", "Score")}, "of type number"),
    ({"untyped": {"x-mcp-header": "Untyped"}}, "of type none"),
    ({"field1": prop("string", "Region"), "field2": prop("string", "Region")}, "both have"),
    ({"field1": prop("string", "MyField"), "field2": prop("string", "myfield")}, "both have"),
])
def test_each_broken_rule_makes_the_tool_invalid_with_a_sentence_naming_property_and_rule(properties, words):
    problem = tool_header_problem(tool(properties))
    assert isinstance(problem, Message)
    sentence = str(problem)
    assert words in sentence
    assert f'"{next(iter(properties))}"' in sentence or "both have" in sentence


@pytest.mark.parametrize("schema", [
    {"type": "object", "properties": {"tags": {"type": "array", "items": prop("string", "Tag")}}},
    {"type": "object", "properties": {"v": {"anyOf": [prop("string", "V"), {"type": "integer"}]}}},
    {"type": "object", "oneOf": [{"properties": {"v": prop("string", "V")}}]},
    {"type": "object", "allOf": [{"properties": {"v": prop("string", "V")}}]},
    {"type": "object", "not": prop("string", "V")},
    {"type": "object", "if": {"properties": {"v": prop("string", "V")}}, "then": {}, "else": {}},
    {"type": "object", "properties": {"v": {"$ref": "#/$defs/v"}}, "$defs": {"v": prop("string", "V")}},
    {"type": "object", "x-mcp-header": "Root"},
])
def test_an_annotation_reached_other_than_through_properties_makes_the_tool_invalid(schema):
    problem = tool_header_problem({"name": "t", "inputSchema": schema})
    assert problem is not None and "through \"properties\" alone" in str(problem)


def test_an_annotation_nested_through_properties_alone_is_valid_and_mirrored():
    nested = tool({"target": {"type": "object", "properties": {"region": prop("string", "Region")}}})
    assert tool_header_problem(nested) is None
    assert param_headers(nested, {"target": {"region": "eu"}}) == {"Mcp-Param-Region": "eu"}
    assert param_headers(nested, {"target": "not an object"}) == {}


def test_data_that_looks_like_an_annotation_is_not_one():
    # A property *named* x-mcp-header, and a default value holding the word, are not annotations.
    schema = tool({"x-mcp-header": {"type": "object", "default": {"x-mcp-header": "No Token"}}})
    assert tool_header_problem(schema) is None


def test_split_catalogue_keeps_the_valid_tools_and_gives_each_excluded_one_its_reason():
    tools = [tool({"r": prop("string", "Region")}, "valid_tool"), tool({"v": prop("string", "")}, "bad"),
             {"name": "plain"}, tool({"s": prop("number", "Score")}, "also_bad")]
    valid, excluded = split_catalogue(tools)
    assert [t["name"] for t in valid] == ["valid_tool", "plain"]
    assert [(t["name"], "empty" in str(why)) for t, why in excluded] == [("bad", True), ("also_bad", False)]


def decoded(value: str) -> str:
    assert value.startswith("=?base64?") and value.endswith("?=")
    return base64.b64decode(value[len("=?base64?"):-2]).decode("utf-8")


def test_param_headers_mirror_strings_integers_and_booleans_and_only_annotated_ones():
    headers = param_headers(VALID, {"region": "us-west1", "priority": 42, "verbose": False,
                                    "query": "SELECT 1", "score": 3.14, "method_val": "test-method"})
    assert headers == {"Mcp-Param-Region": "us-west1", "Mcp-Param-Priority": "42", "Mcp-Param-Verbose": "false",
                       "Mcp-Param-Method": "test-method"}
    assert param_headers(VALID, {"verbose": True, "priority": -7})["Mcp-Param-Verbose"] == "true"
    assert param_headers(VALID, {"priority": -7}) == {"Mcp-Param-Priority": "-7"}


def test_absent_and_null_arguments_are_left_out():
    assert param_headers(VALID, {"region": "us-east1", "priority": 1, "verbose": None}) == {
        "Mcp-Param-Region": "us-east1", "Mcp-Param-Priority": "1"}
    assert param_headers(VALID, {}) == {}
    assert param_headers(VALID, None) == {}


@pytest.mark.parametrize("text", ["Hello, 世界", " padded ", " us-west1", "us-west1 ", "line1\nline2",
                                  "line1\r\nline2", "\tindented"])
def test_strings_a_header_cannot_carry_are_sent_in_the_base64_form(text):
    value = param_headers(VALID, {"region": text})["Mcp-Param-Region"]
    assert decoded(value) == text
    assert all(0x21 <= ord(char) <= 0x7e for char in value)


def test_internal_spaces_and_plain_ascii_stay_as_they_are():
    assert param_headers(VALID, {"region": "us west 1"}) == {"Mcp-Param-Region": "us west 1"}


def test_integers_beyond_the_safe_range_and_values_without_a_header_form_are_left_out():
    limit = 2**53 - 1
    assert param_headers(VALID, {"priority": limit}) == {"Mcp-Param-Priority": str(limit)}
    assert param_headers(VALID, {"priority": -limit}) == {"Mcp-Param-Priority": str(-limit)}
    assert param_headers(VALID, {"priority": limit + 1}) == {}
    assert param_headers(VALID, {"priority": 42.0}) == {"Mcp-Param-Priority": "42"}
    assert param_headers(VALID, {"priority": 4.5, "region": {"a": 1}}) == {}


def test_an_invalid_tool_gets_no_headers():
    assert param_headers(tool({"v": prop("string", "V"), "w": prop("string", "v")}), {"v": "a", "w": "b"}) == {}


def test_a_huge_schema_is_walked_within_a_bound():
    wide = tool({f"p{i}": {"type": "string"} for i in range(50_000)})
    assert tool_header_problem(wide) is None
