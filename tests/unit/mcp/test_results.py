"""The answer of tools/call as the client returns it (§2)."""

from __future__ import annotations

from inspector.mcp.results import NO_TEXT_SENTENCE, ToolCallResult, ToolCatalogue


def text(value: str) -> dict:
    return {"type": "text", "text": value}


def test_text_blocks_are_joined_with_newlines():
    result = ToolCallResult.from_result("echo", {"content": [text("one"), text("two"), text("")]})
    assert result.content == "one\ntwo\n"
    assert result.tool == "echo"
    assert result.is_error is False
    assert result.dropped_blocks == {}
    assert result.structured_content is None


def test_non_text_blocks_are_counted_and_named_in_a_leading_note():
    result = ToolCallResult.from_result("t", {"content": [
        text("before"),
        {"type": "image", "data": "AAAA", "mimeType": "image/png"},
        {"type": "audio", "data": "AAAA", "mimeType": "audio/wav"},
        {"type": "image", "data": "BBBB", "mimeType": "image/png"},
        {"type": "resource", "resource": {"uri": "file:///x", "text": "x"}},
        {"type": "resource_link", "uri": "file:///y", "name": "y"},
        {"type": "hologram"},
        "not even an object",
        text("after"),
    ]})
    assert result.dropped_blocks == {"image": 2, "audio": 1, "resource": 1, "resource_link": 1, "other": 2}
    first_line, rest = result.content.split("\n", 1)
    assert first_line == ("[7 blocks are not shown as text: 1 audio clip, 2 images, 2 blocks of other kinds, "
                          "1 embedded resource, 1 resource link.]")
    assert "(s)" not in first_line
    assert rest == "before\nafter"
    assert [block["type"] for block in result.blocks] == [
        "text", "image", "audio", "image", "resource", "resource_link", "hologram", "other", "text"]


def test_every_block_keeps_its_details_but_never_binary_bytes():
    import base64

    png = base64.b64encode(bytes(range(256)) * 4 + b"xy").decode()  # 1026 bytes
    result = ToolCallResult.from_result("t", {"content": [
        text("héllo"),
        {"type": "image", "data": png, "mimeType": "image/png"},
        {"type": "audio", "data": base64.b64encode(b"a").decode(), "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "file:///tmp/report.csv", "name": "report.csv", "mimeType": "text/csv",
         "size": 2048, "title": 7},
        {"type": "resource", "resource": {"uri": "memo://1", "mimeType": "text/plain", "text": "line one\nline two"}},
        {"type": "resource", "resource": {"uri": "blob://2", "mimeType": "application/pdf",
                                          "blob": base64.b64encode(b"%PDF-1.7").decode()}},
    ]})
    assert list(result.blocks) == [
        {"type": "text", "size": 6},
        {"type": "image", "mimeType": "image/png", "size": 1026},
        {"type": "audio", "mimeType": "audio/wav", "size": 1},
        {"type": "resource_link", "uri": "file:///tmp/report.csv", "name": "report.csv", "mimeType": "text/csv",
         "size": 2048},
        {"type": "resource", "uri": "memo://1", "mimeType": "text/plain", "size": 17, "text": "line one\nline two"},
        {"type": "resource", "uri": "blob://2", "mimeType": "application/pdf", "size": 8},
    ]
    assert png not in repr(result.blocks)
    assert result.content.startswith("[5 blocks are not shown as text: 1 audio clip, 1 image, "
                                     "2 embedded resources, 1 resource link.]")


def test_only_non_text_blocks_give_the_note_alone():
    result = ToolCallResult.from_result("t", {"content": [{"type": "image", "data": "", "mimeType": "image/png"}]})
    assert result.dropped_blocks == {"image": 1}
    assert result.content == "[1 block is not shown as text: 1 image.]"
    assert "\n" not in result.content


def test_is_error_true_is_kept():
    result = ToolCallResult.from_result("t", {"content": [text("it broke")], "isError": True})
    assert result.is_error is True
    assert result.content == "it broke"


def test_is_error_must_be_exactly_true():
    for value in ("true", 1, None, False):
        assert ToolCallResult.from_result("t", {"content": [text("x")], "isError": value}).is_error is False


def test_structured_content_is_kept_next_to_its_text_copy():
    result = ToolCallResult.from_result("add", {"content": [text('{"sum": 3}')],
                                                "structuredContent": {"sum": 3}})
    assert result.structured_content == {"sum": 3}
    assert result.content == '{"sum": 3}'


def test_structured_content_that_is_not_an_object_is_dropped():
    result = ToolCallResult.from_result("t", {"content": [text("x")], "structuredContent": [1, 2]})
    assert result.structured_content is None


def test_no_text_at_all_gives_the_sentence():
    for result in ({}, {"content": []}, {"content": None}, {"content": "text, but not a list"}):
        called = ToolCallResult.from_result("t", result)
        assert called.content == NO_TEXT_SENTENCE
        assert "no textual content" in called.content


def test_a_text_block_without_a_string_is_not_text():
    result = ToolCallResult.from_result("t", {"content": [{"type": "text", "text": 5}, text("real")]})
    assert result.content.endswith("\nreal")
    assert sum(result.dropped_blocks.values()) == 1


def test_catalogue_names():
    catalogue = ToolCatalogue([{"name": "a"}, {"name": "b"}, {"title": "nameless"}], pages=2)
    assert catalogue.names == ["a", "b", ""]
    assert catalogue.pages == 2


def test_tool_arguments_read_name_type_and_required_from_the_input_schema():
    from inspector.mcp import ToolArgument, tool_arguments

    tool = {"name": "search", "inputSchema": {
        "type": "object",
        "properties": {
            "query": {"type": "string"},
            "limit": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
            "tags": {"type": "array", "items": {"type": "string"}},
            "mode": {"enum": ["fast", "slow"]},
            "either": {"type": ["number", "boolean"]},
            "nested": {"$ref": "#/$defs/Options"},
            "loose": {},
        },
        "required": ["query", "tags", 7],
    }}
    assert tool_arguments(tool) == [
        ToolArgument("query", "string", True),
        ToolArgument("limit", "integer or null", False),
        ToolArgument("tags", "array of string", True),
        ToolArgument("mode", "enum", False),
        ToolArgument("either", "number or boolean", False),
        ToolArgument("nested", "Options", False),
        ToolArgument("loose", "any", False),
    ]
    assert tool_arguments({"name": "bare"}) == []
    assert tool_arguments({"name": "odd", "inputSchema": {"properties": ["x"]}}) == []

