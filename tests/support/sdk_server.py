"""The official MCP SDK server with a few tools, used as the real far side in tests."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import EmbeddedResource, ImageContent, ResourceLink, TextContent, TextResourceContents
from pydantic import BaseModel


class NameForm(BaseModel):
    """What ``ask_name`` asks the client for."""

    name: str


#: The image ``files`` returns: 4 bytes (a real client never sees them, only their size).
IMAGE_BASE64 = "iVBORw=="


class ToolEvents:
    """What the server's tools saw: lets tests check that a cancel reached the handler."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.cancelled = threading.Event()
        self.finished = threading.Event()


def build_sdk_server(events: ToolEvents | None = None, tool_count: int = 3) -> MCPServer:
    events = events or ToolEvents()
    server = MCPServer("run-inspector-test")

    @server.tool()
    async def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    async def add(a: int, b: int) -> dict[str, Any]:
        """Add two numbers (structured result)."""
        return {"sum": a + b}

    @server.tool()
    async def explode(reason: str = "boom") -> str:
        """Always raises."""
        raise RuntimeError(f"the tool exploded: {reason}")

    @server.tool()
    async def slow(seconds: float, ctx: Context) -> str:
        """Sleep, reporting progress every 0.1 s; records whether it was cancelled."""
        events.started.set()
        try:
            steps = max(1, int(seconds / 0.1))
            for step in range(steps):
                await ctx.report_progress(step, steps, "working")
                await asyncio.sleep(seconds / steps)
        except asyncio.CancelledError:
            events.cancelled.set()
            raise
        events.finished.set()
        return "done"

    @server.tool()
    async def ask_name(ctx: Context) -> str:
        """Ask the client for a name (elicitation); say how that went."""
        try:
            result = await ctx.elicit("What is your name?", NameForm)
        except Exception as exc:  # noqa: BLE001 - the test reads what the tool saw
            return f"elicitation failed: {exc}"
        return f"elicitation answered: {result.action}"

    @server.tool(structured_output=False)
    async def files() -> list[Any]:
        """Return one block of each kind that is not plain text."""
        return [
            TextContent(type="text", text="here are the files"),
            ResourceLink(type="resource_link", uri="file:///srv/report.csv", name="report.csv",
                         mimeType="text/csv", size=2048),
            EmbeddedResource(type="resource", resource=TextResourceContents(
                uri="memo://notes/1", mimeType="text/plain", text="first note\nsecond note")),
            ImageContent(type="image", data=IMAGE_BASE64, mimeType="image/png"),
        ]

    return server
