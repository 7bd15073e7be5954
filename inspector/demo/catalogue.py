"""The catalogue mode: many extra tools, offered a page at a time."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext

from .state import DemoState
from .tools import DemoTool, said_schema, text_result
from .words import N_, DemoWords

_TOPICS = (N_("weather"), N_("stock"), N_("invoice"), N_("ticket"), N_("shipment"), N_("sensor"), N_("contract"),
           N_("calendar"))


@dataclass(frozen=True)
class _LookUp(DemoTool):
    """A look-up tool: its description names its topic and number, in the server's language."""

    topic: str = ""
    number: int = 0

    def in_language(self, words: DemoWords) -> DemoTool:
        return replace(self, description=words(self.description).format(topic=words(self.topic), number=self.number),
                       input_schema=said_schema(self.input_schema, words))


def catalogue_tools(count: int) -> tuple[DemoTool, ...]:
    """``count`` small look-up tools named ``lookup_001`` and on, each answering with its entry."""

    def make(number: int) -> DemoTool:
        topic = _TOPICS[number % len(_TOPICS)]

        async def handler(ctx: ServerRequestContext[Any], args: dict[str, Any],
                          state: DemoState) -> types.CallToolResult:
            _ = state.words
            return text_result(_("Entry {key} of the {topic} register {number}.").format(
                key=args.get("key", "default"), topic=_(topic), number=number))

        return _LookUp(f"lookup_{number:03d}", N_("Look up an entry in the {topic} register number {number}."),
                       {"type": "object", "properties": {"key": {"type": "string", "default": "default",
                                                                 "description": N_("The entry to look up.")}},
                        "additionalProperties": False}, handler, topic=topic, number=number)

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
