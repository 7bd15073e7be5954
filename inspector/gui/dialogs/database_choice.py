"""What the user may choose about a run database that cannot be used (no Qt: start-up reads it
before it knows whether the dialog is needed)."""

from __future__ import annotations

from enum import Enum


class DatabaseChoice(Enum):
    """What the user chose to do about a run database that cannot be used."""

    MOVE_ASIDE = "move_aside"  # rename the damaged file (never delete it) and start a fresh one
    RETRY = "retry"  # the lock may be gone now
    OTHER = "other"  # open (or create) another database file
    QUIT = "quit"


__all__ = ["DatabaseChoice"]
