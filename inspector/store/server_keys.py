"""A configured server saved anew under another key that names the same server: its runs and its health go with it.

A command server configured before its credentials were left out of its key (``stdio:cmd --token T``) keeps that key
until it is saved again, and is then keyed ``stdio:cmd --token …``; its runs and health stayed under the key holding
T: two servers in `runs list` and the window (the earlier one shown with T, its name lost) and T in each run's row.
"""

from __future__ import annotations

import sqlite3

__all__ = ["move_runs_and_health"]


def move_runs_and_health(conn: sqlite3.Connection, old: str, new: str) -> None:
    """Put the runs and the health stored under the server key ``old`` under ``new`` (a health ``new`` has already
    is kept; ``old``'s goes with the server). Run in the transaction that saves the server anew."""
    conn.execute("UPDATE runs SET server = ? WHERE server = ?", (new, old))
    conn.execute("UPDATE OR IGNORE server_health SET url = ? WHERE url = ?", (new, old))
