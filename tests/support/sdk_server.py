"""The official MCP SDK server with a few tools, used as the real far side in tests."""

from __future__ import annotations

import asyncio
import itertools
import threading
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import EmbeddedResource, ImageContent, ResourceLink, TextContent, TextResourceContents
from pydantic import BaseModel


class NameForm(BaseModel):
    """What ``ask_name`` asks the client for."""

    name: str


#: What ``ask_profile`` asks for: every field has a default (as the conformance scenario does).
PROFILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Your name", "default": "Ada"},
        "age": {"type": "integer", "default": 36},
        "score": {"type": "number", "default": 9.5},
        "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
        "verified": {"type": "boolean", "default": True},
    },
    "required": [],
}

#: What ``ask_everything`` asks for: the shapes @modelcontextprotocol/server-everything's
#: ``trigger-elicitation-request`` sends (src/everything/tools/trigger-elicitation-request.ts),
#: one property per shape the protocol defines for a question.
EVERYTHING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"title": "String", "type": "string", "description": "Your full, legal name"},
        "check": {"title": "Boolean", "type": "boolean", "description": "Agree to the terms and conditions"},
        "firstLine": {"title": "String with default", "type": "string", "description": "Favorite first line of a story",
                      "default": "It was a dark and stormy night."},
        "email": {"title": "String with email format", "type": "string", "format": "email",
                  "description": "Your email address (will be verified, and never shared with anyone else)"},
        "homepage": {"type": "string", "format": "uri", "title": "String with uri format",
                     "description": "Portfolio / personal website"},
        "birthdate": {"title": "String with date format", "type": "string", "format": "date",
                      "description": "Your date of birth"},
        "integer": {"title": "Integer", "type": "integer", "description": "Your favorite integer",
                    "minimum": 1, "maximum": 100, "default": 42},
        "number": {"title": "Number in range 1-1000", "type": "number", "description": "Favorite number",
                   "minimum": 0, "maximum": 1000, "default": 3.14},
        "untitledSingleSelectEnum": {"type": "string", "title": "Untitled Single Select Enum",
                                     "description": "Choose your favorite friend",
                                     "enum": ["Monica", "Rachel", "Joey", "Chandler", "Ross", "Phoebe"],
                                     "default": "Monica"},
        "untitledMultipleSelectEnum": {"type": "array", "title": "Untitled Multiple Select Enum",
                                       "description": "Choose your favorite instruments", "minItems": 1,
                                       "maxItems": 3,
                                       "items": {"type": "string",
                                                 "enum": ["Guitar", "Piano", "Violin", "Drums", "Bass"]},
                                       "default": ["Guitar"]},
        "titledSingleSelectEnum": {"type": "string", "title": "Titled Single Select Enum",
                                   "description": "Choose your favorite hero",
                                   "oneOf": [{"const": "hero-1", "title": "Superman"},
                                             {"const": "hero-2", "title": "Green Lantern"},
                                             {"const": "hero-3", "title": "Wonder Woman"}],
                                   "default": "hero-1"},
        "titledMultipleSelectEnum": {"type": "array", "title": "Titled Multiple Select Enum",
                                     "description": "Choose your favorite types of fish", "minItems": 1,
                                     "maxItems": 3,
                                     "items": {"anyOf": [{"const": "fish-1", "title": "Tuna"},
                                                         {"const": "fish-2", "title": "Salmon"},
                                                         {"const": "fish-3", "title": "Trout"}]},
                                     "default": ["fish-1"]},
        "legacyTitledEnum": {"type": "string", "title": "Legacy Titled Single Select Enum",
                             "description": "Choose your favorite type of pet",
                             "enum": ["pet-1", "pet-2", "pet-3", "pet-4", "pet-5"],
                             "enumNames": ["Cats", "Dogs", "Birds", "Fish", "Reptiles"], "default": "pet-1"},
    },
    "required": ["name"],
}

