"""How long something took, as the readable output prints it (``--json`` keeps milliseconds): the
window's one duration format ("0.055 s", "6.0 s", "2 min 5 s")."""

from __future__ import annotations

from inspector.i18n.formatting import format_duration


def readable_duration(ms: float | None) -> str:
    """``ms`` milliseconds in the window's duration format ("0.055 s" / "0,055 s", "6.0 s"); "-" if unknown."""
    if ms is None:
        return "-"
    return format_duration(ms / 1000)

