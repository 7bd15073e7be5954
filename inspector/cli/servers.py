"""``servers``, ``servers set`` and ``servers remove``: the configured servers and their health.

A server is an address (Streamable HTTP, or the older HTTP+SSE transport) or a command started
and spoken to over stdin/stdout, configured under a name. Secret values (headers, a command's
environment) go to the system keyring, never to the database, and are never listed.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from inspector.i18n import N_, _, ngettext
from inspector.i18n.entry_names import said_name
from inspector.i18n.messages import Message
from inspector.mcp.address_query import address_to_keep
from inspector.store import CommandSetting, RunStore, ServerRecord, ServerRegistry, ServerSettings
from inspector.store.signin_settings import SignInSetup, StoredSignIn

from .common import EXIT_OK, BadInputError, UsageError, database_path, open_existing_store, open_store
from .ending import emit_json
from .safe_text import one_line
from .server_signin import client_secret_not_kept, reject_signin_options, save_signin_options
from .servers_list import server_lines
from .stopping import stoppable_reading, work_done

if TYPE_CHECKING:
    from .keyring_refusals import NotingKeeper


def run(args: argparse.Namespace) -> int:
    if getattr(args, "with_secrets", False) and args.servers_command is not None:
        raise UsageError(Message(N_("--with-secrets goes with the list alone (`servers --json --with-secrets`: the "
                                    "configuration whole), not with servers {action}."),
                                 {"action": args.servers_command}))
    if getattr(args, "with_secrets", False) and not args.json:
        raise UsageError(Message(N_("--with-secrets goes with --json: `servers --json --with-secrets` lists the "
                                    "configuration whole, for a backup or another machine.")))
    if args.servers_command == "set":
        with open_store(args.db) as store:
            if args.command_line is not None:
                return _configure_command(store, args)
            named = _named(store, args.url)
            if named is not None and (named.command is not None or named.transport == "stdio"):
                return _configure_named_command(store, args, named)
            if named is not None:
                args.url = named.url  # a name given where URL_OR_NAME is asked: that server's address
            return _configure_address(store, args)
    if args.servers_command == "import":
        from .server_import import import_servers

        return import_servers(args)
    store = open_existing_store(args.db)
    if store is None:
        if args.servers_command == "remove":
            raise BadInputError(Message(N_("No configured server is named {name}: the run database {path} does not "
                                           "exist yet."),
                                        {"name": _given_to_quote(args.server), "path": database_path(args.db)}))
        if args.json:
            emit_json({"servers": []})
        else:
            print(_("No servers known yet (the run database {path} does not exist yet).").format(
                path=database_path(args.db)))
        return EXIT_OK
    with store:
        if args.servers_command == "remove":
            return _remove(store, args)
        with stoppable_reading():  # a SIGTERM while it reads or prints ends it as a Ctrl-C does
            return _servers(store, args.json, getattr(args, "with_secrets", False))


def _configure_address(store: RunStore, args: argparse.Namespace) -> int:
    from inspector.mcp import ServerEndpoint, public_url
    from inspector.mcp.address_credentials import AUTHORIZATION
    from inspector.mcp.address_query import address_query
    from inspector.mcp.server import InvalidServerError, scheme_missing
    from inspector.store.secrets import is_secret_header

    from .keyring_refusals import NotingKeeper
    from .operations import parse_budget_option, parse_headers
    from .server_saving import HeldKeeper, HeldVault, saved_whole

    if args.env or args.secret_env or args.cwd is not None:
        raise UsageError(Message(N_("--env, --secret-env and --cwd go with --command (a server started as a "
                                    "command), not with an address.")))
    headers = parse_headers(args.header)
    marked = parse_headers(args.secret_header)
    headers.update(marked)
    try:
        endpoint = ServerEndpoint(args.url, headers=headers, name=args.name)
    except InvalidServerError as exc:
        if "://" not in args.url and scheme_missing(args.url) is None:  # perhaps a name, meant for a command
            # (an address without its scheme, `localhost:8000/mcp`, is told the address it meant instead)
            raise UsageError(Message(N_("{reason}. To configure a server started as a command, write: servers set "
                                        "NAME --command \"COMMAND LINE\""), {"reason": exc.sentence})) from None
        raise UsageError(exc) from None
    reading = parse_budget_option(args.budget)
    removing = NotingKeeper()  # what the keyring did not remove once the server is saved
    held = HeldKeeper(removing)
    keeper = NotingKeeper(held)
    registry = ServerRegistry(store.db, keeper)
    url = public_url(endpoint.url)
    basic = _address_credentials(registry, args.url, url, headers)
    query = address_query(args.url)
    with saved_whole(store, held, keeper, url, one_line(url)):
        registry.save_server(url, name=args.name, budget_s=reading.seconds if reading else None, headers=headers,
                             secret=marked, roots=_roots(args), transport=args.transport,
                             era=getattr(args, "era", None), query=query)
        kept = basic is not None and registry.add_secret_header(url, AUTHORIZATION, basic)
        client_secret_kept = save_signin_options(store, url, args, HeldVault(held, keeper))
    _said_removals(removing, [(url, one_line(url))], url)
    _saved(store, registry, url, args.json, url, credentials_kept=kept,
           query_kept=query is not None and keeper.available)
    if not client_secret_kept:
        client_secret_not_kept()
    secret = [name for name in headers if is_secret_header(name) or name in marked]
    if basic is not None and not kept:
        print(_("run-inspector: no system keyring is available, so the user name and password of the address were "
                "not kept. Give the address with them on each call."), file=sys.stderr)
    if query is not None and not keeper.available:
        print(_("run-inspector: no system keyring is available, so the query of the address was not kept. Give the "
                "address with it on each call (at a terminal you will be asked for it)."), file=sys.stderr)
    if secret and not keeper.available:
        # Said once, here; a later `call` without a terminal does not repeat it.
        print(ngettext(
            "run-inspector: no system keyring is available, so the value of the {names} header was not kept. "
            "Give it with --header on each call (at a terminal you will be asked for it).",
            "run-inspector: no system keyring is available, so the values of the {names} headers were not kept. "
            "Give them with --header on each call (at a terminal you will be asked for them).",
            len(secret)).format(names=", ".join(secret)), file=sys.stderr)
    return EXIT_OK


def _address_credentials(registry: ServerRegistry, given: str, url: str, headers: dict[str, str]) -> str | None:
    """The ``Authorization`` value to keep for the user name and password ``given`` carries; refused
    when an Authorization header would be kept beside it (given now, or stored and not replaced)."""
    from inspector.mcp.address_credentials import CredentialsConflict, basic_authorization, credentials_header

    stored = registry.settings(url)
    configured = list(headers) or [header.name for header in (stored.headers if stored else ())]
    try:
        return credentials_header(given, url, configured)
    except CredentialsConflict as exc:
        same = basic_authorization(given)
        kept = {name.lower(): value for name, value in registry.headers_for(url).items()}
        if not headers and kept.get("authorization") == same:
            return same  # the same user name and password again: nothing is overwritten
        template = (N_("{reason}. To keep the header, give the address without them; to use them instead, leave "
                       "out --header Authorization.") if headers else
                    N_("{reason}. To keep the header, give the address without them; to use them instead, remove "
                       "the server first (servers remove {address}) and set it again."))
        raise UsageError(Message(template, {"reason": exc.sentence, "address": url})) from None


def _named(store: RunStore, given: str | None) -> ServerSettings | None:
    """The configured server ``given`` names (not an address): by its key, else by its display name."""
    if given is None or "://" in given or not given.strip():
        return None
    return ServerRegistry(store.db).find(given)


def _configure_named_command(store: RunStore, args: argparse.Namespace, named: ServerSettings) -> int:
    """``servers set NAME [options]`` without --command: the settings of the command server of that
    name change (its name with --name, its budget, roots, era); its command stays."""
    from .operations import parse_budget_option

    reject_signin_options(args)
    if args.header or args.secret_header or args.transport is not None:
        raise UsageError(Message(N_("--header, --secret-header and --transport are for a server at an address; a "
                                    "command's process gets --env NAME=VALUE.")))
    if args.env or args.secret_env or args.cwd is not None:
        raise UsageError(Message(N_("--env, --secret-env and --cwd change a command: give it again with --command "
                                    "\"COMMAND LINE\".")))
    if args.name is not None:
        replaced_servers(ServerRegistry(store.db), args.name, named.url)  # an address of that name: refused
        if any(record.name == args.name and record.url != named.url for record in ServerRegistry(store.db).all()):
            raise UsageError(Message(N_("{name} already names another server; choose another name."),
                                     {"name": one_line(args.name)}))
    reading = parse_budget_option(args.budget)
    registry = ServerRegistry(store.db)
    registry.save_server(named.url, name=args.name, budget_s=reading.seconds if reading else None,
                         roots=_roots(args), era=getattr(args, "era", None))
    _saved(store, registry, named.url, args.json, said_name(args.name or named.name, named.url))
    return EXIT_OK


def _configure_command(store: RunStore, args: argparse.Namespace) -> int:
    """``servers set NAME --command "CMD"``: the command server of that name, replacing an earlier one."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp import ServerEndpoint
    from inspector.mcp.server_command import InvalidCommandError, parse_command_line
    from inspector.store import is_secret_variable
    from inspector.store.server_keys import keyed_before, move_runs_and_health

    from .keyring_refusals import NotingKeeper
    from .operations import parse_budget_option
    from .server_choice import env_assignments
    from .server_saving import HeldKeeper, saved_whole

    name = args.url
    if args.name is not None:
        raise UsageError(Message(N_("With --command the first word is the server's name; leave --name out.")))
    reject_signin_options(args)
    if args.header or args.secret_header or args.transport is not None:
        raise UsageError(Message(N_("--header, --secret-header and --transport are for a server at an address; a "
                                    "command's process gets --env NAME=VALUE.")))
    if "://" in name or not name.strip():
        raise UsageError(Message(N_("A command server needs a name, not an address: servers set NAME --command "
                                    "\"COMMAND LINE\"")))
    env = env_assignments(args.env)
    marked = env_assignments(args.secret_env, "--secret-env")
    env.update(marked)
    try:
        command = parse_command_line(args.command_line, env, args.cwd)
    except InvalidCommandError as exc:
        raise UsageError(Message(N_("--command cannot be used: {reason}"), {"reason": exc.sentence})) from None
    command = type(command)(command.program, command.args, command.env, command.cwd, frozenset(marked))
    reading = parse_budget_option(args.budget)
    removing = NotingKeeper()  # what the keyring did not remove once the server is saved
    held = HeldKeeper(removing)
    keeper = NotingKeeper(held)
    registry = ServerRegistry(store.db, keeper)
    key = ServerEndpoint.for_command(command, name=name).key
    _refuse_other_credentials(registry, key, name, setting_of(command))
    replaced = replaced_servers(registry, name, key)
    # This command under another name, keyed with its credentials: renamed, as while both had one key.
    renamed = [earlier] if (earlier := keyed_before(registry, key, command.argv)) and earlier not in replaced else []
    era = getattr(args, "era", None)
    if era is None and (replaced or renamed):  # a new command under the same name keeps the era chosen for the name
        era = (replaced or renamed)[0].era
    with saved_whole(store, held, keeper, key, one_line(name)):
        for old in (*replaced, *renamed):
            if address_to_keep(old.url) == key:  # configured before its credentials were left out of its key
                move_runs_and_health(store.db.conn, old.url, key)
            registry.remove_server(old.url)
        registry.save_server(key, name=name, budget_s=reading.seconds if reading else None, roots=_roots(args),
                             command=setting_of(command), era=era)
    _said_removals(removing, [(key, one_line(name)), *((old.url, one_line(old.name or name))
                                                       for old in (*replaced, *renamed))], name)
    _saved(store, registry, key, args.json, name, [address_to_keep(old.url) for old in replaced])  # no --token T
    secret = [variable for variable in env if is_secret_variable(variable, marked)]
    if secret and not keeper.available:
        print(ngettext(
            "run-inspector: no system keyring is available, so the value of the variable {names} was not kept. "
            "Give it with --env on each call (at a terminal you will be asked for it).",
            "run-inspector: no system keyring is available, so the values of the variables {names} were not kept. "
            "Give them with --env on each call (at a terminal you will be asked for them).",
            len(secret)).format(names=", ".join(secret)), file=sys.stderr)
    return EXIT_OK


