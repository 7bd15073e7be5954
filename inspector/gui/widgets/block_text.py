"""One content block that is not text, named in lines of the reader's language (see
:mod:`inspector.i18n.content_blocks`), its annotations checked as the server's data: for a tool's
answer and a prompt's messages in the Workbench, and a stored step's blocks in the Runs tab."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.i18n import content_blocks
from inspector.i18n.content_blocks import MAX_BLOCK_TEXT_CHARS, MAX_NAMED_BLOCKS
from inspector.mcp.annotations import kept_annotations

from .plain_text import MAX_TEXT_CHARS

#: A view shows this much of one text: the blocks named in it stop at half, so the line saying how
#: many more is shown with them (a hundred embedded texts made two hundred thousand lines only to be clipped).
_VIEW_CHARS = MAX_TEXT_CHARS // 2


def block_lines(block: Any) -> list[str]:
    """The lines naming ``block`` (none for a text block without annotations)."""
    annotations = kept_annotations(block.get("annotations")) if isinstance(block, dict) else None
    return content_blocks.block_lines(block, annotations)


def stored_block_lines(payload: Mapping[str, Any]) -> list[str]:
    """The lines ``runs show`` says under a stored step for its ``contentBlocks`` (and the
    blocks its call did not keep, ``contentBlocksDropped``), bounded as ``call`` names an answer's:
    the first :data:`MAX_NAMED_BLOCKS` blocks, each embedded text cut to :data:`MAX_BLOCK_TEXT_CHARS`,
    and no more once their lines hold half of what a view shows of one text; then the structured
    content of an answer without text, cut there too."""
    return [*content_blocks.bounded_block_lines(payload.get("contentBlocks"), payload.get("contentBlocksDropped"),
                                                block_lines, _VIEW_CHARS),
            *content_blocks.stored_structure_lines(payload, _VIEW_CHARS)]


def named_block_lines(blocks: list[Any]) -> tuple[list[str], int]:
    """The lines naming the first of ``blocks`` (bounded as :func:`stored_block_lines` says), and how
    many blocks they name."""
    return content_blocks.named_block_lines(blocks, block_lines, _VIEW_CHARS)


__all__ = ["MAX_BLOCK_TEXT_CHARS", "MAX_NAMED_BLOCKS", "block_lines", "named_block_lines", "stored_block_lines"]
