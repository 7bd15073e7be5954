"""Progress reports for long store operations (importing and exporting traces), a few a second."""

from __future__ import annotations

import time
from collections.abc import Callable

PROGRESS_INTERVAL_S = 0.1
"""The usual time between two progress reports."""


class ProgressMeter:
    """Counts the work done towards ``total`` and calls ``callback(done, total)`` at most every
    ``interval`` seconds, then once more (with ``done == total``) from :meth:`done`.

    The callback may raise (e.g. to cancel); the exception reaches the caller of :meth:`advance`
    or :meth:`done`.
    """

    def __init__(self, callback: Callable[[int, int], None] | None, total: int, interval: float) -> None:
        self._callback = callback
        self._total = total
        self._interval = interval
        self._done = 0
        self._last = time.monotonic()

    @property
    def total(self) -> int:
        """The amount of work that makes 100%."""
        return self._total

    def advance(self, count: int = 1) -> None:
        """Count ``count`` more units of work done (never past the total)."""
        self._done = min(self._done + count, self._total)
        now = time.monotonic()
        if self._callback is not None and now - self._last >= self._interval:
            self._last = now
            self._callback(self._done, self._total)

    def done(self) -> None:
        """Report the work complete."""
        if self._callback is not None:
            self._callback(self._total, self._total)
