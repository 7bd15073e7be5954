"""The tool catalogues a client has listed: walked page by page as legs of an operation, kept by
server, and read for the ``Mcp-Param-*`` headers a ``tools/call`` carries in the stateless era.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import HEADER_MISMATCH, ErrorKind, McpTransportError
from .messages import N_, Message
from .page_cursors import CursorTrail
from .param_headers import param_headers, split_catalogue, tool_header_problem
from .results import ToolCatalogue, catalogue_freshness
from .server import ServerEndpoint

if TYPE_CHECKING:
    from .operation import _Operation

MAX_PAGES = 50


class ToolCatalogues:
    """The tools each server last listed, by name (a catalogue listed anew replaces the last)."""

    def __init__(self) -> None:
        self._definitions: dict[str, dict[str, dict[str, Any]]] = {}

    def keep(self, server: ServerEndpoint, tools: list[dict[str, Any]]) -> None:
        self._definitions[server.key] = {str(tool.get("name")): tool for tool in tools}

    def names(self, server: ServerEndpoint) -> tuple[str, ...] | None:
        known = self._definitions.get(server.key)
        return None if known is None else tuple(known)

    def definition(self, server: ServerEndpoint, name: str) -> dict[str, Any] | None:
        return self._definitions.get(server.key, {}).get(name)

    async def walk(self, op: _Operation, server: ServerEndpoint, *, is_work: bool) -> ToolCatalogue:
        """Every page of ``tools/list`` as legs of ``op``. In the stateless era over HTTP, tools
        whose ``x-mcp-header`` annotations break the rules are set apart (with the reason); the
        catalogue is kept for the headers of later calls."""
        tools: list[dict[str, Any]] = []
        cursor: str | None = None
        first: dict[str, Any] = {}
        trail = CursorTrail(server.label, "tools/list")
        for page in range(1, MAX_PAGES + 1):
            params: dict[str, Any] = {} if cursor is None else {"cursor": cursor}
            result = await op.request("tools/list", params, is_work=is_work)
            first = first or result
            listed = result.get("tools")
            if not isinstance(listed, list):
                raise McpTransportError.malformed(server.label, "tools/list",
                                                  Message(N_("its result has no list of tools")))
            tools.extend(tool for tool in listed if isinstance(tool, dict))
            next_cursor = result.get("nextCursor")
            if not isinstance(next_cursor, str) or not next_cursor:
                stateless = op.session.stateless
                ttl_ms, scope = catalogue_freshness(first, stateless=stateless)
                valid, excluded = split_catalogue(tools) if stateless and not server.is_command else (tools, [])
                self.keep(server, tools)
                return ToolCatalogue(valid, page, excluded, ttl_ms=ttl_ms, cache_scope=scope)
            cursor = trail.follow(next_cursor, page)
        raise McpTransportError.malformed(server.label, "tools/list",
                                          Message(N_("the catalogue did not end within {count} pages"),
                                                  {"count": MAX_PAGES}))

    async def call(self, op: _Operation, server: ServerEndpoint, name: str, params: dict[str, Any],
                   definition: dict[str, Any] | None) -> dict[str, Any]:
        """``tools/call``; over HTTP in the stateless era with the ``Mcp-Param-*`` headers its
        definition asks for, and once more with the catalogue listed anew if the server says the
        headers do not match (-32020)."""
        if not op.session.stateless or server.is_command:
            return await op.request("tools/call", params, is_work=True)
        for attempt in range(2):
            if definition is None or attempt:
                known = self._definitions.get(server.key)
                if known is None or name not in known or attempt:
                    await self.walk(op, server, is_work=False)
                    known = self._definitions.get(server.key, {})
                definition = known.get(name)
            headers: dict[str, str] = {}
            if definition is not None:
                problem = tool_header_problem(definition)
                if problem is not None:
                    raise McpTransportError.excluded_tool(server.label, name, problem)
                headers = param_headers(definition, params.get("arguments"))
            try:
                return await op.request("tools/call", params, is_work=True, headers=headers)
            except McpTransportError as refused:
                if attempt or refused.kind is not ErrorKind.RPC_ERROR or refused.rpc_code != HEADER_MISMATCH:
                    raise
        raise AssertionError("unreachable")
