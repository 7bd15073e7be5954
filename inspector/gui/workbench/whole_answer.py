"""A tool's whole answer, for the clipboard, when the result pane shows it bounded: its text
uncut, every content block named, and its structured content as JSON.

The result pane names the first :data:`~..widgets.block_text.MAX_NAMED_BLOCKS` blocks, clips the
text and cuts the structure tree (as the step detail does, so thousands of blocks do not freeze the
window); what it leaves out stays one action away through these functions."""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n.messages import translate
from inspector.mcp.results import non_text_note, non_text_sentence

from ..widgets.block_text import MAX_BLOCK_TEXT_CHARS, MAX_NAMED_BLOCKS, block_lines, named_block_lines
from ..widgets.plain_text import MAX_LINE_CHARS, MAX_TEXT_CHARS
from .result_tree import tree_cut


def is_bounded(result: Any) -> bool:
    """Whether the result pane leaves part of this tool answer out."""
    blocks = getattr(result, "blocks", ())
    content = getattr(result, "content", "")
    if not isinstance(blocks, tuple) or not isinstance(content, str):
        return False
    if len(content) > MAX_TEXT_CHARS or any(len(line) > MAX_LINE_CHARS for line in content.split("\n")):
        return True
    if len(blocks) > MAX_NAMED_BLOCKS or named_block_lines(list(blocks))[1] < len(blocks):
        return True
    if any(isinstance(block, dict) and len(str(block.get("text", ""))) > MAX_BLOCK_TEXT_CHARS for block in blocks):
        return True
    structured = getattr(result, "structured_content", None)
    return isinstance(structured, dict) and tree_cut(structured)


def whole_answer(result: Any) -> str:
    """The answer's text, the lines naming each of its blocks and its structured content (indented
    JSON), uncut: for the clipboard, never for a widget."""
    content = str(getattr(result, "content", ""))
    dropped = getattr(result, "dropped_blocks", None) or {}
    note = non_text_note(dropped) if dropped else ""
    if note and content.startswith(note):  # the client's note, said in the reader's language
        content = "\n".join(part for part in (translate(non_text_sentence(dropped)),
                                               content[len(note):].lstrip("\n")) if part)
    parts = [content]
    lines = [line for block in getattr(result, "blocks", ()) for line in block_lines(block)]
    if lines:
        parts.append("\n".join(lines))
    structured = getattr(result, "structured_content", None)
    if isinstance(structured, dict):
        try:
            parts.append(json.dumps(structured, indent=2, ensure_ascii=False))
        except (TypeError, ValueError, RecursionError):
            parts.append(repr(structured))
    return "\n\n".join(part for part in parts if part)


__all__ = ["is_bounded", "whole_answer"]
