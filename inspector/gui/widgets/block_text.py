"""One content block that is not text, named in lines of the reader's language (see
:mod:`inspector.i18n.content_blocks`), its annotations checked as the server's data: for a tool's
answer and a prompt's messages in the Workbench, and a stored step's blocks in the Runs tab."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.i18n import content_blocks
from inspector.i18n.content_blocks import MAX_BLOCK_TEXT_CHARS, MAX_NAMED_BLOCKS
from inspector.mcp.annotations import kept_annotations


def block_lines(block: Any) -> list[str]:
    """The lines naming ``block`` (none for a text block without annotations)."""
    annotations = kept_annotations(block.get("annotations")) if isinstance(block, dict) else None
    return content_blocks.block_lines(block, annotations)


def stored_block_lines(payload: Mapping[str, Any]) -> list[str]:
    """The lines ``runs show`` says under a stored step for its ``contentBlocks`` (and the
    blocks its call did not keep, ``contentBlocksDropped``), bounded as ``call`` names an answer's:
    the first :data:`MAX_NAMED_BLOCKS` blocks, each embedded text cut to :data:`MAX_BLOCK_TEXT_CHARS`."""
    return content_blocks.bounded_block_lines(payload.get("contentBlocks"), payload.get("contentBlocksDropped"),
                                              block_lines)


__all__ = ["MAX_BLOCK_TEXT_CHARS", "MAX_NAMED_BLOCKS", "block_lines", "stored_block_lines"]