#: The image ``files`` returns: 4 bytes (a real client never sees them, only their size).
IMAGE_BASE64 = "iVBORw=="


class ToolEvents:
    """What the server's tools saw: lets tests check that a cancel reached the handler."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.cancelled = threading.Event()
        self.finished = threading.Event()


class Listeners:
    """The sessions that completed the handshake, and the log level each asked for.

    Lets a tool reach clients outside its own request: a long-lived listening session hears
    what is sent on its standalone stream. The server honours ``logging/setLevel``: a session
    gets only messages of its level and above (``debug`` until it asks).
    """

    def __init__(self) -> None:
        self.sessions: list[Any] = []
        self.levels: dict[int, str] = {}
        self.asked_levels: list[str] = []

    def level_of(self, session: Any) -> str:
        return self.levels.get(id(session._connection), "debug")


LEVELS = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")


def build_sdk_server(events: ToolEvents | None = None, tool_count: int = 3,
                     listeners: Listeners | None = None) -> MCPServer:
    events = events or ToolEvents()
    listeners = listeners if listeners is not None else Listeners()
    server = MCPServer("run-inspector-test")
    _listening_support(server, listeners)
    asked: set[asyncio.Task[Any]] = set()  # questions asked by tools that did not wait for them

    @server.tool()
    async def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    async def add(a: int, b: int) -> dict[str, Any]:
        """Add two numbers (structured result)."""
        return {"sum": a + b}

    @server.tool()
    async def explode(reason: str = "boom") -> str:
        """Always raises."""
        raise RuntimeError(f"the tool exploded: {reason}")

    @server.tool()
    async def slow(seconds: float, ctx: Context) -> str:
        """Sleep, reporting progress every 0.1 s; records whether it was cancelled."""
        events.started.set()
        try:
            steps = max(1, int(seconds / 0.1))
            for step in range(steps):
                await ctx.report_progress(step, steps, "working")
                await asyncio.sleep(seconds / steps)
        except asyncio.CancelledError:
            events.cancelled.set()
            raise
        events.finished.set()
        return "done"

    @server.tool()
    async def ask_name(ctx: Context) -> str:
        """Ask the client for a name (elicitation); say how that went."""
        try:
            result = await ctx.elicit("What is your name?", NameForm)
        except Exception as exc:  # noqa: BLE001 - the test reads what the tool saw
            return f"elicitation failed: {exc}"
        return f"elicitation answered: {result.action}"

    @server.tool()
    async def ask_profile(ctx: Context) -> str:
        """Ask for a profile whose every field has a default; report the answer as JSON."""
        import json

        answer = await ctx.session.elicit_form("Tell us about you.", PROFILE_SCHEMA,
                                               related_request_id=ctx.request_context.request_id)
        return json.dumps({"action": answer.action, "content": answer.content})

    @server.tool()
    async def ask_everything(ctx: Context) -> str:
        """Ask server-everything's question (every shape of field); report the answer as JSON."""
        import json

        answer = await ctx.session.elicit_form("Please provide inputs for the following fields:", EVERYTHING_SCHEMA,
                                               related_request_id=ctx.request_context.request_id)
        return json.dumps({"action": answer.action, "content": answer.content})

    @server.tool()
    async def summarise(text: str, ctx: Context) -> str:
        """Ask the client's model (sampling) to summarise the text."""
        from mcp.types import SamplingMessage

        try:
            result = await ctx.session.create_message(
                [SamplingMessage(role="user", content=TextContent(type="text", text=text))], max_tokens=50,
                system_prompt="Summarise in five words.", related_request_id=ctx.request_context.request_id)
        except Exception as exc:  # noqa: BLE001 - the test reads what the tool saw
            return f"sampling failed: {exc}"
        return f"sampled by {result.model}: {result.content.text}"

    @server.tool()
    async def summarise_often(text: str, times: int, ctx: Context, max_tokens: int = 50) -> str:
        """Ask the client's model (sampling) ``times`` times in a row; one line per request, how it went."""
        from mcp.types import SamplingMessage

        lines = []
        for number in range(1, times + 1):
            try:
                result = await ctx.session.create_message(
                    [SamplingMessage(role="user", content=TextContent(type="text", text=text))],
                    max_tokens=max_tokens, related_request_id=ctx.request_context.request_id)
            except Exception as exc:  # noqa: BLE001 - the test reads what the tool saw
                lines.append(f"{number}: refused: {exc}")
            else:
                lines.append(f"{number}: answered: {result.content.text}")
        return "\n".join(lines)

    @server.tool()
    async def show_roots(ctx: Context) -> str:
        """Ask the client for its roots (on the tool's own stream) and list their URIs."""
        from mcp.shared.message import ServerMessageMetadata
        from mcp.types import ListRootsRequest, ListRootsResult

        try:
            result = await ctx.session.send_request(
                ListRootsRequest(), ListRootsResult,
                metadata=ServerMessageMetadata(related_request_id=ctx.request_context.request_id))
        except Exception as exc:  # noqa: BLE001 - the test reads what the tool saw
            return f"roots failed: {exc}"
        return "roots: " + ", ".join(str(root.uri) for root in result.roots)

    @server.tool()
    async def log_each_level(ctx: Context) -> str:
        """Send one log message at each level from the session's level up, on the tool's own stream."""
        floor = LEVELS.index(listeners.level_of(ctx.request_context.session))
        for level in LEVELS[floor:]:
            await ctx.log(level, f"a {level} message", logger_name="levels")
        return "logged"

    @server.tool()
    async def change_tools(ctx: Context) -> str:
        """Tell the client the tool list changed (on the standalone stream), then answer."""
        await asyncio.sleep(0.3)  # see ask_on_the_side
        await ctx.session.send_tool_list_changed()
        await asyncio.sleep(0.3)
        return "changed"

    @server.tool()
    async def ask_on_the_side(ctx: Context) -> str:
        """Ask a question not tied to this request: it travels on the standalone stream."""
        # The SDK registers the standalone stream in a task of its own after sending its headers:
        # a moment's wait keeps the question from racing the registration.
        await asyncio.sleep(0.3)
        answer = await ctx.session.elicit_form("Which colour?", PROFILE_SCHEMA)
        return f"asked on the side: {answer.action}"

    @server.tool()
    async def keep_asking(times: int, ctx: Context, message: str = "Are you sure?") -> str:
        """Ask the same question ``times`` times, whatever the answers; list the answers."""
        actions = []
        for _ in range(times):
            answer = await ctx.session.elicit_form(message, {"type": "object", "properties": {
                "sure": {"type": "boolean", "default": True}}}, related_request_id=ctx.request_context.request_id)
            actions.append(answer.action)
        return "answers: " + ", ".join(actions)

    @server.tool()
    async def ask_and_leave(ctx: Context) -> str:
        """Ask a question on the standalone stream and end at once, without waiting for the answer."""
        await asyncio.sleep(0.3)  # see ask_on_the_side
        asking = asyncio.get_running_loop().create_task(ctx.session.elicit_form("Still there?", PROFILE_SCHEMA))
        asked.add(asking)
        asking.add_done_callback(asked.discard)
        await asyncio.sleep(0.2)  # the question is on its way before the answer ends the call
        return "left"

    @server.tool()
    async def keep_sampling(times: int, ctx: Context) -> str:
        """Ask the client's model ``times`` times, whatever the answers; list what came back."""
        from mcp.types import SamplingMessage

        seen = []
        for _ in range(times):
            try:
                result = await ctx.session.create_message(
                    [SamplingMessage(role="user", content=TextContent(type="text", text="Once more?"))],
                    max_tokens=5, related_request_id=ctx.request_context.request_id)
                seen.append(result.content.text)
            except Exception:  # noqa: BLE001 - the test reads what the tool saw
                seen.append("refused")
        return "sampled: " + ", ".join(seen)

    @server.tool(structured_output=False)
    async def files() -> list[Any]:
        """Return one block of each kind that is not plain text."""
        return [
            TextContent(type="text", text="here are the files"),
            ResourceLink(type="resource_link", uri="file:///srv/report.csv", name="report.csv",
                         mimeType="text/csv", size=2048),
            EmbeddedResource(type="resource", resource=TextResourceContents(
                uri="memo://notes/1", mimeType="text/plain", text="first note\nsecond note")),
            ImageContent(type="image", data=IMAGE_BASE64, mimeType="image/png"),
        ]

    links = itertools.count()

    @server.tool(structured_output=False)
    async def link() -> list[Any]:
        """The same text each time, and a resource link: to demo://a at the first call of this server,
        demo://b at the second, and so on."""
        uri = "demo://" + "ab"[next(links) % 2]
        return [TextContent(type="text", text="here is the link"),
                ResourceLink(type="resource_link", uri=uri, name="the linked thing")]

    return server


