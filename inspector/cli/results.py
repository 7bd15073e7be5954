"""How the command line shows what an operation returned: tools, content blocks, progress.

Each function turns one part of a ``--json`` report (see ``docs/cli-json.md``) into readable
lines, so that the JSON and the readable output never say different things.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n import _, content_blocks, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import said_again, translate
from inspector.mcp import tool_arguments
from inspector.mcp.annotations import kept_annotations
from inspector.mcp.client_reasons import own_reason
from inspector.mcp.messages import note_of
from inspector.mcp.results import NO_TEXT_SENTENCE, NON_TEXT_KINDS, non_text_sentence
from inspector.runs.notices import said_once_each

from .words import seconds

#: How much of an answer's text ``call`` (and ``replay``) prints: what the window's result view shows of
#: one text. An answer of megabytes would flood the terminal; ``--json`` keeps the text whole.
MAX_SHOWN_TEXT_CHARS = 100_000


def tool_entry(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool of the catalogue as ``--json`` shows it: exactly what the server sent (every field,
    under its own name: ``name``, ``title``, ``description``, ``icons``, ``annotations``,
    ``inputSchema``, ``outputSchema``, ``execution``, ``_meta``, and any other)."""
    return dict(tool)


def excluded_entry(tool: dict[str, Any], reason: object) -> dict[str, Any]:
    """A tool the server listed that cannot be called: the tool as sent, and why (English)."""
    return {"tool": tool_entry(tool), "reason": str(reason)}


def catalogue_heading(tools: int, pages: int) -> str:
    """The line above the catalogue, with real plural forms and the locale's numbers ("1.510 Tools")."""
    if pages == 1:
        return ngettext("{count} tool in 1 page:", "{count} tools in 1 page:", tools).format(
            count=format_number(tools))
    return ngettext("{count} tool in {pages} pages:", "{count} tools in {pages} pages:", tools).format(
        count=format_number(tools), pages=format_number(pages))


def tool_lines(tool: dict[str, Any]) -> list[str]:
    """A tool in readable form: its name and description, then one line per argument read off
    its input schema."""
    name = _text(tool.get("name")) or _("(unnamed)")
    line = f"  {name}"
    description = _text(tool.get("description"))
    if description and description.splitlines():
        line += f" - {description.splitlines()[0]}"
    lines = [line]
    arguments = tool_arguments(tool)
    if not arguments:
        lines.append(_("      It takes no arguments."))
    for argument in arguments:
        if argument.required:
            lines.append(_("      {name} ({type}, required)").format(name=argument.name, type=argument.type))
        else:
            lines.append(_("      {name} ({type}, optional)").format(name=argument.name, type=argument.type))
    return lines


def excluded_lines(excluded: list[tuple[dict[str, Any], str]]) -> list[str]:
    """The tools that cannot be called, after the others: a heading, then each name and why
    (``excluded`` holds each tool and its reason, already in the reader's language)."""
    if not excluded:
        return []
    lines = [ngettext("{count} more tool was listed by the server but cannot be called:",
                      "{count} more tools were listed by the server but cannot be called:",
                      len(excluded)).format(count=len(excluded))]
    for tool, reason in excluded:
        lines.append(_("  {name} (excluded): {reason}").format(
            name=_text(tool.get("name")) or _("(unnamed)"), reason=reason))
    return lines


def block_lines(block: dict[str, Any]) -> list[str]:
    """One readable line for a content block that is not text (text blocks are the content
    itself, so they give none unless annotated), then its annotations in words, if any; an
    embedded text resource's text follows, indented (:mod:`inspector.i18n.content_blocks`)."""
    return content_blocks.block_lines(block, kept_annotations(block.get("annotations")))


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def server_request_lines(requests: object) -> list[str]:
    """One sentence per method the server asked the client for, and what the client said."""
    if not isinstance(requests, list):
        return []
    lines = []
    for entry in requests:
        if not isinstance(entry, dict):
            continue
        method, count = _text(entry.get("method")) or _("(no method)"), entry.get("count")
        count = count if isinstance(count, int) and not isinstance(count, bool) else 0
        reason = _declined_why(entry)
        if entry.get("declined") and reason:
            lines.append(ngettext("The server asked the client for {method} (once); the client declined "
                                  "(\"{reason}\").",
                                  "The server asked the client for {method} ({count} times); the client declined "
                                  "(\"{reason}\").", count).format(method=method, count=format_number(count),
                                                                   reason=reason))
        elif entry.get("declined"):
            lines.append(ngettext("The server asked the client for {method} (once); the client declined.",
                                  "The server asked the client for {method} ({count} times); the client declined.",
                                  count).format(method=method, count=format_number(count)))
        else:
            lines.append(ngettext("The server asked the client for {method} (once); the client answered.",
                                  "The server asked the client for {method} ({count} times); the client answered.",
                                  count).format(method=method, count=format_number(count)))
    return lines


