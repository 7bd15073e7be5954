"""An MCP server over stdio started as ``python -m tests.support.token_stdio_server --token T``: it refuses to start
without ``--token`` (other words it lets be) and its one tool says a digest of the token it was given (never the
token), so a test sees that the process got the real token while what names the server shows ``--token …``."""

from __future__ import annotations

import argparse
import hashlib
import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("token stdio server")
_given: dict[str, str] = {}


def digest(token: str) -> str:
    """What the tool answers for ``token``."""
    return hashlib.sha256(token.encode()).hexdigest()[:16]


@server.tool()
def token_digest() -> str:
    """The digest of the token the process was started with."""
    return digest(_given["token"])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--token", required=True)
    _given["token"] = parser.parse_known_args()[0].token  # other words (--header=…, API_KEY=…) are let be
    print("token stdio server starting", file=sys.stderr, flush=True)
    server.run("stdio")
