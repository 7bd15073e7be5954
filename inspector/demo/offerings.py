"""What the demo server offers besides tools: resources, a resource template, prompts, completion.

* ``demo://readme`` (text), ``demo://stripes.png`` (a picture: binary content), ``demo://clock``
  (text that changes with every tick; subscribe to it: :mod:`.subscriptions`);
* ``demo://notes/{index}``: the notes ``write_note`` kept, one per index (completion offers the
  indices there are);
* prompts ``summarize`` (``text``, and ``style``: completion offers its styles) and ``greet``.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from .skills import skill_file
from .state import DemoState
from .subscriptions import CLOCK_RESOURCE, CLOCK_URI
from .tools import IMAGE_SIZE, striped_png

README = ("Run Inspector's demo server.\n\nIts tools succeed, fail, hang and page; its resources are this text, "
          "a small picture and the notes write_note keeps (demo://notes/1, …); its prompts are summarize and "
          "greet.")
NOTES_TEMPLATE = "demo://notes/{index}"
STYLES = ("short", "detailed", "bullet points", "for a child")

_RESOURCES = [
    types.Resource(name="readme", title="About this server", uri="demo://readme", mime_type="text/markdown",
                   description="What the demo server offers.", size=len(README.encode())),
    types.Resource(name="stripes", title="A striped picture", uri="demo://stripes.png", mime_type="image/png",
                   description="A 16 by 8 pixel picture (binary content)."),
    CLOCK_RESOURCE,
]
_TEMPLATES = [types.ResourceTemplate(name="note", title="A note", uri_template=NOTES_TEMPLATE, mime_type="text/plain",
                                     description="A note write_note kept, by its number (from 1).")]
_PROMPTS = [
    types.Prompt(name="summarize", title="Summarize a text", description="Ask for a summary of a text, in a style.",
                 arguments=[types.PromptArgument(name="text", description="The text to summarize.", required=True),
                            types.PromptArgument(name="style", description="How: short, detailed, …")]),
    types.Prompt(name="greet", title="Greet someone", description="A greeting for a name.",
                 arguments=[types.PromptArgument(name="name", description="Whom to greet.", required=True)]),
]


def _not_found(what: str) -> MCPError:
    return MCPError(code=types.INVALID_PARAMS, message=what)


def offering_handlers(state: DemoState, clock_text: Callable[[], str] = lambda: "") -> dict[str, Any]:
    """The low-level server's handlers for resources, prompts and completion (``clock_text``: what
    ``demo://clock`` says now)."""

    async def list_resources(ctx: ServerRequestContext[Any],
                             params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=_RESOURCES)

    async def list_templates(ctx: ServerRequestContext[Any],
                             params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=_TEMPLATES)

    async def read_resource(ctx: ServerRequestContext[Any],
                            params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == "demo://readme":
            contents: list[Any] = [types.TextResourceContents(uri=uri, mime_type="text/markdown", text=README)]
        elif uri == "demo://stripes.png":
            data = base64.b64encode(striped_png(*IMAGE_SIZE)).decode("ascii")
            contents = [types.BlobResourceContents(uri=uri, mime_type="image/png", blob=data)]
        elif uri == CLOCK_URI:
            contents = [types.TextResourceContents(uri=uri, mime_type="text/plain", text=clock_text())]
        elif uri.startswith("demo://notes/"):
            notes = state.notes_snapshot()
            index = uri.removeprefix("demo://notes/")
            if not index.isdigit() or not 1 <= int(index) <= len(notes):
                raise _not_found(f"There is no note {index!r} (there are {len(notes)}).")
            contents = [types.TextResourceContents(uri=uri, mime_type="text/plain", text=notes[int(index) - 1]["text"])]
        elif skill_file(uri) is not None:  # a file of one of the demo's skills (inspector/demo/skills.py)
            contents = [types.TextResourceContents(uri=uri, mime_type="text/markdown", text=skill_file(uri))]
        else:
            raise _not_found(f"There is no resource {uri!r} on this server.")
        return types.ReadResourceResult(contents=contents)

    async def list_prompts(ctx: ServerRequestContext[Any],
                           params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=_PROMPTS)

    async def get_prompt(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> types.GetPromptResult:
        arguments = dict(params.arguments or {})
        if params.name == "summarize":
            if not arguments.get("text"):
                raise _not_found("summarize needs the argument text.")
            style = arguments.get("style") or "short"
            text = f"Summarize the following text ({style}):\n\n{arguments['text']}"
        elif params.name == "greet":
            if not arguments.get("name"):
                raise _not_found("greet needs the argument name.")
            text = f"Write a friendly greeting for {arguments['name']}."
        else:
            raise _not_found(f"There is no prompt {params.name!r} on this server.")
        return types.GetPromptResult(description=f"The {params.name} prompt, filled in.",
                                     messages=[types.PromptMessage(role="user",
                                                                   content=types.TextContent(type="text", text=text))])

    async def complete(ctx: ServerRequestContext[Any], params: types.CompleteRequestParams) -> types.CompleteResult:
        typed, ref = params.argument.value, params.ref
        if isinstance(ref, types.PromptReference) and ref.name == "summarize" and params.argument.name == "style":
            values = [style for style in STYLES if style.startswith(typed)]
        elif isinstance(ref, types.ResourceTemplateReference) and ref.uri == NOTES_TEMPLATE \
                and params.argument.name == "index":
            values = [str(index) for index in range(1, len(state.notes_snapshot()) + 1) if str(index).startswith(typed)]
        else:
            values = []
        return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))

    return {"on_list_resources": list_resources, "on_list_resource_templates": list_templates,
            "on_read_resource": read_resource, "on_list_prompts": list_prompts, "on_get_prompt": get_prompt,
            "on_completion": complete}
