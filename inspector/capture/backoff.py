"""When to try a push again: exponential backoff with a cap and jitter, or what the collector asked.

The n-th retry waits a random time between half and all of ``min(CAP_S, BASE_S * 2**(n-1))``
("equal jitter": never zero, yet many clients that failed together do not come back together).
A ``Retry-After`` the collector sent (seconds or an HTTP date) is honoured instead, up to
:data:`RETRY_AFTER_CAP_S`.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from email.utils import parsedate_to_datetime

BASE_S = 1.0
CAP_S = 300.0
#: A Retry-After longer than this (an hour) is read as this: a push is not put off for days.
RETRY_AFTER_CAP_S = 3600.0


def backoff_s(attempts: int, rng: random.Random | None = None) -> float:
    """How long to wait after the ``attempts``-th failed attempt (1 for the first)."""
    ceiling = min(CAP_S, BASE_S * 2 ** max(0, min(attempts, 32) - 1))
    return (rng or random).uniform(ceiling / 2, ceiling)


def retry_after_s(value: str | None, now: datetime | None = None) -> float | None:
    """The wait a ``Retry-After`` header asks for, in seconds (None when absent or unreadable)."""
    if value is None:
        return None
    text = value.strip()
    if text.isdigit():
        return min(float(text), RETRY_AFTER_CAP_S)
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    wait = (when - (now or datetime.now(timezone.utc))).total_seconds()
    return min(max(wait, 0.0), RETRY_AFTER_CAP_S)


def due_after(now: datetime, seconds: float) -> datetime:
    """``now`` plus ``seconds``."""
    return now + timedelta(seconds=seconds)
