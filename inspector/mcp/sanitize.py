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
