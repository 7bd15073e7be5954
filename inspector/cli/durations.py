"""How long a leg took, as the readable output prints it (``--json`` keeps milliseconds)."""

from __future__ import annotations

from inspector.i18n import _


def readable_duration(ms: float | None) -> str:
    """Milliseconds below one second ("55.0 ms"), seconds from one second on ("6.01 s"); "-" if unknown."""
    if ms is None:
        return "-"
    if ms < 1000:
        return _("{ms} ms").format(ms=f"{ms:.1f}")
    return _("{seconds} s").format(seconds=f"{ms / 1000:.2f}")
