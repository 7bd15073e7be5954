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

from .skills import skill_files
from .state import DemoState
from .subscriptions import CLOCK_URI, clock_resource
from .tools import IMAGE_SIZE, striped_png
from .words import ENGLISH, DemoWords

NOTES_TEMPLATE = "demo://notes/{index}"


def readme(_: DemoWords) -> str:
    """The text of ``demo://readme``."""
    return _("Run Inspector's demo server.\n\nIts tools succeed, fail, hang and page; its resources are this "
             "text, a small picture and the notes write_note keeps (demo://notes/1, …); its prompts are summarize "
             "and greet.")


def styles(_: DemoWords) -> tuple[str, ...]:
    """The styles completion offers for ``summarize`` (words, so in the server's language)."""
    return (_("short"), _("detailed"), _("bullet points"), _("for a child"))


def _resources(_: DemoWords) -> list[types.Resource]:
    return [
        types.Resource(name="readme", title=_("About this server"), uri="demo://readme", mime_type="text/markdown",
                       description=_("What the demo server offers."), size=len(readme(_).encode())),
        types.Resource(name="stripes", title=_("A striped picture"), uri="demo://stripes.png", mime_type="image/png",
                       description=_("A 16 by 8 pixel picture (binary content).")),
        clock_resource(_),
    ]


def _templates(_: DemoWords) -> list[types.ResourceTemplate]:
    return [types.ResourceTemplate(name="note", title=_("A note"), uri_template=NOTES_TEMPLATE,
                                   mime_type="text/plain",
                                   description=_("A note write_note kept, by its number (from 1)."))]


def _prompts(_: DemoWords) -> list[types.Prompt]:
    return [
        types.Prompt(name="summarize", title=_("Summarize a text"),
                     description=_("Ask for a summary of a text, in a style."),
                     arguments=[types.PromptArgument(name="text", description=_("The text to summarize."),
                                                     required=True),
                                types.PromptArgument(name="style", description=_("How: short, detailed, …"))]),
        types.Prompt(name="greet", title=_("Greet someone"), description=_("A greeting for a name."),
                     arguments=[types.PromptArgument(name="name", description=_("Whom to greet."), required=True)]),
    ]


def _not_found(what: str) -> MCPError:
    return MCPError(code=types.INVALID_PARAMS, message=what)


def offering_handlers(state: DemoState, clock_text: Callable[[], str] = lambda: "",
                      _: DemoWords = ENGLISH) -> dict[str, Any]:
    """The low-level server's handlers for resources, prompts and completion (``clock_text``: what
    ``demo://clock`` says now), speaking the language of ``_``."""
    resources, templates, prompts, readme_text, style_words = _resources(_), _templates(_), _prompts(_), readme(_), \
        styles(_)
    skill_texts = skill_files(_)

    async def list_resources(ctx: ServerRequestContext[Any],
                             params: types.PaginatedRequestParams | None) -> types.ListResourcesResult:
        return types.ListResourcesResult(resources=resources)

    async def list_templates(ctx: ServerRequestContext[Any],
                             params: types.PaginatedRequestParams | None) -> types.ListResourceTemplatesResult:
        return types.ListResourceTemplatesResult(resource_templates=templates)

    async def read_resource(ctx: ServerRequestContext[Any],
                            params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
        uri = str(params.uri)
        if uri == "demo://readme":
            contents: list[Any] = [types.TextResourceContents(uri=uri, mime_type="text/markdown", text=readme_text)]
        elif uri == "demo://stripes.png":
            data = base64.b64encode(striped_png(*IMAGE_SIZE)).decode("ascii")
            contents = [types.BlobResourceContents(uri=uri, mime_type="image/png", blob=data)]
        elif uri == CLOCK_URI:
            contents = [types.TextResourceContents(uri=uri, mime_type="text/plain", text=clock_text())]
        elif uri.startswith("demo://notes/"):
            notes = state.notes_snapshot()
            index = uri.removeprefix("demo://notes/")
            if not index.isdigit() or not 1 <= int(index) <= len(notes):
                raise _not_found(_("There is no note {index} (there are {count}).").format(index=repr(index),
                                                                                          count=len(notes)))
            contents = [types.TextResourceContents(uri=uri, mime_type="text/plain", text=notes[int(index) - 1]["text"])]
        elif uri in skill_texts:  # a file of one of the demo's skills (inspector/demo/skills.py)
            contents = [types.TextResourceContents(uri=uri, mime_type="text/markdown", text=skill_texts[uri])]
        else:
            raise _not_found(_("There is no resource {uri} on this server.").format(uri=repr(uri)))
        return types.ReadResourceResult(contents=contents)

    async def list_prompts(ctx: ServerRequestContext[Any],
                           params: types.PaginatedRequestParams | None) -> types.ListPromptsResult:
        return types.ListPromptsResult(prompts=prompts)

    async def get_prompt(ctx: ServerRequestContext[Any], params: types.GetPromptRequestParams) -> types.GetPromptResult:
        arguments = dict(params.arguments or {})
        if params.name == "summarize":
            if not arguments.get("text"):
                raise _not_found(_("summarize needs the argument text."))
            style = arguments.get("style") or style_words[0]
            text = _("Summarize the following text ({style}):\n\n{text}").format(style=style, text=arguments["text"])
        elif params.name == "greet":
            if not arguments.get("name"):
                raise _not_found(_("greet needs the argument name."))
            text = _("Write a friendly greeting for {name}.").format(name=arguments["name"])
        else:
            raise _not_found(_("There is no prompt {name} on this server.").format(name=repr(params.name)))
        return types.GetPromptResult(description=_("The {name} prompt, filled in.").format(name=params.name),
                                     messages=[types.PromptMessage(role="user",
                                                                   content=types.TextContent(type="text", text=text))])

    async def complete(ctx: ServerRequestContext[Any], params: types.CompleteRequestParams) -> types.CompleteResult:
        typed, ref = params.argument.value, params.ref
        if isinstance(ref, types.PromptReference) and ref.name == "summarize" and params.argument.name == "style":
            values = [style for style in style_words if style.startswith(typed)]
        elif isinstance(ref, types.ResourceTemplateReference) and ref.uri == NOTES_TEMPLATE \
                and params.argument.name == "index":
            values = [str(index) for index in range(1, len(state.notes_snapshot()) + 1) if str(index).startswith(typed)]
        else:
            values = []
        return types.CompleteResult(completion=types.Completion(values=values, total=len(values), has_more=False))

    return {"on_list_resources": list_resources, "on_list_resource_templates": list_templates,
            "on_read_resource": read_resource, "on_list_prompts": list_prompts, "on_get_prompt": get_prompt,
            "on_completion": complete}
