"""The runs whose server a searched text names as the Runs list shows it: by the name the user gave it (the
Server column says "weather", not its address), the window's demo entry by its name in the reader's language
("Demo-Server"). The search looked at the runs' addresses alone, so the name a row showed found no run while
the list's hint said the search looks in the servers.

A run imported with a loopback address is not named so (its 127.0.0.1 was the machine it was recorded on;
the Runs list shows it by its address: ``inspector.i18n.run_cells.names_for``)."""

from __future__ import annotations

import json
from typing import Any

from inspector.i18n.entry_names import shown_name
from inspector.i18n.folding import fold
from inspector.runs.loopback import names_this_machine

from .run_store import RunStore
from .servers import ServerRegistry


def server_names(store: RunStore) -> dict[str, str]:
    """The names the servers registry gives to server addresses (those that have a name): what the Runs list
    and ``runs list`` name a run's server by."""
    return {record.url: record.name for record in ServerRegistry(store.db).all() if record.name}


def named_server_condition(store: RunStore, text: str) -> tuple[str, list[Any]]:
    """" OR (…)" that a run's server is one whose shown name holds ``text`` (folded, as the titles are), and
    its values; "" when no configured server's name holds it."""
    wanted = fold(text.strip())
    here: list[str] = []  # the addresses whose runs are named so when made here only (a loopback address)
    anywhere: list[str] = []
    for url, name in store.db.conn.execute("SELECT url, name FROM servers WHERE COALESCE(name, '') != ''"):
        shown = shown_name(name, url) or ""
        if wanted and wanted in fold(shown):
            (here if _loopback(url) else anywhere).append(url)
    # The addresses as one JSON array each (any number of servers is one value).
    parts, values = [], []
    if anywhere:
        parts.append("COALESCE(server, '') IN (SELECT value FROM json_each(?))")
        values.append(json.dumps(anywhere))
    if here:
        parts.append("(COALESCE(server, '') IN (SELECT value FROM json_each(?)) AND source != 'imported')")
        values.append(json.dumps(here))
    return (" OR " + " OR ".join(parts) if parts else ""), values


def _loopback(url: str) -> bool:
    try:
        return names_this_machine(url)
    except ValueError:  # an address urlsplit cannot read: not the machine's, as the list reads it
        return False


__all__ = ["named_server_condition", "server_names"]
