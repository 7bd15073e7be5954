"""One content block that is not text, named in a line of the reader's language (type, MIME type, URI,
name, size, annotations; an embedded text resource's text after it): for a tool's answer and a prompt's messages."""

from __future__ import annotations

from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.annotations import annotation_lines
from inspector.i18n.formatting import format_number
from inspector.mcp.annotations import kept_annotations


def _size_words(size: object) -> str:
    if not isinstance(size, int) or isinstance(size, bool):
        return ""
    return ngettext("{count} byte", "{count} bytes", size).format(count=format_number(size))


def block_lines(block: Any) -> list[str]:
    """Lines naming one content block that is not text (type, MIME type, URI, name, size), so that
    a resource link's address or an image's size is not lost; an embedded text resource's text
    follows, indented. Text blocks give none (they are the answer's text already), unless annotated:
    a block's annotations (audience, priority, last change) follow its line, in words."""
    if not isinstance(block, dict):
        return []
    kind = block.get("type")
    parts = [part for part in (_plain(block.get("mimeType")), _size_words(block.get("size"))) if part]
    details = " ({details})".format(details=", ".join(parts)) if parts else ""
    uri = _plain(block.get("uri")) or _("(no URI)")
    annotated = annotation_lines(kept_annotations(block.get("annotations")))
    if kind == "text":
        # A text block is the answer's text already: named only to say its annotations.
        return [_("Text{details}.").format(details=details), *annotated] if annotated else []
    if kind == "image":
        return [_("Image{details}.").format(details=details), *annotated]
    if kind == "audio":
        return [_("Audio{details}.").format(details=details), *annotated]
    if kind == "resource_link":
        name = _plain(block.get("title")) or _plain(block.get("name")) or _("(unnamed)")
        return [_("Resource link {name}: {uri}{details}.").format(name=name, uri=uri, details=details), *annotated]
    if kind == "resource":
        lines = [_("Embedded resource {uri}{details}.").format(uri=uri, details=details), *annotated]
        text = block.get("text")
        if isinstance(text, str):
            lines.extend(f"    {line}" for line in text.splitlines())
        return lines
    return [_("A content block of the unknown type {kind}.").format(kind=_plain(kind) or _("(none)")), *annotated]


def _plain(value: object) -> str:
    # One line each: a name or URI from the server must not break the list into forged lines.
    return " ".join(value.split()) if isinstance(value, str) else ""


__all__ = ["block_lines"]