def _refuse_other_credentials(registry: ServerRegistry, key: str, name: str, setting: CommandSetting) -> None:
    """Refuse a command that is the server another name configures with other credentials (``--token T2`` where it
    has ``--token T``: one key, ``stdio:cmd --token …``): saved, it would replace that server, its name and its
    credentials, as an address with another password is refused."""
    from inspector.mcp.server import STDIO_KEY_PREFIX
    from inspector.store.server_keys import configured_otherwise

    other = configured_otherwise(registry, key, name, [setting.program, *setting.args])
    if other is None or other.name is None:
        return
    raise UsageError(Message(N_("{other} is configured with this command, its credentials aside ({command}), and a "
                                "server is configured once. To give {other} these credentials, write: servers set "
                                "{other} --command \"…\"; to name it {name}, remove {other} first (servers remove "
                                "{other})."),
                             {"other": one_line(other.name), "name": one_line(name),
                              "command": one_line(key.removeprefix(STDIO_KEY_PREFIX))}))


def replaced_servers(registry: ServerRegistry, name: str, key: str) -> list[ServerRecord]:
    """The other command servers already named ``name`` (a new command under that name replaces them).

    An address of that name is not replaced by a command: the user is asked to choose."""
    named = [record for record in registry.all() if record.name == name and record.url != key]
    for record in named:
        if record.command is None and record.transport != "stdio":
            raise UsageError(Message(N_("{name} already names the server {url}; choose another name, or remove "
                                        "that one first (servers remove {url})."),
                                     {"name": one_line(name), "url": record.url}))
    return named