def _declined_why(entry: dict[str, Any]) -> str:
    """The reason the client gave with its last declined reply (or nothing): a reason of ours in the
    reader's language, another client's (seen through the proxy) as it wrote it."""
    exchanges = entry.get("exchanges")
    if not isinstance(exchanges, list):
        return ""
    for exchange in reversed(exchanges):
        answered = exchange.get("answered") if isinstance(exchange, dict) else None
        if isinstance(exchange, dict) and exchange.get("declined") and isinstance(answered, dict):
            message, ours = answered.get("message"), own_reason(answered)
            if ours is not None:
                return translate(ours)
            if isinstance(message, str) and message:
                return message
    return ""


def elicitation_lines(requests: object) -> list[str]:
    """What the user (or the policy) answered to each of the server's questions."""
    lines: list[str] = []
    if not isinstance(requests, list):
        return lines
    for entry in requests:
        if not isinstance(entry, dict) or entry.get("method") != "elicitation/create":
            continue
        for exchange in entry.get("exchanges") or ():
            if not isinstance(exchange, dict) or exchange.get("declined"):
                continue
            asked, answered = exchange.get("asked"), exchange.get("answered")
            message = asked.get("message") if isinstance(asked, dict) else None
            action = answered.get("action") if isinstance(answered, dict) else None
            lines.append(_("The server asked \"{message}\"; the answer was {action}.").format(
                message=_text(message), action=_text(action) or "?"))
    return lines


def notification_lines(notifications: object) -> list[str]:
    """One sentence per log message the server sent, with its level; one per other method, with how
    many times it came (a task's status notes, list changes)."""
    if not isinstance(notifications, list):
        return []
    lines: list[str] = []
    for entry, count in said_once_each(notifications):
        method = _text(entry.get("method"))
        if method == "notifications/message":
            data = entry.get("data")
            text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
            logger = _text(entry.get("logger"))
            if logger:
                lines.append(_("Server log ({level}, from {logger}): {text}").format(
                    level=_text(entry.get("level")) or "?", logger=logger, text=text))
            else:
                lines.append(_("Server log ({level}): {text}").format(
                    level=_text(entry.get("level")) or "?", text=text))
        elif method.endswith("/list_changed"):
            what = method.removeprefix("notifications/").removesuffix("/list_changed")
            lines.append(ngettext("The server said its list of {what} changed.",
                                  "The server said {count} times that its list of {what} changed.",
                                  count).format(what=what, count=format_number(count)))
        elif method:
            lines.append(ngettext("The server sent the notification {method}.",
                                  "The server sent the notification {method} {count} times.",
                                  count).format(method=method, count=format_number(count)))
    return lines


def progress_lines(notes: object, dropped: object = 0) -> list[str]:
    """A sentence on the server's progress notes: how many, and the last one's words.

    ``notes`` are ``{at_ms, progress, total, message}`` (``--json``) or the stored
    ``{atMs, ...}`` form; ``dropped`` counts those between the first and last ones not kept.
    """
    if not isinstance(notes, list) or not notes or not isinstance(notes[-1], dict):
        return []
    count = len(notes) + (dropped if isinstance(dropped, int) and not isinstance(dropped, bool) else 0)
    last = notes[-1]
    at_ms = last.get("at_ms", last.get("atMs"))
    progress, total, message = last.get("progress"), last.get("total"), last.get("message")
    amount = _number(progress) if isinstance(progress, (int, float)) else "?"
    if isinstance(total, (int, float)):
        amount = _("{progress} of {total}").format(progress=amount, total=_number(total))
    when = (_("{seconds} s").format(seconds=seconds(at_ms / 1000, 1)) if isinstance(at_ms, (int, float))
            else "?")
    if isinstance(message, str) and message:
        line = ngettext("The server sent {count} progress note, at {when}: {amount} ({message}).",
                        "The server sent {count} progress notes; the last, at {when}: {amount} ({message}).",
                        count).format(count=format_number(count), when=when, amount=amount, message=message)
    else:
        line = ngettext("The server sent {count} progress note, at {when}: {amount}.",
                        "The server sent {count} progress notes; the last, at {when}: {amount}.",
                        count).format(count=format_number(count), when=when, amount=amount)
    lines = [line]
    if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0:
        lines.append(ngettext("{count} note between the first and the last ones was not kept.",
                              "{count} notes between the first and the last ones were not kept.",
                              dropped).format(count=format_number(dropped)))
    return lines


