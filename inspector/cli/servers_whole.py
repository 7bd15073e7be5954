"""``servers --json``'s commands: their credentials as ``…`` (``--token …``), as the list and a server's name show
them, or with ``--with-secrets`` whole, as the configuration keeps them to start the program (a backup, another
machine: ``servers import`` of that output adds them again), said on stderr to hold secrets."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from inspector.i18n import ngettext
from inspector.store import CommandSetting, ServerRecord


def listed_command(command: CommandSetting | None) -> dict[str, object] | None:
    """``command`` as ``servers --json`` lists it: its program and arguments as its name gives them (``…`` for a
    credential), a secret variable by its name only (as ever)."""
    from inspector.mcp.command_line import shown_words

    if command is None:
        return None
    listed = command.to_dict()
    program, *args = shown_words([command.program, *command.args])
    return {**listed, "program": program, "args": args}


def listed_key(key: str) -> str:
    """A server's key as ``servers --json`` lists it: a command server's configured before its key left its credentials
    out (``stdio:cmd --token T``, until saved again) as it is named now (``stdio:cmd --token …``)."""
    from inspector.mcp.address_query import address_to_keep

    return address_to_keep(key) if key.startswith("stdio:") else key


def said_secrets_listed(servers: Sequence[ServerRecord]) -> None:
    """Say on stderr which servers' credentials ``servers --json --with-secrets`` printed (none: nothing said)."""
    names = [server.name or listed_key(server.url) for server in servers if server.command is not None and (
        listed_command(server.command) != server.command.to_dict() or listed_key(server.url) != server.url)]
    if names:
        print(ngettext("run-inspector: the output holds the credentials in the command line of {names} "
                       "(--with-secrets): keep it as you keep a password.",
                       "run-inspector: the output holds the credentials in the command lines of {names} "
                       "(--with-secrets): keep it as you keep a password.", len(names)).format(
            names=", ".join(names)), file=sys.stderr)


__all__ = ["listed_command", "listed_key", "said_secrets_listed"]
