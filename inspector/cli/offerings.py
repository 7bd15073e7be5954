"""The commands on what a server offers besides tools: ``resources list|templates|read URI``,
``prompts list|get NAME``, ``complete``. Each is an operation (legs, one budget, a cancel, stored as
a run with a ``request`` step) made by :mod:`.operations`; this module says which, runs it, and
says what it found (``--json`` fields: docs/cli-json.md; readable lines: every server text made
safe for the terminal)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Awaitable
from typing import Any

from inspector.agent.offerings import offering_step
from inspector.i18n import N_, _, ngettext
from inspector.i18n.annotations import annotation_lines
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import Message
from inspector.mcp import CancelSignal, McpClient, ServerEndpoint
from inspector.mcp.annotations import kept_annotations
from inspector.mcp.offerings import Completion, Listing, Prompt, ReadResource
from inspector.mcp.results import describe_block

from .common import UsageError, safe
from .results import block_lines
from .safe_text import one_line
from .skills_parser import SKILL_COMMANDS, SKILL_TARGETS

#: The operation of each (command, action).
OFFERINGS = {("resources", "list"): "resources/list", ("resources", "templates"): "resources/templates/list",
             ("resources", "read"): "resources/read", ("prompts", "list"): "prompts/list",
             ("prompts", "get"): "prompts/get", ("complete", None): "completion/complete",
             ("resources", "subscribe"): "resources/subscribe", **SKILL_COMMANDS}
#: The commands that take a word besides the server (a resource's URI, a prompt's name).
WITH_TARGET = {("resources", "read"), ("prompts", "get"), *SKILL_TARGETS}


def operation_of(args: argparse.Namespace) -> str:
    return OFFERINGS[(args.command, getattr(args, "offering", None))]


def string_arguments(raw: str | None, option: str = "--args") -> dict[str, str]:
    """A JSON object of strings (a prompt's arguments, a completion's context)."""
    if not raw:
        return {}
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        value = None
    if not isinstance(value, dict) or not all(isinstance(item, str) for item in value.values()):
        raise UsageError(Message(N_("{option} must be a JSON object of strings, e.g. '{example}'"),
                                 {"option": option, "example": '{"text": "hello"}'}))
    return value


def attempt(args: argparse.Namespace, client: McpClient, server: ServerEndpoint, budget: float | None,
            cancel: CancelSignal, observer: Any) -> Awaitable[Any]:
    """The operation ``args`` name, recorded as a ``request`` step."""
    operation = operation_of(args)
    params: dict[str, Any] = {}
    if operation in ("resources/read", "skills/get", "skills/load"):
        params = {"uri": args.tool}
    elif operation == "prompts/get":
        params = {"name": args.tool, "arguments": string_arguments(args.args)}
    elif operation == "completion/complete":
        ref = ({"type": "ref/prompt", "name": args.prompt} if args.prompt is not None
               else {"type": "ref/resource", "uri": args.resource})
        params = {"ref": ref, "argument": args.argument, "value": args.value,
                  "context": string_arguments(args.context, "--context")}
    return offering_step(client, server, operation, params, budget_s=budget, cancel=cancel, observer=observer,
                         wire=getattr(args, "wire", None))


# -- what was found -----------------------------------------------------------------------------------

def report_fields(operation: str, result: Any) -> dict[str, Any]:
    """The ``--json`` fields of a result (documented in docs/cli-json.md)."""
    if operation.startswith("skills/"):
        from .skills import skill_fields

        return skill_fields(result)
    if isinstance(result, Listing):
        key = {"resources/list": "resources", "resources/templates/list": "resource_templates",
               "prompts/list": "prompts"}[operation]
        return {key: result.items, "pages": result.pages}
    if isinstance(result, ReadResource):
        return {"uri": result.uri, "contents": [
            {"uri": content.uri, "mime_type": content.mime_type, "text": content.text} if content.text is not None
            else {"uri": content.uri, "mime_type": content.mime_type, "size": content.size, "blob": content.blob}
            for content in result.contents]}
    if isinstance(result, Prompt):
        return {"prompt": result.name, "description": result.description, "messages": [
            {"role": message.role, "type": message.kind, "text": message.text, "content": message.content}
            for message in result.messages]}
    if isinstance(result, Completion):
        return {"values": result.values, "total": result.total, "has_more": result.has_more}
    return {}


def _described(item: dict[str, Any], key: str) -> str:
    name = item.get(key)
    title = item.get("title") if isinstance(item.get("title"), str) else item.get("name")
    words = [str(name)]
    if isinstance(title, str) and title != name:
        words.append(f"({title})")
    if isinstance(item.get("mimeType"), str):
        words.append(f"[{item['mimeType']}]")
    if isinstance(item.get("description"), str) and item["description"]:
        words.append(f"— {item['description']}")
    return "  " + " ".join(words)


def _prompt_line(prompt: dict[str, Any]) -> str:
    listed = prompt.get("arguments")
    names = [f"{argument.get('name')}{'*' if argument.get('required') else ''}"
             for argument in listed if isinstance(argument, dict)] if isinstance(listed, list) else []
    line = f"  {prompt.get('name')}({', '.join(names)})"
    if isinstance(prompt.get("description"), str) and prompt["description"]:
        line += f" — {prompt['description']}"
    return line


def result_lines(operation: str, report: dict[str, Any]) -> list[str]:
    """The readable lines of what was found (each server text made one safe line, or safe text)."""
    if operation.startswith("skills/"):
        from .skills import skill_lines

        return skill_lines(operation, report)
    if "pages" in report:
        items = report.get("resources") or report.get("resource_templates") or report.get("prompts") or []
        pages = ngettext("{count} page", "{count} pages", report["pages"]).format(count=format_number(report["pages"]))
        heading = {
            "resources/list": ngettext("{count} resource in {pages}:", "{count} resources in {pages}:", len(items)),
            "resources/templates/list": ngettext("{count} resource template in {pages}:",
                                                 "{count} resource templates in {pages}:", len(items)),
            "prompts/list": ngettext("{count} prompt in {pages}:", "{count} prompts in {pages}:", len(items)),
        }[operation]
        lines = [heading.format(count=format_number(len(items)), pages=pages)]
        if operation == "prompts/list":
            lines += [one_line(_prompt_line(item)) for item in items]
        else:
            key = "uri" if operation == "resources/list" else "uriTemplate"
            lines += [one_line(_described(item, key)) for item in items]
        return lines
    if "contents" in report:
        lines = []
        for content in report["contents"]:
            kind = content.get("mime_type") or _("no type given")
            if content.get("text") is not None:
                lines.append(one_line(_("{uri} ({type}):").format(uri=content["uri"], type=kind)))
                lines.append(safe(content["text"]))
            elif content.get("size") is not None:
                said = _("{uri}: binary content of {size} bytes ({type}), not shown here (--json has it in base64).")
                lines.append(one_line(said.format(uri=content["uri"], size=format_number(content["size"]), type=kind)))
            else:
                lines.append(one_line(_("{uri}: binary content that is not valid base64 ({type}).").format(
                    uri=content["uri"], type=kind)))
        return lines or [_("The resource has no contents.")]
    if "messages" in report:
        lines = [one_line(report["description"])] if report.get("description") else []
        for message in report["messages"]:
            if message["text"] is not None:
                lines.append(one_line(_("{role}:").format(role=message["role"])))
                lines.append(safe(message["text"]))
                content = message.get("content")
                if isinstance(content, dict):
                    lines += [one_line(line) for line in annotation_lines(kept_annotations(content.get("annotations")))]
            else:
                # An embedded resource, an image, audio, a link: named as a tool's answer names it
                # (URI, type, size; an embedded text resource's text), never hidden behind its kind.
                lines.append(one_line(_("{role}:").format(role=message["role"])))
                lines += [one_line(line) for line in block_lines(describe_block(message.get("content")))]
        return lines
    if "values" in report:
        lines = [one_line(value) for value in report["values"]] or [_("No values.")]
        if report.get("has_more"):
            lines.append(_("(there are more; type more of the value to narrow them)"))
        return lines
    return []


__all__ = ["OFFERINGS", "WITH_TARGET", "attempt", "operation_of", "report_fields", "result_lines", "string_arguments"]