def _roots(args: argparse.Namespace) -> tuple[str, ...] | None:
    from .server_requests import roots_from_options

    given = roots_from_options(args.root)
    return () if args.clear_roots else None if given is None else tuple(root.uri for root in given)


def _said_removals(removing: NotingKeeper, servers: list[tuple[str, str]], shown: str) -> None:
    """The server is saved, but the keyring did not remove a secret the change dropped (``servers``: its key and
    those of the servers it replaced, with their names): the command ends saying so, as ``servers import`` does."""
    from .keyring_refusals import removal_refused

    refused = removal_refused(removing, servers, Message(N_("Saved {url}."), {"url": one_line(shown)}))
    if refused is not None:
        work_done()
        raise refused


def _saved(store: RunStore, registry: ServerRegistry, key: str, as_json: bool, shown: str,
           replaced: list[str] | None = None, credentials_kept: bool = False, query_kept: bool = False) -> None:
    work_done()  # saved: from here a Ctrl-C or SIGTERM changes nothing (it said "before the command had done its work")
    if as_json:  # `servers --json set ...`: the saved server, as `servers --json` lists it
        saved = registry.get(key)
        document: dict[str, object] = {"saved": _listed(saved, StoredSignIn(store.db).all())
                                       if saved else {"url": key}}
        if replaced:
            document["replaced"] = replaced
        emit_json(document)
        return
    if credentials_kept and query_kept:
        print(_("Saved {url}; its user name and password are kept as a secret Authorization header, and its query "
                "is kept as a secret and sent with every call.").format(url=one_line(shown)))
    elif query_kept:
        print(_("Saved {url}; its query is kept as a secret and sent with every call.").format(url=one_line(shown)))
    elif credentials_kept:
        print(_("Saved {url}; its user name and password are kept as a secret Authorization header.").format(
            url=one_line(shown)))
    else:
        print(_("Saved {url}.").format(url=one_line(shown)))
    for old in replaced or ():
        print(one_line(_("It replaces the earlier command of that name: {command}").format(command=old)))


