"""A read of the steps' payloads in SQL that SQLite may refuse: a payload nested deeper than its JSON parser goes
is not JSON to it, and the whole statement fails. The read is made as it is (each payload parsed once), and only
if SQLite refused it, again with each payload checked first (one that is not JSON read as ``{}``).

A read broken off (``Connection.interrupt``: the window closing while its reader thread reads) is not read
again: it was taken for a payload SQLite could not read, and the close waited for a whole second read, every
payload checked (a span tree of 200,000 steps: 2.6-3.8 s)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

Read = TypeVar("Read")


def checked(column: str) -> str:
    """The payload of ``column`` as SQL that reads ``{}`` for one SQLite cannot read as JSON."""
    return f"CASE WHEN json_valid({column}) THEN {column} ELSE '{{}}' END"


def read_payloads(read: Callable[[str], Read], column: str = "payload") -> Read:
    """``read(column)``, its SQL reading the payloads of ``column`` as they are; where SQLite refuses that,
    ``read`` again with each payload checked (:func:`checked`). Broken off, it raises."""
    try:
        return read(column)
    except sqlite3.OperationalError as error:  # a payload SQLite cannot read (e.g. nested deeper than it parses)
        if error.sqlite_errorcode == sqlite3.SQLITE_INTERRUPT:
            raise  # broken off (the window closes): not read again
        return read(checked(column))


__all__ = ["checked", "read_payloads"]
