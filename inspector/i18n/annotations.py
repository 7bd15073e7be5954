"""A content block's annotations in the reader's words: "for the user only · priority 0.9 ·
changed 11/30/26, 2:02 PM" (the same in the window and on the command line)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from inspector.i18n import _
from inspector.i18n.formatting import format_datetime, format_number


def audience_words(audience: object) -> str | None:
    """Who a block is for, in words; ``None`` for no audience said (or none that can be read)."""
    if not isinstance(audience, list):
        return None
    roles = {role for role in audience if role in ("user", "assistant")}
    if roles == {"user"}:
        return _("for the user only")
    if roles == {"assistant"}:
        return _("for the assistant only")
    if roles:
        return _("for the user and the assistant")
    # Translators: an audience list the server sent empty: the block is meant for no reader
    return _("for no one") if not audience else None


def annotation_words(annotations: object) -> str | None:
    """The annotations (as :func:`inspector.mcp.annotations.kept_annotations` keeps them) said in one
    line, parts joined by " · "; ``None`` when there are none. Values of a wrong type are passed
    over, never trusted (a stored or imported step may hold anything)."""
    if not isinstance(annotations, Mapping):
        return None
    parts = [audience_words(annotations.get("audience"))]
    priority: Any = annotations.get("priority")
    if isinstance(priority, int | float) and not isinstance(priority, bool) and math.isfinite(priority):
        # Translators: how much a content block matters, from 0 (least) to 1 (most), e.g. "priority 0.9"
        parts.append(_("priority {priority}").format(priority=format_number(priority)))
    changed = annotations.get("lastModified")
    if isinstance(changed, str) and changed.strip() and len(changed) <= 64:
        # Translators: when the content block last changed, e.g. "changed 11/30/26, 2:02 PM"
        parts.append(_("changed {when}").format(when=format_datetime(changed, "short")))
    said = [part for part in parts if part]
    return " · ".join(said) if said else None


def annotation_lines(annotations: object) -> list[str]:
    """The line that follows a block's own line when it has annotations: "  Annotations: …"."""
    words = annotation_words(annotations)
    return [_("  Annotations: {annotations}").format(annotations=words)] if words else []


__all__ = ["annotation_lines", "annotation_words", "audience_words"]
