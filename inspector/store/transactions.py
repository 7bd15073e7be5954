"""Ending a transaction safely; apart from the database's opening so that modules which only
write through a connection (sign-in settings, eras) do not load sqlite-utils."""

from __future__ import annotations

import sqlite3


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if one is still open.

    A Ctrl-C can land between a COMMIT and the end of its ``try`` block; a ROLLBACK then would
    fail ("no transaction is active") and hide the interrupt behind a database error.
    """
    if conn.in_transaction:
        conn.execute("ROLLBACK")


__all__ = ["rollback"]
