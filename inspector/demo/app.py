"""The demo server on the official MCP SDK's low-level server, and its Streamable HTTP app."""

from __future__ import annotations

from typing import Any

import jsonschema
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from .catalogue import catalogue_tools, page_of
from .handshake import HandshakeDelay
from .offerings import offering_handlers
from .options import DemoOptions
from .skills import with_skills
from .state import DemoState
from .stream_close import CancelOnClose
from .subscriptions import ResourceTicker
from .tools import DEMO_TOOLS, DemoTool, ToolAnswer, text_result
from .words import DemoWords

SERVER_NAME = "run-inspector-demo"
SERVER_VERSION = "0.1.0"
MCP_PATH = "/mcp"


def build_server(options: DemoOptions, state: DemoState) -> Server[Any]:
    """The SDK server with the demo tools (and the paged catalogue when the options ask for it), speaking
    the options' language."""
    _ = state.words = DemoWords(options.language)
    tools: tuple[DemoTool, ...] = DEMO_TOOLS
    if options.pages_catalogue:
        tools += catalogue_tools(options.catalogue_size)
    tools = tuple(tool.in_language(_) for tool in tools)
    by_name = {tool.name: tool for tool in tools}
    entries = [tool.entry() for tool in tools]
    ticker = ResourceTicker(options.update_interval_s, _)
    state.ticker = ticker

    async def list_tools(ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        try:
            return page_of(entries, params.cursor if params else None, options.page_size)
        except ValueError as exc:
            raise MCPError(code=types.INVALID_PARAMS, message=f"tools/list: {exc}") from None

    async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> ToolAnswer:
        tool = by_name.get(params.name)
        if tool is None:
            return text_result(_("There is no tool named {name} on this server.").format(name=repr(params.name)),
                               is_error=True)
        arguments = dict(params.arguments or {})
        problem = _argument_problem(tool, arguments, _)
        if problem is not None:
            return text_result(problem, is_error=True)
        return await tool.handler(ctx, _with_defaults(tool, arguments), state)

    # logging/setLevel is honoured per session (see log_messages: the SDK's deprecation warning
    # about revision 2026-07-28 is quietened there). with_skills: the skills extension (demo/skills.py).
    return with_skills(Server(SERVER_NAME, version=SERVER_VERSION,
                  instructions=_("A demo server for Run Inspector: tools that succeed, fail, hang and page; "
                                 "resources, prompts and completion besides."),
                  on_list_tools=list_tools, on_call_tool=call_tool, **offering_handlers(state, ticker.text, _),
                  on_set_logging_level=state.log_levels.handle_set_level,
                  # Subscriptions to demo://clock in both eras; the stateless era's listening stream
                  # (a window listens there as on the handshake era's GET stream).
                  **ticker.handlers()), _)


def _argument_problem(tool: DemoTool, arguments: dict[str, Any], _: DemoWords) -> str | None:
    """One sentence saying what is wrong with the arguments, or ``None`` when they fit the schema (the
    validator's own words, after the colon, are its: English)."""
    try:
        jsonschema.validate(arguments, tool.input_schema)
    except jsonschema.ValidationError as exc:
        place = "/".join(str(part) for part in exc.absolute_path) or _("the arguments")
        return _("The arguments of {tool} do not fit its input schema at {place}: {problem}.").format(
            tool=tool.name, place=place, problem=exc.message)
    return None


def _with_defaults(tool: DemoTool, arguments: dict[str, Any]) -> dict[str, Any]:
    filled = {name: spec["default"] for name, spec in tool.input_schema.get("properties", {}).items()
              if "default" in spec}
    filled.update(arguments)
    return filled


def build_app(options: DemoOptions, state: DemoState) -> Any:
    """The ASGI app serving the demo server at ``/mcp`` in the transport modes the options choose."""
    server = build_server(options, state)
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, json_response=options.json_response,
                                     stateless_http=options.stateless, host="127.0.0.1")
    if isinstance(state.ticker, ResourceTicker):
        # A session that ended (DELETE) hears no more ticks: the session manager knows which stand.
        standing = getattr(server.session_manager, "_server_instances", None)
        if isinstance(standing, dict):
            state.ticker.alive = lambda key: not key.startswith("mcp-") or key[4:] in standing
    if options.json_response:  # an event stream's close the SDK notices itself
        app = CancelOnClose(app)
    return HandshakeDelay(app, options.handshake_delay_s) if options.handshake_delay_s > 0 else app
