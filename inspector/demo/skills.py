"""The demo server's skills (SEP-2640, the ``io.modelcontextprotocol/skills`` extension): two small
skills a user can list, inspect and load, their files served as resources (``skill://…``).

* ``skill://demo-tour/SKILL.md``: a tour of the demo server, with ``references/TOOLS.md``;
* ``skill://run-inspector/cancel-a-call/SKILL.md``: one file (a skill under a prefix).

``skills/list`` gives both entries (their frontmatter, and each file's SHA-256 digest and size);
``skills/get`` one of them, or -32602 for a URI that names no skill here. Results carry
``ttlMs`` and ``cacheScope`` (required from 2026-07-28; harmless before).
"""

from __future__ import annotations

import hashlib
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError

from .words import ENGLISH, N_, DemoWords

SKILLS_EXTENSION = "io.modelcontextprotocol/skills"
#: How long a listing stays fresh, and for whom (the same for every client).
TTL_MS = 300_000
CACHE_SCOPE = "public"

# Translators: a skill's description in its SKILL.md's YAML: no colon followed by a space.
TOUR_DESCRIPTION = N_("Tour Run Inspector's demo server - call its tools, read its resources and fill its prompts.")
# Translators: a skill's metadata in its SKILL.md's YAML: no colon followed by a space.
TOUR_AUDIENCE = N_("people trying Run Inspector")
TOUR_TEXT = N_("""# A tour of the demo server

1. List the tools and call `echo` with a text: a step that ends *ok*.
2. Call `hang` and press Cancel: the step ends *cancelled*, never *failed*.
3. Call `fail`: a tool error, counted apart from a server that failed.
4. Read `demo://readme`, then fill the prompt `greet`.

The tools are described one by one in [references/TOOLS.md](references/TOOLS.md).
""")
TOOLS_TEXT = N_("""# The demo server's tools

- `echo`: answers the text it was given.
- `add`: adds two numbers.
- `slow_task`: reports progress while it works.
- `hang`: answers only by being cancelled.
- `fail`: always reports a tool error.
- `flaky`: fails every n-th call.
- `write_note` / `list_notes`: a write that is not idempotent, and what it wrote.
""")
# Translators: a skill's description in its SKILL.md's YAML: no colon followed by a space.
CANCEL_DESCRIPTION = N_("Cancel a running tool call and see that a cancelled step is not a failed one.")
CANCEL_TEXT = N_("""Call the tool `hang` with a budget of 20 seconds, wait a moment and cancel it (Esc in the
window, Ctrl-C at the command line). The run ends *cancelled*: the server was told to stop,
and its health counts the cancel apart from failures.
""")

#: A skill: its SKILL.md's URI, its frontmatter (as the SKILL.md's YAML says it), its files.
Skill = tuple[str, dict[str, Any], dict[str, str]]


def demo_skills(_: DemoWords = ENGLISH) -> list[Skill]:
    """The two skills in the demo server's language (``_``): their descriptions and files said in it."""
    tour = {"name": "demo-tour", "description": _(TOUR_DESCRIPTION), "license": "MIT",
            "metadata": {"version": "1.0", "audience": _(TOUR_AUDIENCE)}}
    tour_text, cancel_text = _(TOUR_TEXT), _(CANCEL_TEXT)
    tour_md = (f"---\nname: demo-tour\ndescription: {tour['description']}\nlicense: MIT\nmetadata:\n"
               f"  version: \"1.0\"\n  audience: {tour['metadata']['audience']}\n---\n\n{tour_text}")
    cancel = {"name": "cancel-a-call", "description": _(CANCEL_DESCRIPTION)}
    cancel_md = f"---\nname: cancel-a-call\ndescription: {cancel['description']}\n---\n\n{cancel_text}"
    return [("skill://demo-tour/SKILL.md", tour,
             {"skill://demo-tour/SKILL.md": tour_md, "skill://demo-tour/references/TOOLS.md": _(TOOLS_TEXT)}),
            ("skill://run-inspector/cancel-a-call/SKILL.md", cancel,
             {"skill://run-inspector/cancel-a-call/SKILL.md": cancel_md})]


def _entry(uri: str, frontmatter: dict[str, Any], files: dict[str, str]) -> dict[str, Any]:
    return {"uri": uri, "frontmatter": frontmatter, "resources": [
        {"uri": file, "digest": "sha256:" + hashlib.sha256(text.encode()).hexdigest(), "size": len(text.encode())}
        for file, text in files.items()]}


def skill_files(_: DemoWords = ENGLISH) -> dict[str, str]:
    """The text of each skill's file by its URI, in the demo server's language."""
    return {uri: text for _skill, _frontmatter, files in demo_skills(_) for uri, text in files.items()}


def skill_handlers(_: DemoWords = ENGLISH) -> dict[str, Any]:
    """``skills/list`` and ``skills/get`` for the low-level server's ``add_request_handler``, in the demo
    server's language."""
    skills = demo_skills(_)

    async def list_skills(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams) -> dict[str, Any]:
        return {"skills": [_entry(*skill) for skill in skills], "ttlMs": TTL_MS, "cacheScope": CACHE_SCOPE}

    async def get_skill(ctx: ServerRequestContext[Any], params: types.ReadResourceRequestParams) -> dict[str, Any]:
        uri = str(params.uri)
        for skill in skills:
            if skill[0] == uri:
                return {"skill": _entry(*skill), "ttlMs": TTL_MS, "cacheScope": CACHE_SCOPE}
        raise MCPError(code=types.INVALID_PARAMS, message=f"There is no skill {uri!r} on this server.")

    return {"skills/list": (types.PaginatedRequestParams, list_skills),
            "skills/get": (types.ReadResourceRequestParams, get_skill)}


async def _declared_in_handshake(ctx: ServerRequestContext[Any], call_next: Any) -> Any:
    """The handshake era's ``initialize`` declares the extension too: the SDK's 2025-11-25 result
    shape has no ``extensions``, and drops what the server's map says (the conformance suite's
    servers declare it there, as this one does)."""
    result = await call_next(ctx)
    if ctx.method == "initialize" and isinstance(result, dict) and isinstance(result.get("capabilities"), dict):
        extensions = result["capabilities"].setdefault("extensions", {})
        if isinstance(extensions, dict):
            extensions.setdefault(SKILLS_EXTENSION, {})
    return result


def with_skills(server: Any, _: DemoWords = ENGLISH) -> Any:
    """``server``, declaring the extension (in both eras) and serving its two methods in its language."""
    server.extensions[SKILLS_EXTENSION] = {}
    server.middleware.append(_declared_in_handshake)
    for method, (params_type, handler) in skill_handlers(_).items():
        server.add_request_handler(method, params_type, handler)
    return server


__all__ = ["SKILLS_EXTENSION", "demo_skills", "skill_files", "skill_handlers", "with_skills"]
