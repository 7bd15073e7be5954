"""A real MCP server (the official SDK's low-level server) whose tools declare output schemas and
return structured content that keeps them or not, as the arguments ask."""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server

#: Prices in an order, each at least 0 (a ``$ref`` into the schema's own ``$defs``).
QUOTE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "$defs": {"line": {"type": "object", "properties": {"price": {"type": "number", "minimum": 0}},
                       "required": ["price"]}},
    "properties": {"items": {"type": "array", "items": {"$ref": "#/$defs/line"}}},
    "required": ["items"],
}


def tools(canary_url: str) -> list[types.Tool]:
    remote = {"type": "object", "properties": {"profile": {"$ref": canary_url}}}
    return [
        types.Tool(name="quote", description="Prices as given.", input_schema={"type": "object"},
                   output_schema=QUOTE_SCHEMA),
        types.Tool(name="no_structure", description="Promises structure, sends text.",
                   input_schema={"type": "object"}, output_schema=QUOTE_SCHEMA),
        types.Tool(name="structure_only", description="Structured content, repeated in no text block.",
                   input_schema={"type": "object"}, output_schema=QUOTE_SCHEMA),
        types.Tool(name="tally", description="How many calls it has had, as structured content alone.",
                   input_schema={"type": "object"}),
        types.Tool(name="fails", description="Reports an error.", input_schema={"type": "object"},
                   output_schema=QUOTE_SCHEMA),
        types.Tool(name="remote_ref", description="Its output schema points at an address.",
                   input_schema={"type": "object"}, output_schema=remote),
    ]


def build_server(canary_url: str) -> Server[Any]:
    listed = tools(canary_url)
    calls = [0]

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = dict(params.arguments or {})
        text = [types.TextContent(type="text", text=f"{params.name} answered")]
        if params.name == "quote":
            items = [{"price": price} for price in arguments.get("prices", [3, 5, -1])]
            return types.CallToolResult(content=text, structured_content={"items": items})
        if params.name == "structure_only":  # the text block is a SHOULD (2025-06-18), not a MUST
            return types.CallToolResult(content=[], structured_content={"items": [{"price": 3, "note": "Grüße"}]})
        if params.name == "tally":  # the same answer each time but for its structure
            calls[0] += 1
            return types.CallToolResult(content=[], structured_content={"calls": calls[0]})
        if params.name == "fails":
            return types.CallToolResult(content=text, is_error=True)
        if params.name == "remote_ref":
            return types.CallToolResult(content=text, structured_content={"profile": {"name": 1}})
        return types.CallToolResult(content=text)

    return Server("output-schema-server", version="1.0.0", on_list_tools=list_tools, on_call_tool=call_tool)


def build_app(canary_url: str) -> Any:
    return build_server(canary_url).streamable_http_app(streamable_http_path="/mcp", host="127.0.0.1")