def step_extra_lines(payload: dict[str, Any]) -> list[str]:
    """What ``runs show`` adds under a step's row: its progress notes, the requests the
    server sent the client and its content blocks that are not text, bounded as the window's step detail
    names them (:func:`inspector.i18n.content_blocks.bounded_block_lines`: the first hundred, then how many
    more: an imported step may hold thousands); and the structured content of an answer without text
    (:func:`inspector.i18n.content_blocks.stored_structure_lines`)."""
    lines: list[str] = progress_lines(payload.get("progress"), payload.get("progressDropped"))
    lines.extend(server_request_lines(payload.get("serverRequests")))
    lines.extend(elicitation_lines(payload.get("serverRequests")))
    lines.extend(notification_lines(payload.get("serverNotifications")))
    if payload.get("serverToldToStop") is False:
        lines.append(_("The server gave no session id, so it was not told to stop this request."))
    lines.extend(content_blocks.bounded_block_lines(payload.get("contentBlocks"), payload.get("contentBlocksDropped"),
                                                    block_lines))
    lines.extend(content_blocks.stored_structure_lines(payload, MAX_SHOWN_TEXT_CHARS))
    return lines


def answer_block_lines(blocks: object) -> list[str]:
    """What ``call`` (and ``replay``) says of an answer's content blocks, bounded as ``runs show``
    says a stored step's and the window's step detail names them: the first hundred, each embedded
    text cut, then how many more (a server may answer thousands; ``--json`` keeps every one, whole)."""
    return content_blocks.bounded_block_lines(blocks, 0, block_lines)


def _number(value: float) -> str:
    """A progress amount as the server gave it, in the locale's way (no grouping changes its sense)."""
    return format_number(int(value)) if float(value).is_integer() else format_number(float(value))


def bounded_content(content: str, blocks: list[dict[str, Any]]) -> tuple[str, str | None]:
    """An answer's text as ``call`` prints it (:func:`content_said`), cut to :data:`MAX_SHOWN_TEXT_CHARS`
    characters before it is said, and the line saying how many more were left out and how to get them
    (``None`` when the text is whole)."""
    left = len(content) - MAX_SHOWN_TEXT_CHARS
    if left <= 0:
        return content_said(content, blocks), None
    return content_said(content[:MAX_SHOWN_TEXT_CHARS], blocks), ngettext(
        "{count} more character of the answer's text is not shown here; --json gives the whole answer.",
        "{count} more characters of the answer's text are not shown here; --json gives the whole answer.",
        left).format(count=format_number(left))


def structured_lines(structured: object, blocks: object) -> list[str]:
    """A tool's structured content as ``call`` says it when no text
    block of the answer carries it (:func:`inspector.i18n.content_blocks.structure_text`): a heading, then
    its JSON, indented, cut as the text is; nothing when the answer has a text block (it is the text) or
    no structured content."""
    text = content_blocks.structure_text(structured, blocks)
    if text is None:
        return []
    lines = [_("Its structured content:"), text[:MAX_SHOWN_TEXT_CHARS]]
    left = len(text) - MAX_SHOWN_TEXT_CHARS
    if left > 0:
        lines.append(ngettext(
            "{count} more character of the structured content is not shown here; --json gives the whole answer.",
            "{count} more characters of the structured content are not shown here; --json gives the whole answer.",
            left).format(count=format_number(left)))
    return lines


def content_said(content: str, blocks: list[dict[str, Any]]) -> str:
    """An answer's text as a person reads it: the note naming its blocks that are not text, which
    the text begins with in English (as ``--json`` keeps it), said in the reader's language."""
    dropped: dict[str, int] = {}
    for block in blocks:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind != "text":
            kind = kind if kind in NON_TEXT_KINDS else "other"
            dropped[kind] = dropped.get(kind, 0) + 1
    if not dropped:
        # An answer with no block at all: our sentence (kept in English), said in the reader's language.
        return _(NO_TEXT_SENTENCE) if content == NO_TEXT_SENTENCE else content
    return said_again(content, note_of(non_text_sentence(dropped)))
