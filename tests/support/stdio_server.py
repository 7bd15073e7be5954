"""The official MCP SDK server over stdio, with a few tools: the real far side of the stdio tests.

Run as ``python -m tests.support.stdio_server``. ``hang`` waits until cancelled and says so on stderr;
``say_on_stderr`` writes its text there; ``log_later`` sends a log message after its answer.
"""

from __future__ import annotations

import asyncio
import os
import sys

from mcp.server.mcpserver import Context, MCPServer

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


_later: set[asyncio.Task[None]] = set()


@server.tool()
async def log_later(text: str, ctx: Context) -> str:
    """Answer at once; a moment later send ``text`` as a log message, when no request of the client runs."""
    session = ctx.session

    async def later() -> None:
        await asyncio.sleep(0.3)
        await session.send_log_message(level="warning", data=text, logger="later")

    task = asyncio.get_running_loop().create_task(later())
    _later.add(task)
    task.add_done_callback(_later.discard)
    return "scheduled"


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
