"""File → Import servers…: choose a configuration file, preview it, add what was checked.

Reading the file never starts anything (:func:`inspector.mcp.server_configs.read_server_config`);
a file that cannot be read as a server list (not JSON, too big, a FIFO, ...) is said in one
sentence and nothing is added.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget

from inspector.agent.imported_entries import entry_key, renamed_by, without_taken
from inspector.agent.imported_signin import with_usable_signin
from inspector.i18n import _, ngettext
from inspector.i18n.messages import translate
from inspector.mcp import ServerEndpoint, public_url
from inspector.mcp.address_credentials import AUTHORIZATION, CredentialsConflict, credentials_header
from inspector.mcp.address_query import address_query, address_to_keep
from inspector.mcp.server_command import ServerCommand
from inspector.mcp.server_configs import ConfiguredServer, ServerConfigError, read_server_config
from inspector.store.asked_values import configured_values, configured_variables

from ..dialogs.import_dialog import ImportChoice, ImportDialog
from ..dialogs.signin_fields import SignInChoice

if TYPE_CHECKING:
    from .server_admin import ServerAdmin


def choose_file(admin: ServerAdmin, parent: QWidget) -> None:
    """Ask for a configuration file, then preview it."""
    path, _filter = QFileDialog.getOpenFileName(parent, _("Import servers"), "",
                                                _("Server configurations (*.json);;All files (*)"))
    if path:
        dialog = preview(admin, Path(path), parent)
        if dialog is not None:
            dialog.open()


def preview(admin: ServerAdmin, path: Path, parent: QWidget) -> ImportDialog | None:
    """The preview of ``path`` (not yet shown), whose Add adds what is checked; ``None`` after
    saying why the file cannot be imported."""
    try:
        config = read_server_config(path)
    except ServerConfigError as error:
        sentence = _("Nothing was imported: {reason}.").format(reason=translate(error.sentence))
        admin.say(sentence)
        box = QMessageBox(QMessageBox.Icon.Warning, _("Import servers"), sentence, QMessageBox.StandardButton.Ok,
                          parent)
        box.setTextFormat(Qt.TextFormat.PlainText)  # the file's name is the user's, not markup
        admin.import_problem = box
        box.open()
        return None
    config = without_taken(with_usable_signin(config, path.parent), admin.registry)  # refused sign-in: skipped too
    replaced = [admin.registry.settings(key_of(server)) is not None for server in config.servers]
    named = [[address_to_keep(url) for url in named_otherwise(admin, server)] for server in config.servers]
    renames = [record.name if (record := renamed_by(admin.registry, server)) else None for server in config.servers]
    dialog = ImportDialog(config, path.name, parent, replaced=replaced, named=named, renames=renames)
    dialog.accepted.connect(lambda: add_choices(admin, dialog.result_choices))
    admin.import_dialog = dialog
    return dialog


def key_of(server: ConfiguredServer) -> str:
    """The key an entry of the file is saved under (its address, or its command line)."""
    return entry_key(server)


def named_otherwise(admin: ServerAdmin, server: ConfiguredServer) -> list[str]:
    """The keys of the configured servers of ``server``'s name at another address or command: adding it replaces them,
    as ``servers import`` does (a name names one server)."""
    key = key_of(server)
    return [record.url for record in admin.registry.all() if record.name == server.name and record.url != key]


def add_choices(admin: ServerAdmin, choices: list[ImportChoice]) -> list[str]:
    """Save the chosen entries (values asked for are secrets; a user name and password in an address
    become its secret Authorization header, never beside one), each in place of a configured server of its name at
    another address or command; returns the keys added."""
    keys, said = [], []
    for choice in choices:
        server = choice.server
        *others, replaces = named_otherwise(admin, server) or [None]
        for other in others:  # more than one of that name (an older database): each goes
            admin.forget_server(other)
        if server.command is not None:
            command = server.command
            key = ServerEndpoint.for_command(command).key
            kept, kept_secret = configured_variables(  # a configured server's own stay, as they were
                admin.registry, key, [name for name in server.asks_for if name not in choice.asked])
            env = {**command.env, **choice.asked, **kept}
            command = ServerCommand(command.program, command.args, env, command.cwd, secret_env=frozenset(
                command.secret_env | set(choice.asked) | kept_secret))
            admin.save_server(key, server.name_kept(key), server.budget_s, {}, set(), command=command,
                              replaces=replaces, roots=server.roots, era=server.era or "auto")
        else:
            key = public_url(server.url or "")
            configured, configured_secret = configured_values(  # a configured server's own stay, as they were
                admin.registry, key, [name for name in server.asks_for if name not in choice.asked])
            headers = {**server.headers, **choice.asked, **configured}
            try:
                basic = credentials_header(server.url or "", key, [*headers, *server.asks_for])
            except CredentialsConflict as conflict:
                said.append(_("{name} was not imported: {reason}. Keep either its Authorization header or the "
                              "user name and password in its address.").format(name=server.name,
                                                                                reason=translate(conflict)))
                continue
            secret = set(choice.asked) | set(server.secret_headers) | configured_secret
            if basic is not None:
                headers[AUTHORIZATION] = basic
                secret.add(AUTHORIZATION)
                said.append(_("The user name and password in the address of {name} are kept as a secret "
                              "Authorization header.").format(name=server.name))
            query = address_query(server.url or "")
            if query is not None:
                said.append(_("The query in the address of {name} is kept as a secret and sent with every "
                              "call.").format(name=server.name))
            signin = imported_choice(admin, key, server, said)
            admin.save_server(key, server.name_kept(key), server.budget_s, headers, secret, transport=server.transport,
                              query=query, roots=server.roots, era=server.era or "auto",
                              replaces=replaces, signin=signin)
        keys.append(key)
    if keys or said:
        admin.say(" ".join([ngettext("{count} server imported.", "{count} servers imported.", len(keys)).format(
            count=len(keys)), *said]))
    return keys


def imported_choice(admin: ServerAdmin, key: str, server: ConfiguredServer, said: list[str]) -> SignInChoice | None:
    """The sign-in settings ``server`` gives (``servers --json`` lists them), as the Servers dialog gives them to
    :meth:`ServerAdmin.save_server`; a client secret the listing leaves out, and none configured, is said."""
    if server.signin is None:
        return None
    from inspector.agent.imported_signin import imported_signin
    from inspector.store.signin_settings import StoredSignIn

    imported = imported_signin(server.signin, StoredSignIn(admin.store).setup(key))
    if imported.left_out:
        said.append(_("The listing leaves out the client secret of {name}, so none is kept: give it in the server's "
                      "sign-in settings (Edit…).").format(name=server.name))
    return SignInChoice(imported.setup, imported.secret)


__all__ = ["add_choices", "choose_file", "key_of", "named_otherwise", "preview"]
