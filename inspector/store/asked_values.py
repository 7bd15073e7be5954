"""The headers and variables an imported file leaves to ask for (``${input:…}``) that nobody gave, of a server
configured at the same address or command already: they keep the values it has (the import replaces its settings,
and dropped them: ``servers --json`` imported back where it was printed took every secret header away)."""

from __future__ import annotations

from collections.abc import Iterable

from .servers import ServerRegistry


def configured_values(registry: ServerRegistry, key: str, unanswered: Iterable[str]) -> tuple[dict[str, str], set[str]]:
    """The values the server configured at ``key`` keeps for the headers ``unanswered`` (none if it is not
    configured, or its keyring does not give them), and which of them are secret (a plain one stays plain)."""
    wanted = {name.lower() for name in unanswered}
    stored = registry.settings(key) if wanted else None
    if stored is None:
        return {}, set()
    values = {name: value for name, value in registry.headers_for(key).items() if name.lower() in wanted}
    return values, {header.name for header in stored.headers if header.secret and header.name in values}


def configured_variables(registry: ServerRegistry, key: str,
                         unanswered: Iterable[str]) -> tuple[dict[str, str], set[str]]:
    """The values the command server configured at ``key`` keeps for the variables ``unanswered``, and which of
    them are secret (a plain one stays plain)."""
    wanted = set(unanswered)
    command = registry.command_for(key) if wanted else None
    if command is None:
        return {}, set()
    values = {variable.name: variable.value for variable in command.env
              if variable.name in wanted and variable.value is not None}
    return values, {variable.name for variable in command.env if variable.secret and variable.name in values}


__all__ = ["configured_values", "configured_variables"]
