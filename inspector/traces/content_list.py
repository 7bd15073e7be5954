"""A tool's result that another tool wrote as JSON text of an MCP content list, read as content blocks.

An agent's tool span may carry what the MCP tool answered as a JSON string (``gen_ai.tool.call.result``,
OpenInference's ``output.value``): ``[{"type": "text", "text": "..."}, {"type": "resource_link", ...}]``.
Such a value is untrusted input: it is read as a content list only when it is one, every block of a
kind MCP defines with the fields that kind requires, of the right types; anything else stays the text
it was. The blocks are described as a live step's are (:func:`inspector.mcp.results.describe_block`):
the text of the text blocks is the answer, every block is kept described (binary data only by its
size), at most :data:`~inspector.runs.result.MAX_CONTENT_BLOCKS` of them. No I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspector.mcp.results import ToolCallResult
from inspector.runs.bounding import bound_text
from inspector.runs.result import MAX_CONTENT_BLOCKS, MAX_RESOURCE_TEXT_BYTES

__all__ = ["ContentList", "read_content_list"]

#: What each kind of block MCP defines must carry, as (field, type) pairs.
_REQUIRED: dict[str, tuple[tuple[str, type], ...]] = {
    "text": (("text", str),),
    "image": (("data", str), ("mimeType", str)),
    "audio": (("data", str), ("mimeType", str)),
    "resource_link": (("uri", str), ("name", str)),
    "resource": (("resource", dict),),
}


@dataclass(frozen=True)
class ContentList:
    """A content list read: its text (a live step's ``toolResult``), its blocks described (the first
    :data:`MAX_CONTENT_BLOCKS`) and how many blocks beyond those were left out."""

    text: str
    blocks: tuple[Mapping[str, Any], ...]
    dropped: int = 0


def _is_block(block: Any) -> bool:
    if not isinstance(block, dict):
        return False
    kind = block.get("type")
    required = _REQUIRED.get(kind) if isinstance(kind, str) else None
    if required is None or not all(isinstance(block.get(name), kind) for name, kind in required):
        return False
    if block["type"] == "resource":
        resource = block["resource"]
        return isinstance(resource.get("uri"), str) and (isinstance(resource.get("text"), str)
                                                          or isinstance(resource.get("blob"), str))
    return True


def _bounded(block: dict[str, Any]) -> dict[str, Any]:
    text = block.get("text")
    return {**block, "text": bound_text(text, MAX_RESOURCE_TEXT_BYTES)} if isinstance(text, str) else block


def read_content_list(value: Any) -> ContentList | None:
    """``value`` (a parsed JSON value) as a content list, or ``None`` when it is not one."""
    if not isinstance(value, list) or not value or not all(_is_block(block) for block in value):
        return None
    answer = ToolCallResult.from_result("", {"content": value})
    kept = answer.blocks[:MAX_CONTENT_BLOCKS]
    return ContentList(answer.content, tuple(_bounded(block) for block in kept), len(answer.blocks) - len(kept))
