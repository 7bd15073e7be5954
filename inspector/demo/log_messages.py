"""The demo server's MCP log messages: ``logging/setLevel`` honoured per session.

A tool's log lines travel as ``notifications/message`` on the stream of the request that made
them (so the client hears them during its operation). Each session gets the lines at the level
it asked for and above; a session that asked for nothing gets ``info`` and above (the server's
own choice). The level is kept by the session's ``Mcp-Session-Id``: a stateless server has no
session, and its requests get the default.

In the stateless era (2026-07-28) there is no ``logging/setLevel`` and no session: a request gets
log lines only when its ``_meta`` asks for a level (``io.modelcontextprotocol/logLevel``), and
then that level and above, on its own stream; a request that asks for none gets none.
"""

from __future__ import annotations

import threading
import warnings
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPDeprecationWarning

from .eras import is_stateless, requested_log_level

LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
#: What a session that never asked gets.
DEFAULT_LEVEL = "info"
#: The logger name the demo's lines carry.
LOGGER = "demo"
#: Sessions whose level is remembered (the oldest is forgotten first).
MAX_SESSIONS = 1000

# The SDK warns that revision 2026-07-28 drops logging/setLevel and connection-wide logging; the
# revisions the demo speaks (the handshake era) have both. Only the demo's own calls are quietened.
warnings.filterwarnings("ignore", message="The logging capability is deprecated", category=MCPDeprecationWarning,
                        module=r"inspector\.demo\.")


class SessionLevels:
    """The level each session asked for (thread-safe: the server may run in another thread)."""

    def __init__(self) -> None:
        self._levels: dict[str, str] = {}
        self._lock = threading.Lock()

    def set(self, ctx: ServerRequestContext[Any], level: str) -> None:
        key = _session_key(ctx)
        if key is None:
            return
        with self._lock:
            self._levels.pop(key, None)
            self._levels[key] = level
            while len(self._levels) > MAX_SESSIONS:
                del self._levels[next(iter(self._levels))]

    def level_of(self, ctx: ServerRequestContext[Any]) -> str:
        key = _session_key(ctx)
        with self._lock:
            return self._levels.get(key, DEFAULT_LEVEL) if key is not None else DEFAULT_LEVEL

    def wants(self, ctx: ServerRequestContext[Any], level: str) -> bool:
        if is_stateless(ctx):
            asked = requested_log_level(ctx)
            return asked in LEVELS and LEVELS.index(level) >= LEVELS.index(asked)
        return LEVELS.index(level) >= LEVELS.index(self.level_of(ctx))

    async def handle_set_level(self, ctx: ServerRequestContext[Any],
                               params: types.SetLevelRequestParams) -> types.EmptyResult:
        """The ``logging/setLevel`` handler."""
        self.set(ctx, params.level)
        return types.EmptyResult()


async def send_log(ctx: ServerRequestContext[Any], levels: SessionLevels, level: str, text: str) -> bool:
    """Send ``text`` as a log message on this request's stream if the session wants ``level``."""
    if not levels.wants(ctx, level):
        return False
    await ctx.session.send_log_message(level, text, logger=LOGGER,  # type: ignore[arg-type]
                                       related_request_id=ctx.request_id)
    return True


def _session_key(ctx: ServerRequestContext[Any]) -> str | None:
    request = ctx.request
    headers = getattr(request, "headers", None)
    if headers is None:
        return None
    value = headers.get("mcp-session-id")
    return value if isinstance(value, str) and value else None
