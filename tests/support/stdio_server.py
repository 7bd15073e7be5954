"""The official MCP SDK server over stdio, with a few tools: the real far side of the stdio tests.

Run as ``python -m tests.support.stdio_server``. ``hang`` waits until cancelled and says so on stderr.
"""

from __future__ import annotations

import asyncio
import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("stdio test server")


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    print(f"echo called with {len(text)} characters", file=sys.stderr, flush=True)
    return text


@server.tool()
async def hang() -> str:
    """Wait until cancelled."""
    print("hang started", file=sys.stderr, flush=True)
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        print("hang cancelled", file=sys.stderr, flush=True)
        raise
    return "never"


if __name__ == "__main__":
    print("stdio test server starting", file=sys.stderr, flush=True)
    server.run("stdio")
