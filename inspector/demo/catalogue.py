"""The catalogue mode: many extra tools, offered a page at a time."""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext

from .state import DemoState
from .tools import DemoTool, text_result

_TOPICS = ("weather", "stock", "invoice", "ticket", "shipment", "sensor", "contract", "calendar")


def catalogue_tools(count: int) -> tuple[DemoTool, ...]:
    """``count`` small look-up tools named ``lookup_001`` and on, each answering with its entry."""

    def make(number: int) -> DemoTool:
        topic = _TOPICS[number % len(_TOPICS)]

        async def handler(ctx: ServerRequestContext[Any], args: dict[str, Any],
                          state: DemoState) -> types.CallToolResult:
            return text_result(f"Entry {args.get('key', 'default')} of the {topic} register {number}.")

        return DemoTool(f"lookup_{number:03d}", f"Look up an entry in the {topic} register number {number}.",
                        {"type": "object", "properties": {"key": {"type": "string", "default": "default",
                                                                  "description": "The entry to look up."}},
                         "additionalProperties": False}, handler)

    return tuple(make(number) for number in range(1, count + 1))


def page_of(tools: list[types.Tool], cursor: str | None, page_size: int | None) -> types.ListToolsResult:
    """One page of ``tools``; the cursor is the offset of the page, as text (opaque to clients)."""
    if page_size is None:
        return types.ListToolsResult(tools=tools)
    start = 0
    if cursor is not None:
        if not cursor.isdigit() or int(cursor) > len(tools):
            raise ValueError(f"the cursor {cursor[:40]!r} is not one this server gave out")
        start = int(cursor)
    end = start + page_size
    return types.ListToolsResult(tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None)
