"""A stored step's result as the window's views say it: its payload parsed (bounded), and its text
followed by the lines naming its content blocks that are not text (and annotated ones), the lines
``runs show`` says for them, bounded as the step detail bounds them. The step detail, the Compare
view's two sides and the replay shown beside a step say a step's blocks through this module."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..widgets.block_text import stored_block_lines
from ..widgets.plain_text import clip_text

#: A payload larger than this is not parsed for its parts (the raw tab still shows its start).
MAX_PARSED_CHARS = 2_000_000


def parsed_payload(text: str) -> dict[str, Any]:
    """A stored step's payload as parsed; ``{}`` when it is not a JSON object or is too large to parse."""
    if len(text) > MAX_PARSED_CHARS:
        return {}
    try:
        payload = json.loads(text)
    except (ValueError, RecursionError):
        return {}
    return payload if isinstance(payload, dict) else {}


def with_block_lines(text: str, payload: Mapping[str, Any]) -> str:
    """``text`` (a step's result as shown, already clipped) and, under it, the lines naming the
    step's stored content blocks (``payload``: its parsed payload), clipped as plain text."""
    blocks = "\n".join(stored_block_lines(payload))
    if not blocks:
        return text
    return "\n".join(part for part in (text, clip_text(blocks)) if part)


__all__ = ["MAX_PARSED_CHARS", "parsed_payload", "with_block_lines"]
