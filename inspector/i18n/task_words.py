"""A task's status in words, for the command line and the window alike."""

from __future__ import annotations

from . import _


def task_status_word(status: object) -> str:
    """``working`` → "working", ``input_required`` → "waiting for input", ...; an unknown status as it is."""
    words = {"working": _("working"), "input_required": _("waiting for input"), "completed": _("completed"),
             "failed": _("failed"), "cancelled": _("cancelled")}
    return words.get(status, str(status)) if isinstance(status, str) else str(status)
