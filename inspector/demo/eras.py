"""Which era a demo request speaks, and how a demo tool asks for input in the stateless era.

In the handshake era a tool asks the client by sending it a request mid-call. In the stateless
era (2026-07-28) there is no channel for that: the tool answers ``input_required`` with the
requests it would have sent (multi round-trip requests), and the client sends the call again with
``inputResponses`` and the ``requestState`` the tool gave. The demo keeps no state between rounds:
everything it needs rides the request itself.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

#: The ``_meta`` key by which a stateless-era request asks for log messages at a level and above.
LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel"


def is_stateless(ctx: ServerRequestContext[Any]) -> bool:
    """True when this request speaks the stateless era (no session, no server requests)."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


def requested_log_level(ctx: ServerRequestContext[Any]) -> str | None:
    """The log level this request's ``_meta`` asks for, or ``None`` (then nothing may be sent)."""
    meta = ctx.meta if isinstance(ctx.meta, dict) else {}
    value = meta.get(LOG_LEVEL_META_KEY)
    return value if isinstance(value, str) else None


def request_state(ctx: ServerRequestContext[Any]) -> str | None:
    """The ``requestState`` a retried request carries back (``None`` on a first round)."""
    value = (ctx.params or {}).get("requestState")
    return value if isinstance(value, str) else None


def input_response(ctx: ServerRequestContext[Any], key: str) -> dict[str, Any] | None:
    """The client's answer to the input request ``key`` of an earlier round, as the wire has it."""
    responses = (ctx.params or {}).get("inputResponses")
    answer = responses.get(key) if isinstance(responses, dict) else None
    return answer if isinstance(answer, dict) else None


def ask_form(key: str, message: str, schema: dict[str, Any], state: str) -> types.InputRequiredResult:
    """An ``input_required`` result asking the person one form question under ``key``."""
    request = types.ElicitRequest(params=types.ElicitRequestFormParams(message=message, requested_schema=schema))
    return types.InputRequiredResult(input_requests={key: request}, request_state=state)
