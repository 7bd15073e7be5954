"""Schema version 15: a command server's runs and health under the key it has now, its credentials left out.

`call --stdio "cmd --token T"` stored its runs and health under ``stdio:cmd --token T`` before a command server's key
left its credentials out (``stdio:cmd --token …``, :mod:`inspector.mcp.command_line`): `runs list`, the window's
Server column and `servers` showed T (its steps' sentences too: "The server cmd --token T stopped answering"), and
the same command run since was another server. This step puts them under
the key a run made now gets (what an import keeps of that key, :func:`inspector.mcp.address_query.address_to_keep`:
the rule itself, not a copy); one server's health adds up (the later contact's time and latency kept). A configured
server's key stays as it is here: saving it again moves its runs (:mod:`.server_keys`), and the schema 18 step names
it anew (:mod:`.configured_key_upgrade`). It runs in the upgrade's one transaction, with SQLite's secure delete on, so
that the rows it replaces leave no copy of T in the file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["move_health", "name_command_servers_anew", "name_runs_anew", "name_titles_anew"]

_UNCONFIGURED = " LIKE 'stdio:%' AND {column} NOT IN (SELECT url FROM servers)"
#: A server's health: its counts (added up), then its last contact's time and latency and the era found and when.
_COUNTS = ("ok_count", "failed_count", "cancelled_count", "tool_error_count")
_HEALTH = f"SELECT {', '.join(_COUNTS)}, last_contact_at, last_latency_ms, found_era, found_era_at FROM server_health"


def name_command_servers_anew(conn: sqlite3.Connection) -> None:
    """Put the runs and health of each command server not configured under the key it has now; run inside the
    upgrade's transaction."""
    from inspector.mcp.address_query import address_to_keep  # the rule an import keeps a key by: loaded to upgrade

    with _secure_deletes(conn):
        _name_anew(conn, address_to_keep)


def name_titles_anew(conn: sqlite3.Connection) -> None:
    """Title each run of a command server titled by a key holding its credentials (``tools/list stdio:cmd --token
    T``, as `tools`, `ping` and the window title a run: the operation, then the server's key) by the key without them
    (``tools/list stdio:cmd --token …``); run inside the upgrade's transaction. The steps above moved such runs, and
    schema 15 did, their titles holding T: in the Runs list, its search, `runs list` and exports."""
    from inspector.mcp.address_query import address_to_keep  # the rule a key leaves credentials out by

    with _secure_deletes(conn):
        for (title,) in conn.execute("SELECT DISTINCT title FROM runs WHERE title LIKE 'tools/list stdio:%'"
                                     " OR title LIKE 'ping stdio:%'").fetchall():
            operation, _, key = title.partition(" ")
            if (kept := address_to_keep(key)) != key:
                conn.execute("UPDATE runs SET title = ? WHERE title = ?", (f"{operation} {kept}", title))


@contextmanager
def _secure_deletes(conn: sqlite3.Connection) -> Iterator[None]:
    """SQLite's secure delete on meanwhile: the rows a step replaces leave no copy of a credential in the file."""
    secure = conn.execute("PRAGMA secure_delete").fetchone()[0]
    conn.execute("PRAGMA secure_delete = ON")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA secure_delete = {int(secure)}")


def _name_anew(conn: sqlite3.Connection, address_to_keep: Callable[[str], str]) -> None:
    for (old,) in conn.execute("SELECT DISTINCT server FROM runs WHERE server" + _UNCONFIGURED.format(
            column="server")).fetchall():
        if (new := address_to_keep(old)) != old:
            name_runs_anew(conn, old, new)
    health = conn.execute("SELECT url FROM server_health WHERE url" + _UNCONFIGURED.format(column="url")).fetchall()
    for (old,) in health:
        if (new := address_to_keep(old)) != old:
            move_health(conn, old, new)


def name_runs_anew(conn: sqlite3.Connection, old: str, new: str, said: str | None = None) -> None:
    """Put the runs stored under the server key ``old`` under ``new``, and in their steps' sentences that named it
    so ("The server cmd --token T stopped answering") the command line ``said`` (``new``'s unless given)."""
    was, saying = (json.dumps(key.removeprefix("stdio:"), ensure_ascii=False)[1:-1] for key in (old, said or new))
    conn.execute("UPDATE steps SET payload = replace(payload, ?, ?) WHERE run_id IN (SELECT id FROM runs"
                 " WHERE server = ?) AND instr(payload, ?) > 0", (was, saying, old, was))  # as JSON spells it
    conn.execute("UPDATE runs SET server = ? WHERE server = ?", (new, old))


def move_health(conn: sqlite3.Connection, old: str, new: str) -> None:
    """Put the health of the server key ``old`` under ``new``, added to a health ``new`` has already."""
    if conn.execute("SELECT 1 FROM server_health WHERE url = ?", (new,)).fetchone() is None:
        conn.execute("UPDATE server_health SET url = ? WHERE url = ?", (new, old))
        return
    if conn.execute("SELECT 1 FROM server_health WHERE url = ?", (old,)).fetchone() is not None:
        _add_health(conn, old, new)
        conn.execute("DELETE FROM server_health WHERE url = ?", (old,))


def _add_health(conn: sqlite3.Connection, old: str, new: str) -> None:
    """``old``'s health added to ``new``'s: the counts summed, the later contact's time and latency, the later era."""
    (*were, contact, latency, era, era_at) = conn.execute(_HEALTH + " WHERE url = ?", (old,)).fetchone()
    (*are, new_contact, new_latency, new_era, new_era_at) = conn.execute(_HEALTH + " WHERE url = ?", (new,)).fetchone()
    if (contact or "") > (new_contact or ""):
        new_contact, new_latency = contact, latency
    if (era_at or "") > (new_era_at or ""):
        new_era, new_era_at = era, era_at
    counts = [a + b for a, b in zip(were, are, strict=True)]
    conn.execute(f"UPDATE server_health SET {', '.join(f'{name} = ?' for name in _COUNTS)}, last_contact_at = ?,"
                 " last_latency_ms = ?, found_era = ?, found_era_at = ? WHERE url = ?",
                 (*counts, new_contact, new_latency, new_era, new_era_at, new))
