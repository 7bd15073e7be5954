"""The demo tools: honest descriptions, input schemas covering every JSON Schema type a form meets.

Each tool is a :class:`DemoTool`: its catalogue entry and an async handler that gets the
request context, the checked arguments and the server's :class:`DemoState`.
"""

from __future__ import annotations

import base64
import struct
import time
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError, NoBackChannelError

from .eras import ask_form, input_response, is_stateless, request_state
from .log_messages import send_log
from .state import DemoState
from .words import N_, DemoWords

#: A tool that asks for input answers ``input_required`` in the stateless era (see :mod:`.eras`).
ToolAnswer = types.CallToolResult | types.InputRequiredResult
Handler = Callable[[ServerRequestContext[Any], dict[str, Any], DemoState], Awaitable[ToolAnswer]]


@dataclass(frozen=True)
class DemoTool:
    """One tool: what ``tools/list`` shows and what ``tools/call`` runs."""

    name: str
    description: str
    input_schema: dict[str, Any]
    handler: Handler
    output_schema: dict[str, Any] | None = None

    def entry(self) -> types.Tool:
        return types.Tool(name=self.name, description=self.description, input_schema=self.input_schema,
                          output_schema=self.output_schema)

    def in_language(self, words: DemoWords) -> DemoTool:
        """This tool with its description, and its arguments' descriptions, titles and prose defaults,
        in the language of ``words`` (the names stay: they are the protocol's identifiers)."""
        return replace(self, description=words(self.description), input_schema=said_schema(self.input_schema, words))


#: Defaults that are prose (said in the server's language); other defaults are values and stay.
PROSE_DEFAULTS = frozenset({N_("it was asked to"), N_("What should the note say?")})


def said_schema(schema: Any, words: DemoWords) -> Any:
    """A copy of a JSON schema whose descriptions, titles and prose defaults are in ``words``' language."""
    if isinstance(schema, list):
        return [said_schema(item, words) for item in schema]
    if not isinstance(schema, dict):
        return schema
    said: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("description", "title") and isinstance(value, str):
            said[key] = words(value)
        elif key == "default" and isinstance(value, str) and value in PROSE_DEFAULTS:
            said[key] = words(value)
        elif key == "properties" and isinstance(value, dict):
            said[key] = {name: said_schema(spec, words) for name, spec in value.items()}
        else:
            said[key] = said_schema(value, words)
    return said


def text_result(text: str, *, is_error: bool = False, structured: dict[str, Any] | None = None,
                extra: list[Any] | None = None) -> types.CallToolResult:
    """A tool answer with one text block (and optionally more blocks and structured content)."""
    content: list[Any] = [types.TextContent(type="text", text=text), *(extra or [])]
    return types.CallToolResult(content=content, is_error=is_error, structured_content=structured)


def _schema(properties: dict[str, Any], required: list[str] | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties, "additionalProperties": False}
    if required:
        schema["required"] = required
    return schema


# -- the handlers ------------------------------------------------------------------------------

