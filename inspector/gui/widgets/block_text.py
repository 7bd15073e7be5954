"""One content block that is not text, named in lines of the reader's language (see
:mod:`inspector.i18n.content_blocks`), its annotations checked as the server's data: for a tool's
answer and a prompt's messages in the Workbench, and a stored step's blocks in the Runs tab."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.i18n import content_blocks, ngettext
from inspector.i18n.formatting import format_number
from inspector.mcp.annotations import kept_annotations
from inspector.runs import MAX_CONTENT_BLOCKS

from .plain_text import MAX_TEXT_CHARS

#: How many of a stored step's blocks are named: what a call of ours keeps (an imported file may hold
#: thousands, each a few lines: the detail must not freeze on them).
MAX_NAMED_BLOCKS = MAX_CONTENT_BLOCKS
#: How much of an embedded text resource a stored block names (a call of ours keeps 10,000 bytes of it;
#: an imported one is cut here before its lines are made).
MAX_BLOCK_TEXT_CHARS = 10_000


def block_lines(block: Any) -> list[str]:
    """The lines naming ``block`` (none for a text block without annotations)."""
    annotations = kept_annotations(block.get("annotations")) if isinstance(block, dict) else None
    return content_blocks.block_lines(block, annotations)


def stored_block_lines(payload: Mapping[str, Any]) -> list[str]:
    """The lines ``runs show`` says under a stored step for its ``contentBlocks`` (and the
    blocks its call did not keep, ``contentBlocksDropped``), bounded: the first
    :data:`MAX_NAMED_BLOCKS` blocks, each embedded text cut to :data:`MAX_BLOCK_TEXT_CHARS`, and no more
    blocks once their lines hold half of :data:`~.plain_text.MAX_TEXT_CHARS` characters (what a view
    shows of one text, so the line saying how many more is shown with them: a hundred embedded texts
    made two hundred thousand lines only to be clipped)."""
    blocks = payload.get("contentBlocks")
    blocks = blocks if isinstance(blocks, list) else []
    lines, named = named_block_lines(blocks)
    unnamed = len(blocks) - named
    if unnamed > 0:
        lines.append(ngettext("{count} more content block is not named here.",
                              "{count} more content blocks are not named here.",
                              unnamed).format(count=format_number(unnamed)))
    dropped = payload.get("contentBlocksDropped")
    if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0:
        lines.append(ngettext("{count} more content block was not kept.", "{count} more content blocks were not kept.",
                              dropped).format(count=format_number(dropped)))
    return lines


def named_block_lines(blocks: list[Any]) -> tuple[list[str], int]:
    """The lines naming the first of ``blocks`` (bounded as :func:`stored_block_lines` says), and how
    many blocks they name."""
    lines: list[str] = []
    named = chars = 0
    for block in blocks[:MAX_NAMED_BLOCKS]:
        if chars >= MAX_TEXT_CHARS // 2:
            break
        named += 1
        if isinstance(block, dict):
            said = block_lines(_text_cut(block))
            chars += sum(len(line) + 1 for line in said)
            lines.extend(said)
    return lines, named


def _text_cut(block: dict[str, Any]) -> dict[str, Any]:
    text = block.get("text")
    if isinstance(text, str) and len(text) > MAX_BLOCK_TEXT_CHARS:
        return {**block, "text": text[:MAX_BLOCK_TEXT_CHARS] + "…"}
    return block


__all__ = ["MAX_BLOCK_TEXT_CHARS", "MAX_NAMED_BLOCKS", "block_lines", "named_block_lines", "stored_block_lines"]
