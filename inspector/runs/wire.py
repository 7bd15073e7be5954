"""How a step's server was reached: the transports a step may name and the shape of its kept lines."""

from __future__ import annotations

from typing import Any

#: The transports a step names: Streamable HTTP, the older HTTP+SSE transport, a command's stdin/stdout.
TRANSPORTS = ("http", "sse", "stdio")
#: The eras of MCP a step may have spoken in: with ``initialize`` and a session, or stateless (2026-07-28 on).
SPOKEN_ERAS = ("handshake", "stateless")

#: The most lines a step keeps of a server's stderr (the last ones) or of the faults of its line.
MAX_STEP_LINES = 200


def is_lines(value: Any) -> bool:
    """True for a list (or tuple) of at most :data:`MAX_STEP_LINES` strings."""
    return (type(value) is list or type(value) is tuple) and len(value) <= MAX_STEP_LINES \
        and all(type(line) is str for line in value)
