"""Progress notes kept with a step: what the server said while the step ran, bounded.

A server may send thousands of ``notifications/progress`` during one call; a step keeps the
first :data:`KEEP_FIRST` and the last :data:`KEEP_LAST` and counts the ones in between, so the
start and the end of a long call are both visible and the stored step stays small.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

KEEP_FIRST = 10
KEEP_LAST = 40
MAX_MESSAGE_CHARS = 500
"""A note's message is cut to this many characters (with an ellipsis)."""

NOTE_SHAPE = "a list of progress notes ({atMs, progress, total, message})"


def _finite(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an int too large to be a float
        return False


def is_progress_note(note: object) -> bool:
    """Is ``note`` a stored progress note? ``atMs`` (a finite number ≥ 0) and ``progress`` (a
    finite number) are required; ``total`` (a finite number) and ``message`` (a string) may be
    absent or null. Other keys are kept as they are."""
    if not isinstance(note, Mapping):
        return False
    at_ms, progress = note.get("atMs"), note.get("progress")
    if not _finite(at_ms) or at_ms < 0 or not _finite(progress):
        return False
    total, message = note.get("total"), note.get("message")
    return (total is None or _finite(total)) and (message is None or isinstance(message, str))


def progress_note(at_ms: float, progress: float, total: float | None, message: str | None) -> dict[str, Any]:
    """A note in its stored form; a long message is cut."""
    if message is not None and len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS - 1] + "…"
    return {"atMs": at_ms, "progress": progress, "total": total, "message": message}


def bound_progress(notes: Iterable[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], int]:
    """The notes a step keeps (the first and the last ones, in order) and how many were dropped."""
    notes = list(notes)
    if len(notes) <= KEEP_FIRST + KEEP_LAST:
        return notes, 0
    return notes[:KEEP_FIRST] + notes[-KEEP_LAST:], len(notes) - KEEP_FIRST - KEEP_LAST
