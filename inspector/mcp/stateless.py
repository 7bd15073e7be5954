"""What every request of the stateless era carries: ``_meta`` and the standard headers.

In the stateless era (2026-07-28) there is no handshake: each request names its protocol version,
the client's capabilities and the client in ``params._meta``, and over HTTP repeats the version,
the method and the target's name in headers, so that gateways can route without reading bodies.
"""

from __future__ import annotations

import base64
import os
import re
from typing import Any

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
#: The methods whose target is named in the ``Mcp-Name`` header, and the parameter that names it.
NAMED_TARGETS = {"tools/call": "name", "resources/read": "uri", "prompts/get": "name",
                 "tasks/get": "taskId", "tasks/update": "taskId", "tasks/cancel": "taskId"}
#: The header-safe form of a value that is not: ``=?base64?<base64 of its UTF-8>?=``.
_SENTINEL = re.compile(r"^=\?base64\?.*\?=$")
_SAFE = re.compile(r"^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$")


def new_traceparent() -> str:
    """A W3C ``traceparent`` for one operation: a fresh trace id and span id, sampled."""
    return f"00-{os.urandom(16).hex()}-{os.urandom(8).hex()}-01"


def request_meta(version: str, capabilities: dict[str, Any], client_info: dict[str, Any], *,
                 log_level: str | None = None, traceparent: str | None = None,
                 progress_token: str | int | None = None) -> dict[str, Any]:
    """The ``_meta`` of one stateless request (a fresh dict: callers add their own keys)."""
    meta: dict[str, Any] = {PROTOCOL_VERSION_KEY: version, CLIENT_CAPABILITIES_KEY: capabilities,
                            CLIENT_INFO_KEY: client_info}
    if log_level is not None:
        meta[LOG_LEVEL_KEY] = log_level
    if traceparent is not None:
        meta["traceparent"] = traceparent
    if progress_token is not None:
        meta["progressToken"] = progress_token
    return meta


def header_safe(value: str) -> str:
    """``value`` as an HTTP header value: as it is when it is visible ASCII without spaces at its
    edges (and does not look like the encoded form), else the base64 form of its UTF-8."""
    if value and _SAFE.match(value) and not _SENTINEL.match(value):
        return value
    return "=?base64?" + base64.b64encode(value.encode("utf-8", "surrogatepass")).decode("ascii") + "?="


def standard_headers(version: str, method: str, params: dict[str, Any] | None) -> dict[str, str]:
    """``MCP-Protocol-Version``, ``Mcp-Method`` and, for a named target, ``Mcp-Name``."""
    headers = {"MCP-Protocol-Version": version, "Mcp-Method": method}
    key = NAMED_TARGETS.get(method)
    target = (params or {}).get(key) if key else None
    if isinstance(target, str):
        headers["Mcp-Name"] = header_safe(target)
    return headers
