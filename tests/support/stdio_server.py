"""The official MCP SDK server over stdio, with a few tools: the real far side of the stdio tests.

Run as ``python -m tests.support.stdio_server``. ``hang`` waits until cancelled and says so on stderr;
``say_on_stderr`` writes its text there.
"""

from __future__ import annotations

import asyncio
import os
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


@server.tool()
def say_on_stderr(text: str) -> str:
    """Write the text on stderr (the server's log), one line per line of it; ``$API_TOKEN`` in it
    stands for that variable of the server's environment (a server saying a secret)."""
    for line in text.replace("$API_TOKEN", os.environ.get("API_TOKEN", "")).splitlines():
        print(line, file=sys.stderr, flush=True)
    return "said"


if __name__ == "__main__":
    print("stdio test server starting", file=sys.stderr, flush=True)
    server.run("stdio")