def _remove(store: RunStore, args: argparse.Namespace) -> int:
    """``servers remove NAME_OR_URL``: the server and its health go; its runs stay."""
    from .keyring_refusals import NotingKeeper, not_removed_error
    from .server_choice import is_address
    from .server_saving import HeldKeeper, changed_whole

    keeper = NotingKeeper()
    held = HeldKeeper(keeper)  # its kept secrets leave the keyring once it is removed
    registry = ServerRegistry(store.db, held)
    given = args.server
    found = registry.find(given)
    if found is None and is_address(given):
        from inspector.mcp import public_url

        try:
            found = registry.find(public_url(given))
        except ValueError:
            found = None
    if found is None:
        raise BadInputError(Message(N_("No configured server is named {name}: give a name or an address that "
                                       "`servers` lists."), {"name": _given_to_quote(given)}))
    from inspector.agent.server_removal import resource_to_sign_out
    from inspector.store.signin_vault import open_signin_vault

    vault = open_signin_vault()
    # The server and its sign-in settings go together, before any of its secrets (a stop half way left it configured
    # without its sign-in's client secret); from then on a stop changes nothing.
    with changed_whole(store, held, lambda _missed: None, lambda terminated, _missed: _stopped_removing(terminated)):
        StoredSignIn(store.db).forget(found.url)
        registry.remove_server(found.url)
        resource = resource_to_sign_out(registry, found.url, found.transport)
    vault.forget_client_secret(found.url)  # the client secret leaves the keyring
    if resource is not None:
        vault.forget(resource)  # and its sign-in's tokens
    shown = said_name(found.name, found.url)  # the demo entry as `servers` lists it
    refused = [(account.removeprefix("env:"), f"{url} {account}", answer)
               for action, url, account, answer in keeper.refused if action == "remove"]
    refused += [(account, account, answer) for action, account, answer in getattr(vault, "refused", ())
                if action == "remove"]
    error = not_removed_error(refused, shown, Message(N_("Removed {server}; its runs stay stored."),
                                                      {"server": one_line(shown)}))
    if error is not None:
        raise error
    if args.json:
        emit_json({"removed": found.url, "name": found.name})
    else:
        print(one_line(_("Removed {server}; its runs stay stored.").format(server=shown)))
    return EXIT_OK


