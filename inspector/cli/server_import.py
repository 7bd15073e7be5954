"""``servers import FILE``: the servers of a Claude Desktop, Cursor, VS Code or MCP Inspector
configuration, shown first, then added.

What will be added is printed before anything is written: each server's name, transport and
command line (variables by name only) or address, the entries skipped and why, the values the
file leaves to be asked (``${input:…}``), and the configured servers a name replaces. At a
terminal the user confirms; ``--yes`` adds without asking; without either nothing is added and
the command ends with exit status 2 (the preview is still printed, so a script can show it).
"""

from __future__ import annotations

import argparse
import dataclasses
import getpass
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.i18n import N_, _, ngettext
from inspector.i18n.messages import NP_, Message, translate
from inspector.mcp.server_configs import ConfiguredServer, ServerConfig, ServerConfigError, read_server_config
from inspector.store.keyring_words import Sentences

from .common import EXIT_OK, EXIT_USAGE, BadInputError, open_existing_store, open_store, safe
from .ending import emit_json
from .safe_text import one_line

if TYPE_CHECKING:
    from .keyring_refusals import NotPutBack


@dataclass
class Planned:
    """One server to add, and what it does to the servers already configured."""

    entry: ConfiguredServer
    key: str
    shown: str
    #: "new", "updates" (the same server is configured: its settings are replaced), "renames" (the same server is
    #: configured under another name: it is renamed, its settings replaced) or "replaces" (another server has this
    #: name: it is removed).
    effect: str = "new"
    replaces: list[str] = field(default_factory=list)
    #: The name and key of the same server configured under another name, which it renames (as ``servers set`` does).
    renames: tuple[str, str] | None = None
    #: The ``Authorization`` value made of the user name and password the address carries (a secret).
    credentials: str | None = field(default=None, repr=False)
    #: The query the address carries (a secret: hosted servers take their key there).
    query: str | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        entry = self.entry
        return {"name": entry.name, "transport": entry.transport, "key": self.key,
                "command": self.shown if entry.command is not None else None,
                # The address as kept (without the user name, password and query the file's may carry).
                "url": self.shown if entry.url is not None else None,
                "asks_for": list(entry.asks_for), "roots": list(entry.roots), "effect": self.effect,
                "replaces": self.replaced_shown(), "renames": self.renames[0] if self.renames else None}

    def replaced_shown(self) -> list[str]:
        """The keys of the servers it replaces as they may be shown (a command keyed before its credentials were
        left out of its key without them: ``stdio:cmd --token …``)."""
        from inspector.mcp.address_query import address_to_keep

        return [address_to_keep(url) for url in self.replaces]


def import_servers(args: argparse.Namespace) -> int:
    try:
        config = read_server_config(Path(args.file))
    except ServerConfigError as exc:
        raise BadInputError(Message(N_("The servers of {path} cannot be imported: {reason}"),
                                    {"path": args.file, "reason": exc.sentence})) from None
    from inspector.agent.imported_signin import with_usable_signin

    plan, config = _plan(with_usable_signin(config, Path(args.file).parent), args.db, args.file)
    as_json = bool(args.json)
    document: dict[str, Any] = {"file": args.file, "format": config.format,
                                "servers": [planned.to_dict() for planned in plan],
                                "skipped": [{"name": skipped.name, "reason": str(skipped.reason)}
                                            for skipped in config.skipped]}
    if not as_json:
        _print_preview(args.file, config, plan)
    if not plan:
        if as_json:
            emit_json({**document, "added": False})
        else:
            print(_("Nothing to add."))
        return EXIT_OK
    confirmed = args.yes or _confirm(len(plan))
    if confirmed is None:  # nobody to ask
        if as_json:
            emit_json({**document, "added": False})
        print(_("run-inspector: nothing was added: there is no terminal to confirm at. Run it again with --yes to "
                "add these servers."), file=sys.stderr)
        return EXIT_USAGE
    if not confirmed:
        if as_json:
            emit_json({**document, "added": False})
        else:
            print(_("Nothing was added."))
        return EXIT_OK
    # CommandError: the keyring refused
    not_kept, unanswered, with_credentials, signin_said = _add(plan, args.db, args.file)
    with_query = [planned.entry.name for planned in plan if planned.query is not None]
    if as_json:
        emit_json({**document, "added": True})
    else:
        print(ngettext("Added {count} server.", "Added {count} servers.", len(plan)).format(count=len(plan)))
        for name in with_credentials:
            print(one_line(_("The user name and password in the address of {name} are kept as a secret "
                             "Authorization header.").format(name=name)))
        for name in with_query if not not_kept else ():  # no keyring: not_kept names them
            print(one_line(_("The query in the address of {name} is kept as a secret and sent with every call.").format(
                name=name)))
    if not_kept:
        print(ngettext(
            "run-inspector: no system keyring is available, so the value of {names} was not kept; it is asked for "
            "at a terminal when the server is used (or give it with --env or --header).",
            "run-inspector: no system keyring is available, so the values of {names} were not kept; they are asked "
            "for at a terminal when the server is used (or give them with --env or --header).",
            len(not_kept)).format(names=", ".join(not_kept)), file=sys.stderr)
    for sentence in signin_said:
        print(one_line(sentence), file=sys.stderr)
    if unanswered:
        print(ngettext(
            "run-inspector: the header {names} was not given, so it is not kept; give it with --header on each call "
            "or with servers set URL --header.",
            "run-inspector: the headers {names} were not given, so they are not kept; give them with --header on "
            "each call or with servers set URL --header.", len(unanswered)).format(names=", ".join(unanswered)),
            file=sys.stderr)
    return EXIT_OK


