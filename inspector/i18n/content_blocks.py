"""One content block of a tool's answer or a prompt's message in the reader's words, for the window and
the command line alike: a line naming it (type, MIME type, URI, name, size), its annotations in words
after it, and an embedded text resource's text, indented."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.annotations import annotation_lines
from inspector.i18n.formatting import format_number


def size_words(size: object) -> str | None:
    """A byte count in words with its plural, or ``None`` when there is none."""
    if not isinstance(size, int) or isinstance(size, bool):
        return None
    return ngettext("{count} byte", "{count} bytes", size).format(count=format_number(size))


def block_lines(block: Any, annotations: Mapping[str, Any] | None = None) -> list[str]:
    """Lines naming one content block that is not text, so that a resource link's address or an
    image's size is not lost; ``annotations``: the block's, as checked (see
    :func:`inspector.mcp.annotations.kept_annotations`), said after its line. A text block gives
    none (it is the answer's text already) unless it is annotated."""
    if not isinstance(block, dict):
        return []
    kind = block.get("type")
    parts = [part for part in (_plain(block.get("mimeType")), size_words(block.get("size"))) if part]
    details = " ({details})".format(details=", ".join(parts)) if parts else ""
    uri = _plain(block.get("uri")) or _("(no URI)")
    annotated = annotation_lines(annotations)
    if kind == "text":
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


__all__ = ["block_lines", "size_words"]
