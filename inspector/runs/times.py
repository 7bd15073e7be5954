"""Stored times: UTC, ISO 8601, one fixed width, so that text order is time order.

The run model, the store and the trace files all use this one form; it is formatted for a
reader only at display time.
"""

from __future__ import annotations

from datetime import datetime, timezone

__all__ = ["from_stored_time", "to_stored_time", "utc_now"]


def utc_now() -> datetime:
    """Now, in UTC."""
    return datetime.now(timezone.utc)


def to_stored_time(moment: datetime | None) -> str:
    """UTC, ISO 8601, fixed width (so text order is time order). '' means unknown."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        raise ValueError("stored times must be timezone-aware")
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_stored_time(text: str | None) -> datetime | None:
    """The moment a stored time names; ``None`` for '' (unknown)."""
    if not text:
        return None
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)
