"""The official SDK's server with one tool, ``watch``, that sends the same notifications again and again
on the call's own stream (as a task's server sends its status, a subscribed resource's its updates):
five ``notifications/resources/updated``, one log message (info), two ``notifications/tools/list_changed``."""

from __future__ import annotations

from mcp import types
from mcp.server.mcpserver import Context, MCPServer


def build_repeating_server() -> MCPServer:
    server = MCPServer("repeating")

    @server.tool()
    async def watch(ctx: Context) -> str:
        """Say on the call's own stream that a resource changed five times, the tools twice, and log once."""
        session, request = ctx.request_context.session, ctx.request_id
        for _ in range(5):
            await session.send_notification(types.ResourceUpdatedNotification(
                params=types.ResourceUpdatedNotificationParams(uri="file:///watched.txt")), related_request_id=request)
        await ctx.info("watching")
        for _ in range(2):
            await session.send_notification(types.ToolListChangedNotification(), related_request_id=request)
        return "watched"

    return server