def _plan(config: ServerConfig, db_option: str | None, path: str) -> tuple[list[Planned], ServerConfig]:
    """The servers to add, each with what it does to the configured ones (read only: nothing is created), and
    ``config`` with the entries that cannot be added here among its skipped (:func:`without_taken`)."""
    from inspector.agent.imported_entries import renamed_by, without_taken
    from inspector.store import ServerRegistry

    store = open_existing_store(db_option)
    if store is None:
        return _planned(config, path), config
    with store:
        registry = ServerRegistry(store.db)
        config = without_taken(config, registry)
        plan = _planned(config, path)
        records = registry.all()
        for planned in plan:
            renamed = renamed_by(registry, planned.entry)
            planned.renames = (renamed.name, renamed.url) if renamed is not None and renamed.name else None
    for planned in plan:
        planned.replaces = [record.url for record in records
                            if record.name == planned.entry.name and record.url != planned.key]
        if planned.replaces:
            planned.effect = "replaces"
        elif planned.renames is not None:
            planned.effect = "renames"
        elif any(record.url == planned.key for record in records):
            planned.effect = "updates"
    return plan, config


def _planned(config: ServerConfig, path: str) -> list[Planned]:
    """Each entry of ``config`` with its key and how it is shown (as if nothing were configured)."""
    from inspector.mcp import ServerEndpoint, public_url
    from inspector.mcp.address_credentials import CredentialsConflict, credentials_header
    from inspector.mcp.address_query import address_query

    from .servers_list import command_shown

    plan = []
    for entry in config.servers:
        if entry.command is not None:
            from inspector.agent.server_commands import setting_of

            key = ServerEndpoint.for_command(entry.command).key
            shown = command_shown(setting_of(entry.command))
        else:
            assert entry.url is not None
            key = shown = public_url(entry.url)
            try:  # a header the file asks for (``${input:…}``) is configured too
                credentials = credentials_header(entry.url, key, [*entry.headers, *entry.asks_for])
            except CredentialsConflict as exc:
                raise BadInputError(Message(N_("The servers of {path} cannot be imported: {reason}. Keep either "
                                               "the Authorization header of {name} or the user name and password "
                                               "in its address."),
                                            {"path": path, "reason": exc.sentence, "name": entry.name})) from None
            plan.append(Planned(entry, key, shown, credentials=credentials, query=address_query(entry.url)))
            continue
        plan.append(Planned(entry, key, shown))
    return plan


def _print_preview(path: str, config: ServerConfig, plan: list[Planned]) -> None:
    print(one_line(ngettext("{file} lists {count} server to add:", "{file} lists {count} servers to add:",
                            len(plan)).format(file=path, count=len(plan))))
    width = max((len(planned.entry.name) for planned in plan), default=0)
    for planned in plan:
        entry = planned.entry
        print(one_line(f"  {entry.name:<{width}}  {entry.transport:<5}  {planned.shown}"))
        if planned.credentials is not None:
            print("      " + _("its address's user name and password: kept as a secret Authorization header"))
        if planned.query is not None:
            print("      " + _("its address's query: kept as a secret and sent with every call"))
        if entry.signin is not None:
            print("      " + _signin_shown(entry))
        if entry.roots:
            print(one_line("      " + _("offers it the folders (roots): {roots}").format(roots=", ".join(entry.roots))))
        if entry.asks_for:
            print(one_line("      " + _("asks for (${{input:…}} in the file): {names}").format(
                names=", ".join(entry.asks_for))))
        if planned.effect == "updates":
            print("      " + _("updates the server configured so"))
        if planned.renames is not None:
            print(one_line("      " + _("renames the server configured so: {name}").format(name=planned.renames[0])))
        for old in planned.replaced_shown():
            print(one_line("      " + _("replaces the configured server of that name: {server}").format(server=old)))
    if config.skipped:
        print(ngettext("Skipped {count} entry:", "Skipped {count} entries:", len(config.skipped)).format(
            count=len(config.skipped)))
        for skipped in config.skipped:
            print(one_line("  " + _("{name}: {reason}").format(name=skipped.name, reason=translate(skipped.reason))))


