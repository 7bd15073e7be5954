"""One content block that is not text, named in lines of the reader's language (see
:mod:`inspector.i18n.content_blocks`), its annotations checked as the server's data: for a tool's
answer and a prompt's messages."""

from __future__ import annotations

from typing import Any

from inspector.i18n import content_blocks
from inspector.mcp.annotations import kept_annotations


def block_lines(block: Any) -> list[str]:
    """The lines naming ``block`` (none for a text block without annotations)."""
    annotations = kept_annotations(block.get("annotations")) if isinstance(block, dict) else None
    return content_blocks.block_lines(block, annotations)


__all__ = ["block_lines"]
