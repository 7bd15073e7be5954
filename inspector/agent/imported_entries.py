"""What adding a configuration file's entry does to the servers configured here, as ``servers set`` does it.

A server is configured once, under its key (its address, or its command line without its credentials). An entry of
a server configured under another name renames it (its runs and health stay its own), as ``servers set NEW --command
SAME`` does; an entry whose command another name configures with other credentials (``--token T2`` where it has
``--token T``) is skipped, naming that server, as ``servers set`` refuses it: added, it would replace that server
whole, its name and its credentials.
"""

from __future__ import annotations

import dataclasses

from inspector.mcp import ServerEndpoint, public_url
from inspector.mcp.messages import N_, Message
from inspector.mcp.server_configs import ConfiguredServer, ServerConfig, SkippedServer
from inspector.store.server_keys import configured_otherwise, keyed_before
from inspector.store.servers import ServerRecord, ServerRegistry

__all__ = ["entry_key", "renamed_by", "without_taken"]


def entry_key(entry: ConfiguredServer) -> str:
    """The key an entry is configured under (its address as kept, or its command line without its credentials)."""
    if entry.command is not None:
        return ServerEndpoint.for_command(entry.command).key
    return public_url(entry.url or "")


def without_taken(config: ServerConfig, registry: ServerRegistry) -> ServerConfig:
    """``config`` with each entry whose command another name configures with other credentials among the skipped,
    naming that server."""
    kept, skipped = [], list(config.skipped)
    for entry in config.servers:
        other = None if entry.command is None else configured_otherwise(
            registry, entry_key(entry), entry.name, entry.command.argv)
        if other is None or other.name is None:
            kept.append(entry)
            continue
        skipped.append(SkippedServer(entry.name, Message(N_(
            "{other} is configured with this command, its credentials aside, and a server is configured once: give "
            "{other} these credentials, or remove {other} first"), {"other": other.name})))
    return dataclasses.replace(config, servers=tuple(kept), skipped=tuple(skipped))


def renamed_by(registry: ServerRegistry, entry: ConfiguredServer) -> ServerRecord | None:
    """The server configured under another name that adding ``entry`` renames (the same address or command; a command
    configured before its key left its credentials out too, whose runs and health then go to the entry's key);
    ``None`` for none."""
    key = entry_key(entry)
    same = registry.get(key)
    if (same is None or same.name is None) and entry.command is not None:
        same = keyed_before(registry, key, entry.command.argv)
    name = entry.name_kept(key)
    if same is None or same.name is None or name is None or same.name == name:
        return None
    return same
