"""One deadline per operation, spent across its legs (ADR-170)."""

from __future__ import annotations

import math
from fractions import Fraction

from .clock import NANOS_PER_SECOND, Clock, MonotonicClock

DEFAULT_BUDGET_SECONDS = 20.0
MINIMUM_LEG_SECONDS = 1


def parse_budget(value: object) -> float:
    """Turn a configured budget into seconds.

    Empty, non-numeric, non-finite or non-positive values fall back to the 20-second default;
    a positive value below the one-second leg floor is raised to it; there is no upper clamp
    (a long budget costs the person who set it the wait they asked for).
    """
    if value is None or isinstance(value, bool):
        return DEFAULT_BUDGET_SECONDS
    if isinstance(value, (int, float)):
        seconds = float(value)
    else:
        text = str(value).strip()
        if not text:
            return DEFAULT_BUDGET_SECONDS
        try:
            seconds = float(text)
        except ValueError:
            return DEFAULT_BUDGET_SECONDS
    if not math.isfinite(seconds) or seconds <= 0:
        return DEFAULT_BUDGET_SECONDS
    return max(seconds, float(MINIMUM_LEG_SECONDS))


class BudgetExhausted(Exception):
    """Raised by :meth:`OperationDeadline.grant` when nothing is left; the leg must not be sent."""

    def __init__(self, budget_s: float, remaining_s: float) -> None:
        super().__init__(f"the {budget_s:g}-second budget is used up")
        self.budget_s = budget_s
        self.remaining_s = remaining_s


class OperationDeadline:
    """The time budget of one operation, opened when the operation starts.

    Each leg asks :meth:`grant` what it may spend: the remaining time rounded up to whole
    seconds and never below :data:`MINIMUM_LEG_SECONDS`. When no time remains the leg is
    refused, so the overrun this admits is under one second per operation.
    """

    def __init__(self, budget_s: object = None, clock: Clock | None = None) -> None:
        self._clock = clock or MonotonicClock()
        self.budget_s = parse_budget(budget_s)
        self._started_ns = self._clock.now_ns()
        # Exact arithmetic: a budget of 1e300 s is allowed (no upper clamp) and must not overflow.
        self._end_ns = self._started_ns + round(Fraction(self.budget_s) * NANOS_PER_SECOND)

    @property
    def clock(self) -> Clock:
        return self._clock

    def remaining_s(self) -> float:
        """Seconds left; negative once the deadline has passed."""
        return (self._end_ns - self._clock.now_ns()) / NANOS_PER_SECOND

    def elapsed_s(self) -> float:
        """Seconds since the operation opened its deadline."""
        return (self._clock.now_ns() - self._started_ns) / NANOS_PER_SECOND

    def grant(self) -> int:
        """Whole seconds the next leg may spend, or :class:`BudgetExhausted` if none are left."""
        remaining_ns = self._end_ns - self._clock.now_ns()
        if remaining_ns <= 0:
            raise BudgetExhausted(self.budget_s, remaining_ns / NANOS_PER_SECOND)
        whole = -(-remaining_ns // NANOS_PER_SECOND)  # ceiling division, exact on integers
        return max(int(whole), MINIMUM_LEG_SECONDS)