def _signin_shown(entry: ConfiguredServer) -> str:
    """The sign-in settings ``entry`` gives, as ``servers`` shows them (its client secret by whether the listing
    holds it)."""
    from inspector.agent.imported_signin import imported_signin

    from .server_signin import signin_line

    assert entry.signin is not None
    return signin_line(dataclasses.replace(imported_signin(entry.signin, None).setup,
                                           client_secret_kept=entry.signin.client_secret is not None))


def _confirm(count: int) -> bool | None:
    """The user's answer at a terminal; ``None`` when there is nobody to ask."""
    if not sys.stdin.isatty():
        return None
    sys.stderr.write(ngettext("Add this server? [y/N] ", "Add these {count} servers? [y/N] ", count).format(
        count=count))
    sys.stderr.flush()
    answer = sys.stdin.readline()
    if not answer:
        sys.stderr.write("\n")
    return answer.strip().lower() in {"y", "yes", _("y"), _("yes")}


def _add(plan: list[Planned], db_option: str | None,
         path: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """Add the servers, all or none (cli/server_saving.py); the secret values no keyring could keep, the asked-for
    headers not given, the servers whose address's user name and password are kept as their Authorization
    header, and what to say of client secrets not kept (:func:`_add_signin`). Raises :class:`CommandError` (exit
    status 1) when the keyring refused to keep some of their secrets (nothing is added), or once they are added when
    it refused to remove those of servers they replaced, naming its answer."""
    from inspector.agent.server_commands import setting_of
    from inspector.mcp.address_credentials import AUTHORIZATION
    from inspector.mcp.address_query import address_to_keep
    from inspector.store import EnvSetting, ServerRegistry, is_secret_variable
    from inspector.store.asked_values import configured_values, configured_variables
    from inspector.store.secrets import is_secret_header
    from inspector.store.server_keys import move_runs_and_health

    from .keyring_refusals import NotingKeeper, not_imported_error, removal_refused
    from .server_saving import HeldKeeper, HeldVault, changed_whole

    # Asked before the database is written: no one waits for its lock while a value is typed.
    answers = [{name: _ask(name, planned.entry.name) for name in planned.entry.asks_for} for planned in plan]
    removing = NotingKeeper()  # what the keyring did not remove once the servers are added
    held = HeldKeeper(removing)
    keeper = NotingKeeper(held)
    named = [(key, planned.entry.name) for planned in plan
             for key in (planned.key, *planned.replaces, *(planned.renames[1:] if planned.renames else ()))]
    not_kept: list[str] = []
    unanswered: list[str] = []
    with_credentials: list[str] = []
    signin_said: list[str] = []
    vault = HeldVault(held, keeper)  # a client secret is kept, or put back, with the servers' other secrets
    with open_store(db_option) as store, changed_whole(
            store, held, lambda missed: not_imported_error(keeper, named, missed),
            lambda terminated, missed: _stopped(path, terminated, missed, dict(named))):
        registry = ServerRegistry(store.db, keeper)
        for planned, asked in zip(plan, answers, strict=True):
            entry = planned.entry
            renamed = [planned.renames[1]] if planned.renames and planned.renames[1] != planned.key else []
            for old in (*planned.replaces, *renamed):
                if address_to_keep(old) == planned.key:  # configured before its credentials were left out of its key
                    move_runs_and_health(store.db.conn, old, planned.key)
                registry.remove_server(old)
            if entry.command is not None:
                command = entry.command
                given = {name: value for name, value in asked.items() if value is not None}
                # A configured server's own values stay, secret or not as they were.
                kept, kept_secret = configured_variables(registry, planned.key,
                                                         [name for name, value in asked.items() if value is None])
                command = dataclasses.replace(command, env={**command.env, **given, **kept},
                                              secret_env=command.secret_env | kept_secret | frozenset(
                                                  name for name in asked if name not in kept))
                setting = setting_of(command)
                # A value left to ask for stays a secret variable without a value: asked when used.
                setting = dataclasses.replace(setting, env=(*setting.env, *(
                    EnvSetting(name, True, None) for name in asked if name not in command.env)))
                registry.save_server(planned.key, name=entry.name_kept(planned.key), command=setting, replace=True,
                                     **_settings(entry))
                secret = [name for name in command.env if is_secret_variable(name, command.secret_env)]
            else:
                headers = {**entry.headers, **{k: v for k, v in asked.items() if v is not None}}
                configured, configured_secret = configured_values(registry, planned.key,
                                                                  [k for k, v in asked.items() if v is None])
                headers.update(configured)  # a configured server's own stay, secret or not as they were
                marked = (*(k for k in asked if k not in configured), *configured_secret, *entry.secret_headers)
                registry.save_server(planned.key, name=entry.name_kept(planned.key), headers=headers, secret=marked,
                                     transport=entry.transport, replace=True, query=planned.query, **_settings(entry))
                secret = [name for name in headers if is_secret_header(name) or name in marked]
                if planned.query is not None:
                    secret.append(_("the query"))
                if planned.credentials is not None:
                    secret.append(AUTHORIZATION)
                    if registry.add_secret_header(planned.key, AUTHORIZATION, planned.credentials):
                        with_credentials.append(entry.name)
                unanswered.extend(_("{value} of {server}").format(value=name, server=entry.name)
                                  for name, value in asked.items() if value is None and name not in configured)
                if entry.signin is not None:
                    signin_said.extend(_add_signin(store, planned.key, entry, vault))
            if not keeper.available:
                not_kept.extend(_("{value} of {server}").format(value=name, server=entry.name) for name in secret)
    refused = removal_refused(removing, named, NP_("Added {count} server.", "Added {count} servers.",
                                                   {"count": len(plan)}, "count"))
    if refused is not None:
        raise refused
    return not_kept, unanswered, with_credentials, signin_said


def _add_signin(store: Any, key: str, entry: ConfiguredServer, vault: Any) -> list[str]:
    """Keep the sign-in settings ``entry`` gives for the server ``key``, its client secret in ``vault``; what to say
    on stderr of a client secret not kept (left out of the listing, or no keyring)."""
    from inspector.agent.imported_signin import imported_signin
    from inspector.store.signin_settings import StoredSignIn

    assert entry.signin is not None
    stored = StoredSignIn(store.db, vault)
    imported = imported_signin(entry.signin, stored.setup(key))
    said = []
    if not stored.save(key, imported.setup, client_secret=imported.secret, replace_all=True):
        said.append(_("run-inspector: no system keyring is available, so the client secret of {server} was not "
                      "kept. Give it with --client-secret-env on each call.").format(server=entry.name))
    if imported.left_out:
        said.append(_("run-inspector: the listing leaves out the client secret of {server} (servers --json without "
                      "--with-secrets), so none is kept; give it with servers set {address} --client-secret-env "
                      "VARIABLE.").format(server=entry.name, address=key))
    return said


def _settings(entry: ConfiguredServer) -> dict[str, Any]:
    """The budget, era and roots the file gives ``entry``, as :meth:`ServerRegistry.save_server` takes them."""
    return {"budget_s": entry.budget_s, "era": entry.era, "roots": entry.roots}


def _stopped(path: str, terminated: bool, missed: list[NotPutBack], names: dict[str, str]) -> object:
    """What a stop says: nothing was added, and the secrets the keyring would not put back (``missed``)."""
    from .keyring_refusals import not_put_back_sentences

    stopped = Message(N_("Ended by a signal (SIGTERM) before the servers of {file} were added: nothing was added.")
                      if terminated else
                      N_("Cancelled (Ctrl-C) before the servers of {file} were added: nothing was added."),
                      {"file": path})
    return Sentences((stopped, *not_put_back_sentences(missed, names))) if missed else stopped


def _ask(name: str, server: str) -> str | None:
    """A value the file leaves to be asked, when someone can answer; ``None``: asked when the server is used."""
    if not sys.stdin.isatty():
        return None
    try:
        return getpass.getpass(_("{name} for {server} (empty: ask when the server is used): ").format(
            name=name, server=safe(server))) or None
    except EOFError:
        print(file=sys.stderr)
        return None


__all__ = ["import_servers"]

