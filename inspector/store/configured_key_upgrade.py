"""Schema version 18: a configured command server keyed with its credentials, under the key a save gives it now.

`servers set NAME --command "sh -c 'srv --token T'"` keyed the server ``stdio:sh -c 'srv --token T'`` before a
credential inside a word of several was left out of a command server's key (``--token T`` itself before the key left
any out), and the schema 15 step left a configured server's key as it was, to be changed when it is saved again: the
key, and with it `runs show`, the window's tooltip and each run's row, showed T until then. This step gives each such
server the key that saving it gives (``stdio:sh -c 'srv --token '…``, the rule an import keeps a key by:
:func:`inspector.mcp.address_query.address_to_keep`); its runs and health go with it (its steps' sentences naming
it so too, as schema 15 does), and the keyring entries of its secrets (variables' values) are moved to the new key
when a keyring is usable. Its configuration keeps the words as given: the program starts with them.

Two configured servers whose commands differ only in a credential (``--token A``, ``--token B``) are one server for
a save now (it refuses the second under another name); configured before, each keeps its own runs: the first (by its
key) takes the key, each other one that key with ``'#2'``, ``'#3'``… after it. It runs in the upgrade's one
transaction, with SQLite's secure delete on, so that the rows it replaces leave no copy of T in the file.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from .command_key_upgrade import move_health, name_runs_anew

__all__ = ["key_configured_servers_anew"]

#: A key moved, and the keyring entries (accounts) its row says are kept beside it.
_Moved = tuple[str, str, set[str]]


def key_configured_servers_anew(conn: sqlite3.Connection) -> Callable[[], None] | None:
    """Put each configured command server keyed with its credentials under the key it has now; run inside the
    upgrade's transaction. Returned: removing the keyring entries under the old keys, once that is committed."""
    from inspector.mcp.address_query import address_to_keep  # the rule a key leaves credentials out by

    secure = conn.execute("PRAGMA secure_delete").fetchone()[0]
    conn.execute("PRAGMA secure_delete = ON")
    try:
        moved = _key_anew(conn, address_to_keep)
    finally:
        conn.execute(f"PRAGMA secure_delete = {int(secure)}")
    return _copy_secrets([move for move in moved if move[2]])


def _key_anew(conn: sqlite3.Connection, address_to_keep: Callable[[str], str]) -> list[_Moved]:
    from .servers import stored_accounts  # the registry's reading of a row (it opens the database: loaded here)

    taken = {url for (url,) in conn.execute("SELECT url FROM servers")}
    moved: list[_Moved] = []
    for old, headers, command in conn.execute("SELECT url, headers, command FROM servers WHERE url LIKE 'stdio:%'"
                                              " ORDER BY url").fetchall():
        if (shown := address_to_keep(old)) == old:
            continue
        new = free_key(shown, taken)
        taken.add(new)
        conn.execute("UPDATE servers SET url = ? WHERE url = ?", (new, old))
        name_runs_anew(conn, old, new, said=shown)
        move_health(conn, old, new)
        moved.append((old, new, stored_accounts(headers, command)))
    return moved


def free_key(key: str, taken: set[str]) -> str:
    """``key``, or when a configured server has it, ``key`` and ``'#2'`` (``'#3'``, …) after it: a key no other has
    that names the same command line (it reads back as itself: the words quoted as a shell needs them)."""
    number = 1
    found = key
    while found in taken:
        number += 1
        found = f"{key} '#{number}'"
    return found


def _copy_secrets(moved: list[_Moved]) -> Callable[[], None] | None:
    """The keyring entries kept beside each old key, copied under its new key; returned: removing those copied from
    the old keys, for once the upgrade is committed. Removed before, a stop or a failure that rolled the upgrade back
    left the database naming the old key and the keyring holding the value under the new one alone (the older Run
    Inspector asked for it as one never kept). A copy a rollback leaves is written again by the next upgrade. An entry
    the keyring does not give (none is usable, it is locked) stays where it is, and its value is asked for where it
    is needed, as one never kept."""
    if not moved:
        return None
    from .secrets import system_secret_keeper  # the registry's keyring (a fifth of a second to find: when needed)

    keeper = system_secret_keeper()
    if not keeper.available:
        return None
    copied = [(old, account) for old, new, accounts in moved for account in sorted(accounts)
              if (value := keeper.load(old, account)) is not None and keeper.save(new, account, value)]

    def remove_old() -> None:
        for old, account in copied:
            keeper.delete(old, account)

    return remove_old if copied else None
