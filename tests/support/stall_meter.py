"""How long the GUI thread was kept from its events: a QTimer ticking every 20 ms on it notes the
longest gap between two ticks (a gap past a frame or two means the window froze that long)."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer

TICK_MS = 20


class StallMeter:
    """Started with :meth:`start`; :attr:`longest_s` is the longest wait between two ticks so far."""

    def __init__(self) -> None:
        self.longest_s = 0.0
        self._last: float | None = None
        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(self._tick)

    def start(self) -> StallMeter:
        self._last = time.monotonic()
        self._timer.start()
        return self

    def stop(self) -> float:
        """Stop ticking (the wait until now counts); the longest gap."""
        self._tick()
        self._timer.stop()
        return self.longest_s

    def _tick(self) -> None:
        now = time.monotonic()
        if self._last is not None:
            self.longest_s = max(self.longest_s, now - self._last)
        self._last = now
