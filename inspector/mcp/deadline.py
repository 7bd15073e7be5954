"""One deadline per operation, spent across its legs (ADR-170)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction

from .clock import NANOS_PER_SECOND, Clock, MonotonicClock

DEFAULT_BUDGET_SECONDS = 20.0
MINIMUM_LEG_SECONDS = 1
#: The largest budget a user may set (a week): a bigger one is a typo, and overflows the timers.
MAXIMUM_BUDGET_SECONDS = 604_800


class BudgetVerdict(str, Enum):
    """How a configured budget was read."""

    #: Nothing was given: the default applies.
    DEFAULT = "default"
    #: Not a positive, finite number of seconds: the default applies (a caller may refuse it instead).
    UNUSABLE = "unusable"
    #: A positive number below the one-second leg floor: raised to the floor.
    RAISED = "raised"
    #: Used as given.
    AS_GIVEN = "as_given"


@dataclass(frozen=True)
class BudgetReading:
    """What a configured budget means: the seconds an operation gets, what was asked, and why they differ.

    This is the one place that decides what a budget is. :func:`parse_budget` (lenient, for settings)
    and the command line (which refuses an unusable value and says when one was raised) both ask it.
    """

    seconds: float
    #: The number that was given, when one could be read.
    requested: float | None
    verdict: BudgetVerdict

    @property
    def usable(self) -> bool:
        return self.verdict is not BudgetVerdict.UNUSABLE


def read_budget(value: object) -> BudgetReading:
    """Read a configured budget.

    Empty or missing → the 20-second default. Non-numeric, non-finite or non-positive → the
    default too, marked *unusable*. A positive value below the one-second leg floor is raised to
    it, marked *raised*. There is no upper clamp (a long budget costs the person who set it the
    wait they asked for).
    """
    if value is None or isinstance(value, bool):
        return BudgetReading(DEFAULT_BUDGET_SECONDS, None, BudgetVerdict.DEFAULT)
    if isinstance(value, (int, float)):
        seconds = float(value)
    else:
        text = str(value).strip()
        if not text:
            return BudgetReading(DEFAULT_BUDGET_SECONDS, None, BudgetVerdict.DEFAULT)
        try:
            seconds = float(text)
        except ValueError:
            return BudgetReading(DEFAULT_BUDGET_SECONDS, None, BudgetVerdict.UNUSABLE)
    if not math.isfinite(seconds) or seconds <= 0:
        return BudgetReading(DEFAULT_BUDGET_SECONDS, seconds, BudgetVerdict.UNUSABLE)
    if seconds < MINIMUM_LEG_SECONDS:
        return BudgetReading(float(MINIMUM_LEG_SECONDS), seconds, BudgetVerdict.RAISED)
    return BudgetReading(seconds, seconds, BudgetVerdict.AS_GIVEN)


def bounded_budget(value: object) -> float | None:
    """The seconds a budget kept somewhere (a server's, the settings', a stored step's) lets an operation run,
    read as :func:`read_budget` reads it; ``None`` when it is no positive number, or more than a week, which
    ``--budget`` and the window's fields refuse (a budget of 1e308 s overflowed the window's countdown, and
    its legs' whole seconds could not be stored)."""
    reading = read_budget(value)
    return reading.seconds if reading.usable and reading.seconds <= MAXIMUM_BUDGET_SECONDS else None


def parse_budget(value: object) -> float:
    """Turn a configured budget into seconds, leniently (see :func:`read_budget`)."""
    return read_budget(value).seconds


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
        #: Seconds that remained when the last leg was granted (a grant may be larger: whole seconds).
        self.remaining_at_grant_s: float | None = None

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
        self.remaining_at_grant_s = remaining_ns / NANOS_PER_SECOND
        return max(int(whole), MINIMUM_LEG_SECONDS)
