"""One content block of a tool's answer or a prompt's message in the reader's words, for the window and
the command line alike: a line naming it (type, MIME type, URI, name, size), its annotations in words
after it, and an embedded text resource's text, indented. A list of blocks is named bounded
(:func:`bounded_block_lines`): a step or an answer may hold thousands."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.annotations import annotation_lines
from inspector.i18n.formatting import format_number
from inspector.runs.result import MAX_CONTENT_BLOCKS

#: How many blocks of a list are named: what a call of ours keeps (a server may answer, and an imported
#: file hold, thousands, each a few lines: a window must not freeze, nor a terminal scroll, on them).
MAX_NAMED_BLOCKS = MAX_CONTENT_BLOCKS
#: How much of an embedded text resource a named block says (a call of ours keeps 10,000 bytes of it;
#: a live answer's or an imported one's text is cut here before its lines are made).
MAX_BLOCK_TEXT_CHARS = 10_000


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


def named_block_lines(blocks: list[Any] | tuple[Any, ...], lines_of: Callable[[dict[str, Any]], list[str]],
                      max_chars: int | None = None) -> tuple[list[str], int]:
    """The lines ``lines_of`` gives for each of the first :data:`MAX_NAMED_BLOCKS` of ``blocks``
    (each embedded text cut to :data:`MAX_BLOCK_TEXT_CHARS` characters first), no more blocks once
    their lines hold ``max_chars`` characters (a view that clips its text keeps the line saying how
    many more); and how many blocks they name."""
    lines: list[str] = []
    named = chars = 0
    for block in blocks[:MAX_NAMED_BLOCKS]:
        if max_chars is not None and chars >= max_chars:
            break
        named += 1
        if isinstance(block, dict):
            said = lines_of(_text_cut(block))
            chars += sum(len(line) + 1 for line in said)
            lines.extend(said)
    return lines, named


def bounded_block_lines(blocks: object, dropped: object, lines_of: Callable[[dict[str, Any]], list[str]],
                        max_chars: int | None = None) -> list[str]:
    """The lines naming a list of blocks, bounded (:func:`named_block_lines`), then how many more
    there are, and ``dropped`` (blocks a call did not keep, as a stored step counts them in
    ``contentBlocksDropped``) when it is a positive count."""
    blocks = blocks if isinstance(blocks, list | tuple) else []
    lines, named = named_block_lines(blocks, lines_of, max_chars)
    unnamed = len(blocks) - named
    if unnamed > 0:
        lines.append(ngettext("{count} more content block is not named here.",
                              "{count} more content blocks are not named here.",
                              unnamed).format(count=format_number(unnamed)))
    if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0:
        lines.append(ngettext("{count} more content block was not kept.", "{count} more content blocks were not kept.",
                              dropped).format(count=format_number(dropped)))
    return lines


def stored_structure(payload: Mapping[str, Any]) -> object:
    """A stored step's structured content: the object it kept (``structuredContent``), or the JSON
    text it kept of a larger one, cut (``structuredContentText``); ``None`` when it has none."""
    kept = payload.get("structuredContent")
    return kept if isinstance(kept, dict | list) else payload.get("structuredContentText")


def structure_text(structured: object, blocks: object) -> str | None:
    """A tool's structured content as a reader is shown it where no text block of the answer carries it
    (a server should repeat it as text, but need not): its JSON, indented, or the cut JSON text a step
    kept of a larger one, as it is; ``None`` when the answer has a text block (it is the text) or no
    structured content."""
    if isinstance(blocks, list | tuple) and any(isinstance(block, Mapping) and block.get("type") == "text"
                                                for block in blocks):
        return None
    if isinstance(structured, str):
        return structured or None
    if isinstance(structured, Mapping | list | tuple):
        return json.dumps(structured, indent=2, ensure_ascii=False, default=dict)
    return None


def stored_structure_lines(payload: Mapping[str, Any], max_chars: int) -> list[str]:
    """What ``runs show`` and the window's step detail say of a stored step's structured content when
    no text block of its answer carries it (:func:`structure_text`): a heading, then the JSON's lines,
    indented, cut to ``max_chars`` characters, then how many more there are."""
    text = structure_text(stored_structure(payload), payload.get("contentBlocks"))
    if text is None:
        return []
    lines = [_("Its structured content:"), *(f"    {line}" for line in text[:max_chars].splitlines())]
    left = len(text) - max_chars
    if left > 0:
        lines.append(ngettext("{count} more character of the structured content is not shown here; the step's "
                              "payload has it.",
                              "{count} more characters of the structured content are not shown here; the step's "
                              "payload has them.", left).format(count=format_number(left)))
    return lines


def _text_cut(block: dict[str, Any]) -> dict[str, Any]:
    text = block.get("text")
    if isinstance(text, str) and len(text) > MAX_BLOCK_TEXT_CHARS:
        return {**block, "text": text[:MAX_BLOCK_TEXT_CHARS] + "…"}
    return block


def _plain(value: object) -> str:
    # One line each: a name or URI from the server must not break the list into forged lines.
    return " ".join(value.split()) if isinstance(value, str) else ""


__all__ = ["MAX_BLOCK_TEXT_CHARS", "MAX_NAMED_BLOCKS", "block_lines", "bounded_block_lines", "named_block_lines",
           "size_words", "stored_structure", "stored_structure_lines", "structure_text"]
