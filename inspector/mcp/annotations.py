"""The ``annotations`` of a content block (who it is for, how much it matters, when it changed),
checked like any server data: what is valid is kept, the rest is left out, nothing is trusted.

MCP lets every content block carry ``annotations``: ``audience`` (a list of the roles ``user``
and ``assistant``), ``priority`` (a number from 0 to 1) and ``lastModified`` (an ISO 8601 time).
A client may hide a block from the model or the user by them, so a reader debugging an agent
needs to see them; a hostile server may send anything there instead.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

#: The roles an audience may name, in the order they are kept.
ROLES = ("user", "assistant")
#: How many entries of an ``audience`` list are looked at (the spec knows two roles).
MAX_AUDIENCE_ENTRIES = 16
#: The longest ``lastModified`` text kept (an ISO 8601 time with fractions and offset is ~35).
MAX_TIME_CHARS = 64


def kept_annotations(raw: Any) -> dict[str, Any] | None:
    """The valid part of a block's ``annotations``: ``audience`` (the known roles among its first
    entries, each once; an empty list as sent), ``priority`` (a finite number from 0 to 1) and
    ``lastModified`` (a short text that reads as an ISO 8601 time), each only when valid;
    ``None`` when nothing is left. Anything else the object holds is not kept."""
    if not isinstance(raw, dict):
        return None
    kept: dict[str, Any] = {}
    audience = raw.get("audience")
    if isinstance(audience, list):
        roles = [entry for entry in audience[:MAX_AUDIENCE_ENTRIES] if isinstance(entry, str) and entry in ROLES]
        if roles or not audience:
            kept["audience"] = list(dict.fromkeys(roles))
    priority = raw.get("priority")
    if (isinstance(priority, int | float) and not isinstance(priority, bool)
            and math.isfinite(priority) and 0 <= priority <= 1):
        kept["priority"] = priority
    changed = raw.get("lastModified")
    if isinstance(changed, str) and _is_time(changed):
        kept["lastModified"] = changed
    return kept or None


def _is_time(text: str) -> bool:
    if not text.strip() or len(text) > MAX_TIME_CHARS:
        return False
    try:
        datetime.fromisoformat(text.strip())
    except ValueError:
        return False
    return True


__all__ = ["kept_annotations"]