async def _echo(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    text = args["text"].upper() if args.get("uppercase", False) else args["text"]
    return text_result("\n".join([text] * args.get("repeat", 1)))


async def _add(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    total = args["a"] + args["b"]
    return text_result(f"{args['a']} + {args['b']} = {total}", structured={"sum": total})  # no words: numbers


async def _slow_task(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    _, ngettext = state.words, state.words.ngettext
    seconds, steps = float(args.get("seconds", 3)), int(args.get("steps", 5))
    started = time.monotonic()
    for step in range(1, steps + 1):
        await anyio.sleep(seconds / steps)
        # Sent on the call's own event stream; a client that asked for no progress gets none.
        await ctx.session.report_progress(step, steps, _("Step {step} of {steps} done.").format(step=step, steps=steps))
    seconds_taken = time.monotonic() - started
    return text_result(ngettext("Finished {steps} step in {seconds} seconds.",
                                "Finished {steps} steps in {seconds} seconds.", steps).format(
        steps=steps, seconds=state.words.decimal(seconds_taken)))


async def _tell(ctx: ServerRequestContext[Any], state: DemoState, level: str, text: str) -> None:
    """A line for the server's own log and, at the session's level, for the client (MCP log message)."""
    state.say(text)
    await send_log(ctx, state.log_levels, level, text)


#: How often ``hang`` says (at debug level) that it still waits.
HANG_HEARTBEAT_S = 1.0


async def _hang(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    _ = state.words
    await _tell(ctx, state, "info", _("hang: request {id} started; it answers only by being cancelled.").format(
        id=ctx.request_id))
    state.hang_started.set()  # after its first line: whoever waits for the start sees the line was sent
    try:
        waited = 0
        while True:
            await anyio.sleep(HANG_HEARTBEAT_S)
            waited += 1
            # Not for the server's own log: one line a second would drown it.
            await send_log(ctx, state.log_levels, "debug",
                           _("hang: request {id} still waits after {seconds} s.").format(
                               id=ctx.request_id, seconds=waited))
    except anyio.get_cancelled_exc_class():
        state.hang_cancelled.set()
        state.say(_("hang: request {id} saw the cancel and stopped.").format(id=ctx.request_id))
        raise
    raise AssertionError("unreachable")  # pragma: no cover


async def _fail(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    _ = state.words
    return text_result(_("This tool always fails: {reason}.").format(reason=args.get("reason", _("it was asked to"))),
                       is_error=True)


async def _flaky(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    _ = state.words
    every = int(args.get("every", 2))
    count = state.count_call("flaky")
    if count % every == 0:
        return text_result(_("Call {count} failed: this tool fails each call whose number is a multiple of "
                             "{every}.").format(count=count, every=every), is_error=True)
    return text_result(_("Call {count} worked.").format(count=count))


async def _write_note(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    # The wait comes first: a cancel during it means the note never lands, one after it cannot
    # undo the write. `list_notes` tells which.
    await anyio.sleep(float(args.get("delay_seconds", 0)))
    note = {"text": args["text"], "tags": list(args.get("tags", [])), "priority": args.get("priority", "normal"),
            "meta": dict(args.get("meta", {}))}
    count = state.add_note(note)
    _ = state.words
    await _tell(ctx, state, "info", _("write_note: note {count} written.").format(count=count))
    return text_result(_("Note {count} written.").format(count=count), structured={"note": count})


async def _list_notes(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> types.CallToolResult:
    _, notes = state.words, state.notes_snapshot()
    if not notes:
        return text_result(_("There are no notes."), structured={"notes": []})
    lines = [f"{index}. {note['text']} ({note['priority']})" for index, note in enumerate(notes, start=1)]
    return text_result("\n".join(lines), structured={"notes": notes})


def striped_png(width: int, height: int) -> bytes:
    """A small striped PNG, made here so the package ships no binary file."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"".join(bytes((40 * (x % 4), 120, 200 - 20 * (y % 8))) for x in range(width))
                    for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


IMAGE_SIZE = (16, 8)


async def _describe_image(ctx: ServerRequestContext[Any], args: dict[str, Any],
                          state: DemoState) -> types.CallToolResult:
    _ = state.words
    width, height = IMAGE_SIZE
    image = types.ImageContent(type="image", data=base64.b64encode(striped_png(width, height)).decode("ascii"),
                               mime_type="image/png")
    return text_result(_("A {width} by {height} pixel picture of coloured stripes.").format(width=width, height=height),
                       structured={"width": width, "height": height, "format": "png"}, extra=[image])


ANSWER_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string", "title": N_("Your answer")}},
                 "required": ["answer"]}


#: The key of the one question ``ask_user`` asks in the stateless era, and the state it carries.
ASK_KEY = "answer"
ASK_STATE = "ask_user:asked"


async def _ask_user(ctx: ServerRequestContext[Any], args: dict[str, Any], state: DemoState) -> ToolAnswer:
    _ = state.words
    question = args.get("question", _("What should the note say?"))
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.elicitation is None:
        return text_result(_("The question was declined: this client does not answer questions (elicitation)."),
                           structured={"action": "decline", "answer": None})
    if is_stateless(ctx):
        return _ask_in_rounds(ctx, question, _)
    try:
        answer = await ctx.session.elicit_form(question, said_schema(ANSWER_SCHEMA, _),
                                               related_request_id=ctx.request_id)
    except (NoBackChannelError, MCPError) as exc:
        return text_result(_("The question was declined: it could not be asked ({reason}).").format(reason=exc),
                           structured={"action": "decline", "answer": None})
    return _answered(answer.action, answer.content, _)


def _ask_in_rounds(ctx: ServerRequestContext[Any], question: str, _: DemoWords) -> ToolAnswer:
    """The stateless era: ask in an ``input_required`` result, read the answer on the retry."""
    if request_state(ctx) != ASK_STATE:
        return ask_form(ASK_KEY, question, said_schema(ANSWER_SCHEMA, _), ASK_STATE)
    answer = input_response(ctx, ASK_KEY)
    if answer is None:  # the client sent the round again without answering
        return text_result(_("The question was declined: the client sent no answer."),
                           structured={"action": "decline", "answer": None})
    action = answer.get("action")
    content = answer.get("content")
    return _answered(action if action in ("accept", "decline", "cancel") else "cancel",
                     content if isinstance(content, dict) else None, _)


def _answered(action: str, content: dict[str, Any] | None, _: DemoWords) -> types.CallToolResult:
    if action == "accept" and content is not None:
        reply = str(content.get("answer", ""))
        return text_result(_("The user answered: {answer}").format(answer=reply),
                           structured={"action": "accept", "answer": reply})
    said = _("The user declined the question.") if action == "decline" else _("The user cancelled the question.")
    return text_result(said, structured={"action": action, "answer": None})


# -- the catalogue entries ---------------------------------------------------------------------

DEMO_TOOLS: tuple[DemoTool, ...] = (
    DemoTool("echo", N_("Return the text unchanged, optionally repeated or in capitals."), _schema({
        "text": {"type": "string", "description": N_("The text to return.")},
        "repeat": {"type": "integer", "minimum": 1, "maximum": 10, "default": 1,
                   "description": N_("How many times to return it, one per line.")},
        "uppercase": {"type": "boolean", "default": False, "description": N_("Return it in capitals.")},
    }, ["text"]), _echo),
    DemoTool("add", N_("Add two numbers; the sum is also given as structured content."), _schema({
        "a": {"type": "number", "description": N_("The first number.")},
        "b": {"type": "number", "description": N_("The second number.")},
    }, ["a", "b"]), _add, output_schema={"type": "object", "properties": {"sum": {"type": "number"}},
                                          "required": ["sum"]}),
    DemoTool("slow_task", N_("Work for a while, reporting progress after each step, then answer."), _schema({
        "seconds": {"type": "number", "minimum": 0, "maximum": 600, "default": 3,
                    "description": N_("How long the whole task takes.")},
        "steps": {"type": "integer", "minimum": 1, "maximum": 100, "default": 5,
                  "description": N_("How many progress notifications to send.")},
    }), _slow_task),
    DemoTool("hang", N_("Never answer. Logs that it started (info) and, each second it waits, that it still "
                        "waits (debug). Only a cancel ends this call (the server's own log says when it sees one)."),
             _schema({}), _hang),
    DemoTool("fail", N_("Always report a tool error (isError)."), _schema({
        "reason": {"type": "string", "default": "it was asked to", "description": N_("Why it fails.")},
    }), _fail),
    DemoTool("flaky", N_("Fail every n-th call made to it on this server; the others work."), _schema({
        "every": {"type": "integer", "minimum": 1, "default": 2, "description": N_("Which calls fail: every n-th.")},
    }), _flaky),
    DemoTool("write_note", N_("Keep a note in the server's memory. Not idempotent: calling it twice writes twice."),
             _schema({
                 "text": {"type": "string", "description": N_("The note.")},
                 "tags": {"type": "array", "items": {"type": "string"}, "default": [],
                          "description": N_("Words to file it under.")},
                 "priority": {"type": "string", "enum": ["low", "normal", "high"], "default": "normal",
                              "description": N_("How urgent it is.")},
                 "meta": {"type": "object", "properties": {"author": {"type": "string"}},
                          "additionalProperties": False, "default": {}, "description": N_("Who wrote it.")},
                 "delay_seconds": {"type": "number", "minimum": 0, "maximum": 600, "default": 0,
                                   "description": N_("Wait this long before writing (a cancel meanwhile stops it).")},
             }, ["text"]), _write_note),
    DemoTool("list_notes", N_("List the notes written so far, oldest first."), _schema({}), _list_notes),
    DemoTool("describe_image", N_("Answer with a sentence, a small picture and its size as structured content."),
             _schema({}), _describe_image),
    DemoTool("ask_user", N_("Ask the person using the client a question (elicitation) and report the answer."),
             _schema({"question": {"type": "string", "default": "What should the note say?",
                                   "description": N_("The question to ask.")}}), _ask_user),
)
