"""What an operation on a server's offerings found, as the result pane's text (plain, in the user's
language): a listing's items, a resource's contents (text as it came, a binary named with its type
and size: a picture is drawn under the text), a prompt's messages, completion values."""

from __future__ import annotations

from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.annotations import annotation_lines
from inspector.i18n.formatting import format_number, format_size
from inspector.mcp.annotations import kept_annotations
from inspector.mcp.offerings import Completion, Listing, Prompt, ReadResource
from inspector.mcp.resource_subscriptions import SubscriptionChange
from inspector.mcp.results import describe_block

from ..widgets.block_text import block_lines
from ..widgets.image_view import ShownImage
from .skill_text import skill_text


def _item_line(item: dict[str, Any], key: str) -> str:
    name = str(item.get(key, ""))
    title = item.get("title") if isinstance(item.get("title"), str) else None
    description = item.get("description") if isinstance(item.get("description"), str) else ""
    line = f"  {name}" + (f" ({title})" if title and title != name else "")
    return line + (f" — {description}" if description else "")


def listing_text(listing: Listing) -> str:
    pages = ngettext("{count} page", "{count} pages", listing.pages).format(count=format_number(listing.pages))
    count = len(listing.items)
    if listing.method == "prompts/list":
        head = ngettext("{count} prompt in {pages}:", "{count} prompts in {pages}:", count)
        key = "name"
    elif listing.method == "resources/templates/list":
        head = ngettext("{count} resource template in {pages}:", "{count} resource templates in {pages}:", count)
        key = "uriTemplate"
    else:
        head = ngettext("{count} resource in {pages}:", "{count} resources in {pages}:", count)
        key = "uri"
    return "\n".join([head.format(count=format_number(count), pages=pages),
                      *(_item_line(item, key) for item in listing.items)])


def read_text(read: ReadResource) -> str:
    lines: list[str] = []
    for content in read.contents:
        kind = content.mime_type or _("no type given")
        if content.text is not None:
            lines += [_("{uri} ({type}):").format(uri=content.uri, type=kind), content.text, ""]
        elif content.size is not None:
            lines.append(_("{uri}: binary content, {size} ({type}).").format(
                uri=content.uri, size=format_size(content.size), type=kind))
        else:
            lines.append(_("{uri}: binary content that is not valid base64 ({type}).").format(uri=content.uri,
                                                                                           type=kind))
    return "\n".join(lines).rstrip("\n") or _("The resource has no contents.")


def prompt_text(prompt: Prompt) -> str:
    lines = [prompt.description] if prompt.description else []
    for message in prompt.messages:
        if message.text is not None:
            lines += [_("{role}:").format(role=message.role), message.text,
                      *annotation_lines(kept_annotations(message.content.get("annotations")))]
        else:
            # Named as a tool's answer names it (URI, type, size; an embedded text resource's text).
            lines += [_("{role}:").format(role=message.role), *block_lines(describe_block(message.content))]
    return "\n".join(lines)


def completion_text(completion: Completion) -> str:
    lines = list(completion.values) or [_("No values.")]
    if completion.has_more:
        lines.append(_("(there are more; type more of the value to narrow them)"))
    return "\n".join(lines)


def offering_text(result: Any) -> str:
    """The text of any result of ``inspector.mcp.offerings`` (and of ``inspector.mcp.skills``: skill_text.py)."""
    skills = skill_text(result)
    if skills is not None:
        return skills
    if isinstance(result, Listing):
        return listing_text(result)
    if isinstance(result, ReadResource):
        return read_text(result)
    if isinstance(result, Prompt):
        return prompt_text(result)
    if isinstance(result, Completion):
        return completion_text(result)
    if isinstance(result, SubscriptionChange):
        if not result.subscribed:
            return _("Unsubscribed from {uri}.").format(uri=result.uri)
        return (_("Subscribed to {uri} on the listening session: its updates show in the Resources tab and the "
                  "Server log.") if result.era != "stateless" else
                _("Subscribed to {uri} in the listening request (subscriptions/listen), which the server "
                  "acknowledged: its updates show in the Resources tab and the Server log.")).format(uri=result.uri)
    return ""


def offering_images(result: Any) -> list[ShownImage]:
    """The pictures a read resource holds (decoded and drawn by the image strip, bounded)."""
    if not isinstance(result, ReadResource):
        return []
    return [ShownImage(content.uri, content.mime_type or "", content.blob, len(content.blob or ""))
            for content in result.contents if content.is_image]


__all__ = ["offering_images", "offering_text"]
