"""Monotonic time behind a small seam, so deadline arithmetic can be tested on a fake clock."""

from __future__ import annotations

import threading
import time
from typing import Protocol

NANOS_PER_SECOND = 1_000_000_000


class Clock(Protocol):
    """A source of monotonic time. Never the wall clock: an NTP step must not move a deadline."""

    def now_ns(self) -> int:
        """Return a monotonic reading in nanoseconds."""


class MonotonicClock:
    """The real clock: ``time.monotonic_ns()``."""

    def now_ns(self) -> int:
        return time.monotonic_ns()


class FakeClock:
    """A clock that only moves when told to. For deadline arithmetic in tests."""

    def __init__(self, start_ns: int = 0) -> None:
        self._now = start_ns
        self._lock = threading.Lock()

    def now_ns(self) -> int:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        """Move the clock forward by ``seconds`` (may be fractional)."""
        if seconds < 0:
            raise ValueError("a monotonic clock never goes back")
        with self._lock:
            self._now += round(seconds * NANOS_PER_SECOND)
