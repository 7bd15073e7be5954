"""``servers --json``'s commands: their credentials as ``…`` (``--token …``), as the list and a server's name show
them, or with ``--with-secrets`` whole, as the configuration keeps them to start the program, with every value the
configuration keeps apart (each header's, a secret variable's, the address's query, a sign-in's client secret: from
the keyring), so that
``servers import`` of that output on another machine adds them again as they were; said on stderr to hold
secrets."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from inspector.i18n import _
from inspector.i18n.messages import NP_
from inspector.store import CommandSetting, ServerRecord, ServerRegistry
from inspector.store.keyring_words import named_secrets
from inspector.store.signin_settings import SignInSetup

from .common import CommandError
from .keyring_refusals import NotingKeeper


def listed_command(command: CommandSetting | None) -> dict[str, object] | None:
    """``command`` as ``servers --json`` lists it: its program and arguments as its name gives them (``…`` for a
    credential), a secret variable by its name only (as ever), and a plain one whose value holds a credential."""
    from inspector.mcp.command_line import shown_words

    if command is None:
        return None
    listed = command.to_dict()
    program, *args = shown_words([command.program, *command.args])
    # A plain variable's value holding a credential (DATABASE_URL=postgres://u:pw@h/db) by its name only, as a secret
    # one's: its import asks for it, or keeps the configured one's.
    env = [{key: value for key, value in variable.items() if key != "value" or not _holds_credential(value)}
           for variable in listed["env"]]  # type: ignore[attr-defined]
    return {**listed, "program": program, "args": args, "env": env}


def _holds_credential(value: object) -> bool:
    """True when the export's rules hide a piece of ``value`` (a password in an address, ``Password=…``, a key)."""
    from inspector.traces.redact import redact_text  # the export's rule, not a copy

    return isinstance(value, str) and redact_text(value) != value


def listed_key(key: str) -> str:
    """A server's key as ``servers --json`` lists it: a command server's configured before its key left its credentials
    out (``stdio:cmd --token T``, until saved again) as it is named now (``stdio:cmd --token …``)."""
    from inspector.mcp.address_query import address_to_keep

    return address_to_keep(key) if key.startswith("stdio:") else key


def with_values(listed: dict[str, object], server: ServerRecord, registry: ServerRegistry) -> bool:
    """Add to ``listed`` (``server`` as ``--with-secrets`` lists it) the values its configuration keeps apart: each
    header's ``value``, a secret variable's, the address's ``query`` (from ``registry``'s keyring; one it does not
    give stays out, to be asked for where it is imported). True when it holds a credential then (one of these, or
    one in its command line)."""
    headers = registry.headers_for(server.url)
    listed["headers"] = [{"name": header.name, "secret": header.secret, **(
        {"value": headers[header.name]} if header.name in headers else {})} for header in server.headers]
    holds = any(header.secret and header.name in headers for header in server.headers)
    if server.secret_query:
        listed["query"] = registry.query_for(server.url)
        holds = holds or listed["query"] is not None
    if server.command is not None:
        loaded = registry.command_for(server.url)
        values = {variable.name: variable.value for variable in loaded.env} if loaded is not None else {}
        stored = server.command.to_dict()
        listed["command"] = {**stored, "env": [{**variable, "value": values[variable["name"]]}
                                               if variable["name"] in values else variable
                                               for variable in stored["env"]]}  # type: ignore[attr-defined]
        holds = holds or any(variable.secret and variable.name in values for variable in server.command.env)
    return holds or (server.command is not None and (
        listed_command(server.command) != server.command.to_dict() or listed_key(server.url) != server.url))


def with_client_secret(listed: dict[str, object], server: ServerRecord, setup: SignInSetup | None, vault: object,
                       keeper: NotingKeeper) -> bool:
    """Add to ``listed`` (``server`` as ``--with-secrets`` lists it) the client secret its sign-in keeps in the
    keyring (``vault``); True when it did. A keyring that would not give it is noted in ``keeper``, as a refusal to
    give a header's value is (:func:`not_whole_error`)."""
    from inspector.store.signin_vault import client_secret_account

    signin = listed.get("signin")
    if setup is None or not setup.client_secret_kept or not isinstance(signin, dict):
        return False
    secret = vault.client_secret(server.url)  # type: ignore[attr-defined]
    if secret is None:
        if (problem := getattr(vault, "problem", None)) is not None:
            keeper.refused.append(("read", server.url, client_secret_account(server.url), problem))
        return False
    listed["signin"] = {**signin, "client_secret": secret}
    return True


def not_whole_error(keeper: NotingKeeper, shown: dict[str, str]) -> CommandError | None:
    """The keyring would not give secrets of the servers ``shown`` (by key): the listing would not be whole (a backup
    missing them), so nothing is printed; the error to end with (``None``: it gave them all)."""
    url = next((url for action, url, _account, _answer in keeper.refused if action == "read"), None)
    if url is None:
        return None
    accounts, answer = keeper.accounts("read", url)
    return CommandError(NP_(
        "The system keyring did not give {names} of {server} ({problem}), so the configuration was not listed "
        "(--with-secrets lists it whole). Unlock the keyring and list it again.",
        "The system keyring did not give {names} of {server} ({problem}), so the configuration was not listed "
        "(--with-secrets lists it whole). Unlock the keyring and list it again.",
        {**named_secrets(accounts), "server": shown.get(url, url), "problem": answer}, "count"))


def said_secrets_listed(names: Sequence[str]) -> None:
    """Say on stderr which servers' credentials ``servers --json --with-secrets`` printed (none: nothing said)."""
    if names:
        print(_("run-inspector: the output holds the credentials of {names} (--with-secrets): keep it as you keep a "
                "password.").format(names=", ".join(names)), file=sys.stderr)


__all__ = ["listed_command", "listed_key", "not_whole_error", "said_secrets_listed", "with_client_secret",
           "with_values"]
