"""A reader's connection slowed for some seconds by SQLite's progress handler, as a far bigger database's reads
would be (a window's close must break them off, not wait for them)."""

from __future__ import annotations

import sqlite3
import time


def slowed(conn: sqlite3.Connection, seconds: float, pause: float, every: int) -> list[int]:
    """Sleep ``pause`` at each ``every`` steps of SQLite's machine on ``conn`` for ``seconds``; the calls made."""
    slow_until, calls = time.monotonic() + seconds, []

    def slowly() -> int:
        calls.append(1)
        if time.monotonic() < slow_until:
            time.sleep(pause)
        return 0

    conn.set_progress_handler(slowly, every)
    return calls


__all__ = ["slowed"]