def _given_to_quote(given: str) -> str:
    """The server ``servers remove`` was given, as its sentence repeats it: an address without a password or a query
    (a key in either: the address as it was typed to ``servers set``)."""
    from inspector.mcp.address_query import typed_to_quote

    return one_line(typed_to_quote(given))


def _stopped_removing(terminated: bool) -> Message:
    return Message(N_("Ended by a signal (SIGTERM) before the command had done its work.") if terminated else
                   N_("Cancelled (Ctrl-C) before the command had done its work."))


def _servers(store: RunStore, as_json: bool, with_secrets: bool = False) -> int:
    servers = ServerRegistry(store.db).all()
    signins = StoredSignIn(store.db).all()
    if as_json:
        if not with_secrets:
            emit_json({"servers": [_listed(server, signins) for server in servers]})
            return EXIT_OK
        from .keyring_refusals import NotingKeeper
        from .servers_whole import listed_key, not_whole_error, said_secrets_listed, with_client_secret, with_values

        keeper = NotingKeeper()
        registry = ServerRegistry(store.db, keeper)
        vault = _signin_vault(signins)
        listed = [_listed(server, signins, with_secrets=True) for server in servers]
        holding = [server.name or listed_key(server.url) for server, whole in zip(servers, listed, strict=True)
                   if with_values(whole, server, registry)
                   | with_client_secret(whole, server, signins.get(server.url), vault, keeper)]
        refused = not_whole_error(keeper, {server.url: server.name or listed_key(server.url) for server in servers})
        if refused is not None:
            raise refused
        try:
            emit_json({"servers": listed})
        finally:  # a write cut short (a full disk, the reader gone) may have put some of them in a file: said too
            said_secrets_listed(holding)
        return EXIT_OK
    if not servers:
        print(_("No servers known yet."))
        return EXIT_OK
    for line in server_lines(servers, signins):
        print(line)
    return EXIT_OK


def _signin_vault(signins: dict[str, SignInSetup]) -> object:
    """The sign-in vault, where a server keeps a client secret in it (else none is opened: finding the keyring costs
    a fifth of a second)."""
    from inspector.store.signin_vault import open_signin_vault

    return open_signin_vault() if any(setup.client_secret_kept for setup in signins.values()) else None


def _listed(server: ServerRecord, signins: dict[str, SignInSetup], with_secrets: bool = False) -> dict[str, object]:
    """A server as ``--json`` lists it, with its sign-in settings (``null``: none; never a secret); a command's
    credentials as "…", as the list and the server's name show them, unless ``with_secrets``."""
    from .servers_whole import listed_command, listed_key

    setup = signins.get(server.url)
    listed = {**server.to_dict(), "signin": setup.to_dict() if setup is not None else None}
    if not with_secrets:
        listed.update(url=listed_key(server.url), command=listed_command(server.command))
    return listed
