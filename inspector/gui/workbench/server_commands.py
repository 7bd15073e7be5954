"""Command servers for the Servers panel: the endpoint to start, the dialog's fields, what is saved.

A secret variable's value lives in the keyring (``"{key} env:{NAME}"``) or, without a keyring, in
this session's secrets (never in the database); the dialog never gets it back in clear.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from inspector.mcp import InvalidServerError, ServerEndpoint
from inspector.mcp.server_command import InvalidCommandError, ServerCommand
from inspector.store import ServerRecord, ServerRegistry, is_secret_variable
from inspector.store.servers import env_account

if TYPE_CHECKING:
    from .server_admin import ServerAdmin
    from .server_endpoints import ServerEndpoints


def _session_value(endpoints: ServerEndpoints, key: str):
    return lambda name: endpoints.session_secrets.get((key, env_account(name)))


def command_endpoint(endpoints: ServerEndpoints, record: ServerRecord) -> ServerEndpoint:
    """The configured command server with its secret variables (keyring, else this session's)."""
    setting = endpoints.registry.command_for(record.url, ask=_session_value(endpoints, record.url))
    if setting is None:
        # Listed by its health only (its configuration is gone): nothing to start.
        from inspector.mcp.messages import N_, Message

        raise InvalidServerError(Message(N_("No command is configured for {name}: it is listed by its health "
                                            "only (started elsewhere, e.g. by the command line's --stdio). "
                                            "Edit… fills its command line in; OK configures it."),
                                          {"name": record.name or record.url}))
    from inspector.agent.server_commands import command_of  # the agent's package: loaded when a command runs

    try:
        return ServerEndpoint.for_command(command_of(setting), name=record.name, era=record.era, key=record.url)
    except InvalidCommandError as error:  # a stored command no program can receive: said, not raised
        raise InvalidServerError(error.sentence) from None


def command_fields(endpoints: ServerEndpoints, record: ServerRecord) -> dict[str, Any]:
    """The dialog's Command fields for a configured command server: secret values never in clear
    (a kept one is marked "kept in the keyring")."""
    setting = record.command
    if setting is None:
        return {"command_line": record.url.removeprefix("stdio:")}
    env = []
    for variable in setting.env:
        if variable.secret:
            kept = endpoints.secrets.load(record.url, env_account(variable.name)) is not None or \
                (record.url, env_account(variable.name)) in endpoints.session_secrets
            env.append((variable.name, "", True, kept))
        else:
            env.append((variable.name, variable.value or "", False, False))
    return {"command_line": shlex.join([setting.program, *setting.args]), "cwd": setting.cwd, "env": env}


def taken_by_other(endpoints: ServerEndpoints, editing: str | None) -> Callable[[str, str | None, ServerCommand],
                                                                                str | None]:
    """What the dialog asks of a command (its key, the name given): the sentence naming the server another name
    configures with it, its credentials aside (one key: saved, it would replace that server whole); ``None`` for
    none. ``editing``: the key of the server the dialog edits."""
    from inspector.i18n import _
    from inspector.store.server_keys import configured_otherwise

    def taken(key: str, name: str | None, command: ServerCommand) -> str | None:
        other = configured_otherwise(endpoints.registry, key, name, command.argv, editing)
        if other is None:
            return None
        return _("{other} is configured with this command, its credentials aside, and a server is configured "
                 "once: edit {other} to give it these credentials, or remove it first.").format(other=other.name)

    return taken


def keyed_before_key(registry: ServerRegistry, key: str, command: ServerCommand) -> str | None:
    """The key ``command`` was configured under before its key left its credentials out (``stdio:cmd --token T``),
    under any name: saved, it takes that server's place, its runs and health, as ``servers set`` renames it; ``None``
    for none (the same key renames itself)."""
    from inspector.store.server_keys import keyed_before

    earlier = keyed_before(registry, key, command.argv)
    return earlier.url if earlier is not None else None


def fold_in(admin: ServerAdmin, earlier: str, key: str) -> None:
    """The command server configured under ``earlier`` (its key holding its credentials) goes, its process stopped,
    its runs and health going to ``key``, the same command saved anew under another name."""
    from inspector.store.server_keys import move_runs_and_health

    admin.changing.emit(earlier)
    admin.endpoints.forget(earlier)
    admin.engine.stop_server(earlier)
    admin.consoles.forget(earlier)
    move_runs_and_health(admin.store.db.conn, earlier, key)
    admin.registry.remove_server(earlier)


def save_command(endpoints: ServerEndpoints, key: str, command: ServerCommand, replaces: str | None,
                 kept: set[str]) -> ServerCommand:
    """``command`` with the kept secret values (of ``replaces``) put back, and its secret values
    remembered for this session (the keyring may be missing)."""
    env = dict(command.env)
    if kept and replaces:
        old = endpoints.registry.command_for(replaces, ask=_session_value(endpoints, replaces))
        for variable in old.env if old is not None else ():
            if variable.name in kept and variable.value is not None:
                env[variable.name] = variable.value
    for name, value in env.items():
        if is_secret_variable(name, command.secret_env):
            endpoints.session_secrets[(key, env_account(name))] = value
    return ServerCommand(command.program, command.args, env, command.cwd, secret_env=command.secret_env)


__all__ = ["command_endpoint", "command_fields", "fold_in", "keyed_before_key", "save_command", "taken_by_other"]
