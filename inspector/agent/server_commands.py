"""A command server between the client and the store: :class:`ServerCommand` (what is started) and
:class:`CommandSetting` (what is configured, a secret variable by name with its value in the keyring)."""

from __future__ import annotations

from inspector.mcp.server import ServerEndpoint
from inspector.mcp.server_command import ServerCommand
from inspector.store import CommandSetting, EnvSetting, ServerRegistry, is_secret_variable


def command_of(setting: CommandSetting) -> ServerCommand:
    """The command to start; variables without a value (a secret not in the keyring) are left out."""
    return ServerCommand(setting.program, setting.args,
                         {variable.name: variable.value for variable in setting.env if variable.value is not None},
                         setting.cwd, secret_env=frozenset(v.name for v in setting.env if v.secret))


def setting_of(command: ServerCommand) -> CommandSetting:
    """The command as the store keeps it: which variables are secret (by name or marked) decided here."""
    return CommandSetting(command.program, command.args, command.cwd,
                          tuple(EnvSetting(name, is_secret_variable(name, command.secret_env), value)
                                for name, value in command.env.items()))


def configured_command(registry: ServerRegistry, key: str, name: str | None = None,
                       ask: object = None) -> ServerEndpoint | None:
    """The configured command server ``key`` as an endpoint, its secrets loaded (or asked for by
    ``ask(variable name)``), spoken to in its configured era; ``None`` when ``key`` is no configured command."""
    setting = registry.command_for(key, ask=ask)  # type: ignore[arg-type]
    if setting is None:
        return None
    configured = registry.settings(key)
    return ServerEndpoint.for_command(command_of(setting), name=name, era=configured.era if configured else "auto",
                                      key=key)


__all__ = ["command_of", "configured_command", "setting_of"]
