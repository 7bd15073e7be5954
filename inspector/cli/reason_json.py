"""A run's reason as ``runs list --json`` gives it, and ``runs show --json`` and ``compare --json`` with it: the
counts the Status column's reason says ("failed (2 of 4 tool calls failed, 1 not recorded)"), as numbers a script
reads in any language, and the reason in English words (as every sentence of a ``--json`` object is English:
docs/cli-json.md)."""

from __future__ import annotations

from typing import Any

from inspector.i18n import in_english
from inspector.i18n.recovery import recovery_text
from inspector.store.recovery import UNRECORDED, Recovery


def reason_dict(reason: Recovery | None) -> dict[str, Any] | None:
    """``reason`` (:func:`inspector.store.recovery.page_reasons`' of a run) as ``runs list --json``'s ``reason``:
    ``failed``, ``cancelled`` and ``unrecorded`` of the run's ``calls`` tool calls; ``failed_as`` how every failed
    call ended where known (``timed_out``, ``refused``), else ``null``; ``model_answered`` whether the model still
    gave its answer after them; ``text`` the reason in English. ``None`` for a run whose status says no reason."""
    if reason is None:
        return None
    # An ok run's reason counts its calls with no outcome recorded in the place of failed ones: said as they are.
    unrecorded = reason.failed if reason.kind == UNRECORDED else reason.unrecorded
    failed = 0 if reason.kind == UNRECORDED else reason.failed
    with in_english():
        text = recovery_text(*reason.said())
    return {"failed": failed, "calls": reason.calls, "cancelled": reason.cancelled, "unrecorded": unrecorded,
            "failed_as": None if reason.kind == UNRECORDED else reason.kind, "model_answered": reason.answered,
            "text": text}


__all__ = ["reason_dict"]
