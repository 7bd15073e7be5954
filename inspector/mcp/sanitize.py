"""Remote text quoted in our messages: one line, no control characters, bounded."""

from __future__ import annotations

import re

REMOTE_TEXT_LIMIT = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def sanitize_remote_text(text: object, limit: int = REMOTE_TEXT_LIMIT) -> str:
    """Replace control characters by spaces, trim, and clip to ``limit`` characters plus '…'."""
    cleaned = _CONTROL.sub(" ", str(text)).strip()
    if len(cleaned) > limit:
        return cleaned[:limit] + "…"
    return cleaned


def inside_a_sentence(text: str) -> str:
    """Remote text placed at the end of one of our sentences, which ends it: its own full stop goes
    (the sentence ended in "text.."); an ellipsis ("...") stays as it is."""
    return text[:-1].rstrip() if text.endswith(".") and not text.endswith("..") else text
