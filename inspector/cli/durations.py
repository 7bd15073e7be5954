"""How long a leg took, as the readable output prints it (``--json`` keeps milliseconds)."""

from __future__ import annotations

from inspector.i18n import _
from inspector.i18n.formatting import format_fixed


def readable_duration(ms: float | None) -> str:
    """Milliseconds below one second ("55.0 ms" / "55,0 ms"), seconds from one second on ("6.01 s"); "-" if
    unknown. Fixed decimals, so the column of a leg table lines up."""
    if ms is None:
        return "-"
    if ms < 1000:
        return _("{ms} ms").format(ms=format_fixed(ms, 1))
    return _("{seconds} s").format(seconds=format_fixed(ms / 1000, 2))
