"""A command server's key, which leaves its credentials out (``stdio:cmd --token …``): one configured server per key.

A configured server saved anew under another key that names the same server: its runs and its health go with it.

A command server configured before its credentials were left out of its key (``stdio:cmd --token T``) keeps that key
until it is saved again, and is then keyed ``stdio:cmd --token …``; its runs and health stayed under the key holding
T: two servers in `runs list` and the window (the earlier one shown with T, its name lost) and T in each run's row.
(A database upgraded to schema 18 has none left: :mod:`.configured_key_upgrade` keys them anew.)
The same command with other credentials under another name is that server: saved, it would replace it whole.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from .command_key_upgrade import move_health
from .servers import ServerRecord, ServerRegistry

__all__ = ["configured_otherwise", "keyed_before", "move_runs_and_health"]


def configured_otherwise(registry: ServerRegistry, key: str, name: str | None, argv: Sequence[str],
                         editing: str | None = None) -> ServerRecord | None:
    """The command server another name configures under ``key`` with other words than ``argv`` (its credentials
    aside, ``--token T`` where ``argv`` has ``--token T2``), which saving ``argv`` under ``name`` would replace;
    ``None`` when there is none (the server ``editing``, its key before an edit, is no other)."""
    other = registry.get(key) or _keyed_with_credentials(registry, key)
    if (other is None or other.command is None or other.url == editing or other.name in (None, name)
            or [other.command.program, *other.command.args] == list(argv)):
        return None
    return other


def keyed_before(registry: ServerRegistry, key: str, argv: Sequence[str]) -> ServerRecord | None:
    """The command server configured with the words ``argv`` themselves under a key that held its credentials, which
    is ``key`` once saved again: saving ``argv`` under another name renames it (its runs and health go with it), as
    it did while both had one key; ``None`` for none."""
    other = _keyed_with_credentials(registry, key)
    if other is None or other.command is None or [other.command.program, *other.command.args] != list(argv):
        return None
    return other


def _keyed_with_credentials(registry: ServerRegistry, key: str) -> ServerRecord | None:
    """The command server configured under a key holding its credentials that is ``key`` once saved again."""
    from inspector.mcp.address_query import address_to_keep  # the rule a key leaves credentials out by

    return next((record for record in registry.all() if record.command is not None and record.url != key
                 and address_to_keep(record.url) == key), None)


def move_runs_and_health(conn: sqlite3.Connection, old: str, new: str) -> None:
    """Put the runs and the health stored under the server key ``old`` under ``new`` (added to a health ``new`` has
    already, as the schema 15 step adds them: its own was dropped). Run in the transaction that saves the server
    anew."""
    conn.execute("UPDATE runs SET server = ? WHERE server = ?", (new, old))
    move_health(conn, old, new)