def _listening_support(server: MCPServer, listeners: Listeners) -> None:
    """``logging/setLevel`` honoured per session, sessions remembered, and tools that reach every
    session on its standalone stream: ``log_to_listeners``, ``add_tool_for_listeners``,
    ``roots_of_listeners``."""
    import warnings

    import anyio
    from mcp import types

    lowlevel = server._lowlevel_server

    async def initialized(ctx: Any, params: Any) -> None:
        listeners.sessions.append(ctx.session)

    async def set_level(ctx: Any, params: types.SetLevelRequestParams) -> types.EmptyResult:
        listeners.levels[id(ctx.session._connection)] = params.level
        listeners.asked_levels.append(params.level)
        return types.EmptyResult()

    lowlevel.add_notification_handler("notifications/initialized", types.NotificationParams, initialized)
    lowlevel.add_request_handler("logging/setLevel", types.SetLevelRequestParams, set_level)

    def others(ctx: Context) -> list[Any]:
        own = ctx.request_context.session._connection
        return [session for session in listeners.sessions if session._connection is not own]

    @server.tool()
    async def log_to_listeners(ctx: Context) -> str:
        """Send one log message at each level to every other session, on its standalone stream,
        honouring the level each session asked for."""
        sent = 0
        for session in others(ctx):
            floor = LEVELS.index(listeners.level_of(session))
            for level in LEVELS[floor:]:
                with anyio.move_on_after(1), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        await session.send_log_message(level, {"level": level, "note": f"a {level} message"}
                                                       if level == "error" else f"a {level} message",
                                                       logger="listeners")
                        sent += 1
                    except Exception:  # noqa: BLE001 - a session that has ended
                        break
        return f"sent {sent}"

    @server.tool()
    async def add_tool_for_listeners(name: str, ctx: Context) -> str:
        """Add a tool named ``name`` and tell every session that the tool list changed."""
        async def added() -> str:
            return "added"

        server.add_tool(added, name=name, description="A tool added while the client listened.")
        for session in others(ctx):
            with anyio.move_on_after(1):
                try:
                    await session.send_tool_list_changed()
                except Exception:  # noqa: BLE001 - a session that has ended
                    pass
        return "added"

    @server.tool()
    async def roots_of_listeners(ctx: Context) -> str:
        """Ask every other session for its roots (on its standalone stream) and list what each said."""
        said = []
        for session in others(ctx):
            with anyio.move_on_after(1), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    result = await session.list_roots()
                    said.append(" ".join(str(root.uri) for root in result.roots) or "(none)")
                except Exception as exc:  # noqa: BLE001 - a session that has ended, or declined
                    said.append(f"error: {getattr(exc, 'error', exc)}")
        return "; ".join(said)
