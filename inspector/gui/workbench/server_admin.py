"""The configured servers behind the Servers panel: listed, selected, added, edited, removed.

The window lays out the panel; this object keeps the registry and the engine's view of each
server in step with it. What each server is called with is :mod:`.server_endpoints`' (headers from
stored values, the keyring, or this session's secrets; a command server's command with its secret
variables); the panel's health is :mod:`.server_health`'s, its Test connection
:mod:`.connection_test`'s. Saving or removing a command server stops its process, so the next
operation starts the command as it is now configured.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.i18n import _
from inspector.i18n.entry_names import shown_name, stored_name
from inspector.mcp import ServerEndpoint
from inspector.mcp.roots import roots_from_uris
from inspector.mcp.server_command import ServerCommand
from inspector.store import RunStore, ServerRecord, ServerRegistry, ServerSettings, StoreError
from inspector.store.secrets import SecretKeeper

from ..dialogs.signin_fields import SignInChoice
from ..settings import AppSettings
from .connection_test import ConnectionTest
from .console import ConsoleBook
from .engine import OperationsEngine
from .health_reader import latencies
from .operation_task import OperationTask
from .server_commands import command_fields, fold_in, keyed_before_key, save_command, taken_by_other
from .server_endpoints import ServerEndpoints
from .server_health import ServerHealth
from .server_secrets import ServerSecrets
from .servers_model import server_label
from .servers_panel import ServersPanel
from .signin_setup import dialog_setup, forget_signin, in_keyring, save_signin


class ServerAdmin(QObject):
    """Keeps the Servers panel, the registry and the engine's view of each server in step."""

    #: The selected server changed (a ServerRecord, or None): the window follows it.
    selected = Signal(object)

    def __init__(self, panel: ServersPanel, store: RunStore, engine: OperationsEngine, settings: AppSettings,
                 secrets: SecretKeeper, say: Callable[[str], None], parent: QWidget) -> None:
        super().__init__(parent)
        self.panel = panel
        self.store = store
        self.engine = engine
        self.settings = settings
        #: The keyring, asked on the worker (it may wait on an unlock prompt): held until the first paint.
        self.keyring = ServerSecrets(self, secrets)
        self.secrets = self.keyring.keeper
        self.say = say
        self.registry = ServerRegistry(store.db, self.secrets)
        #: What each server is called with (kept until it is saved or removed).
        self.endpoints = ServerEndpoints(store, self.registry, self.secrets, settings, engine.signins.vault, say)
        #: Secret header values the keyring could not keep: for this session only, never written.
        self.session_secrets = self.endpoints.session_secrets
        self.closed = False
        #: The server the window selected on its own as it opened, until the user picks another or
        #: reloads its tools: a command server's program is not started for it.
        self.unasked: str | None = None
        #: Selections are remembered in the settings (not those the window makes on its own, e.g. opening a file).
        self._remembering = True
        self.health = ServerHealth(self, store)
        self.connection_test = ConnectionTest(self)
        panel.server_selected.connect(self._chosen)
        panel.add_requested.connect(self.add_server)
        panel.edit_requested.connect(self.edit_server)
        panel.remove_requested.connect(self.remove_server)
        panel.test_requested.connect(self.test_server)
        panel.console_requested.connect(self.open_console)
        #: The command servers' stderr, kept for their Console windows.
        self.consoles = ConsoleBook(engine.output, parent)

    def current(self) -> ServerRecord | None:
        return self.panel.current()

    def retranslate(self) -> None:
        self.connection_test.retranslate()

    # -- the list ----------------------------------------------------------------------------------

    def reload_servers(self, select_url: str | None = None, *, select_first: bool = True,
                       remember: bool = True) -> None:
        """List the servers again; ``select_first=False`` selects none when none was (a window opened
        on a trace file contacts no server until one is chosen); ``remember=False``: a selection made
        here is not the user's choice, and the settings keep the one selected last."""
        try:
            records = self.registry.all()
        except StoreError as exc:
            self.say(str(exc))
            return
        self.health.listed()
        self._remembering = remember
        self.show_records(records, select_url, select_first)
        self._remembering = True

    def show_records(self, records: list[ServerRecord], select_url: str | None = None,
                     select_first: bool = True) -> None:
        """List ``records`` in the panel (and their roots and names for the engine) as they are."""
        self.engine.server_roots.clear()
        self.engine.server_roots.update({record.url: roots_from_uris(record.roots) for record in records})
        self.engine.server_names.clear()
        self.engine.server_names.update({record.url: server_label(record) for record in records
                                         if record.transport == "stdio"})
        self.panel.set_records(records, select_url, select_first=select_first)

    def _chosen(self, record: ServerRecord | None) -> None:
        """A server selected in the panel: secrets the keyring would not give are asked for again."""
        if record is not None:
            self.secrets.read(record.url, retry=True)
        self._selected(record)

    def read_secrets(self) -> None:
        """The window has painted: what the keyring keeps is read (on the worker)."""
        self.keyring.read_all()

    def reselect(self, record: ServerRecord) -> None:
        """The selected server anew (its secrets were read): the window follows it again."""
        self._selected(record)

    def _selected(self, record: ServerRecord | None) -> None:
        if record is None or record.url != self.unasked:
            self.unasked = None  # another server: the user's choice
        if record is not None:
            if self._remembering:
                self.settings.last_server = record.url  # the next window selects it again
            self.panel.show_latencies(latencies(self.store, record.url))
        self.selected.emit(record)

    def health_changed(self) -> None:
        """An operation ended: read the health back once for a burst of endings (off the GUI thread)."""
        self.health.changed()

    def close(self) -> None:
        """The window closes: nothing more is read or said."""
        self.closed = True
        self.health.stop()

    # -- what an operation needs (ServerEndpoints) --------------------------------------------------------

    def endpoint_for(self, record: ServerRecord) -> ServerEndpoint:
        """The server with its headers (see :meth:`ServerEndpoints.endpoint_for`)."""
        return self.endpoints.endpoint_for(record)

    def endpoint_or_say(self, record: ServerRecord,
                        told: Callable[[Callable[[], str]], None] | None = None) -> ServerEndpoint | None:
        return self.endpoints.endpoint_or_say(record, told)

    def budget_for(self, record: ServerRecord) -> float:
        return self.endpoints.budget_for(record)

    # -- add, edit, remove -----------------------------------------------------------------------------

    def add_server(self) -> None:
        self._edit(None)

    def edit_server(self, record: ServerRecord) -> None:
        self._edit(record)

    def edit_current(self) -> None:
        if self.current() is not None:
            self._edit(self.current())

    def _edit(self, record: ServerRecord | None) -> None:
        if record is not None and not self.secrets.known(record.url):
            self.keyring.edit_when_read(record.url, self._edit)
            return
        headers = []
        if record is not None:
            for setting in record.headers:
                value = setting.value if not setting.secret else (
                    self.secrets.load(record.url, setting.name) or self.session_secrets.get(
                        (record.url, setting.name), ""))
                headers.append((setting.name, value or "", setting.secret))
        command = command_fields(self.endpoints, record) if record is not None and record.transport == "stdio" else {}
        query = self.registry.query_for(record.url, ask=lambda account: self.session_secrets.get(
            (record.url, account))) if record is not None and not command else None
        from ..dialogs.server_dialog import ServerDialog  # loaded with the first Add or Edit

        dialog = ServerDialog(self.parent(), url=record.url if record and not command else "",
                              name=shown_name(record.name, record.url) if record else None,
                              budget_s=record.budget_s if record else None, headers=headers,
                              secrets_kept=self.secrets.available, roots=record.roots if record else (),
                              default_budget_s=lambda: self.settings.default_budget_s,
                              transport=record.transport if record else "http",
                              era=record.era if record else "auto",
                              signin=dialog_setup(self, record.url) if record and not command else None,
                              signin_in_keyring=in_keyring(self),
                              query=query, taken=taken_by_other(self.endpoints, record.url if record else None),
                              **command)
        self.dialog = dialog  # tests answer it while it is open
        if dialog.exec() != ServerDialog.DialogCode.Accepted or dialog.result_settings is None:
            return
        chosen = dialog.result_settings
        name = stored_name(chosen.name, record.name, record.url) if record and chosen.url == record.url else chosen.name
        self.save_server(chosen.url, name, chosen.budget_s, chosen.headers, chosen.secret,
                         replaces=record.url if record else None, roots=chosen.roots, transport=chosen.transport,
                         command=chosen.command, kept_env=chosen.kept_env, era=chosen.era, signin=chosen.signin,
                         query=chosen.query)

    #: Emitted before a server's settings change or it goes (its URL): a session held for it ends.
    changing = Signal(str)

    def save_server(self, url: str, name: str | None, budget_s: float | None, headers: dict[str, str],
                    secret: set[str], *, replaces: str | None = None, roots: tuple[str, ...] = (),
                    transport: str = "http", command: ServerCommand | None = None,
                    kept_env: set[str] | None = None, era: str = "auto", signin: SignInChoice | None = None,
                    query: str | None = None) -> None:
        """Store a server (secret values, its address's ``query`` too, to the keyring or this session
        only) and select it.

        A command server's process stops when its settings change (the next operation starts it
        anew); ``kept_env`` names secret variables whose kept value (under ``replaces``) stays."""
        from inspector.mcp.address_query import address_to_keep
        from inspector.store.secrets import is_secret_header
        from inspector.store.server_keys import move_runs_and_health
        from inspector.store.servers import QUERY_ACCOUNT

        # The same command configured under another name before its key left its credentials out: that server is
        # renamed (in place of the one edited, beside it: both go), as servers set does.
        earlier = keyed_before_key(self.registry, url, command) if command is not None else None
        if replaces is None:
            replaces, earlier = earlier, None
        elif earlier is not None and earlier != replaces:
            fold_in(self, earlier, url)
        if command is not None:
            command = save_command(self.endpoints, url, command, replaces, kept_env or set())
        self.endpoints.forget(url)
        if replaces:
            self.endpoints.forget(replaces)
            self.changing.emit(replaces)
            self.engine.stop_server(replaces)
        moved = None  # the server's settings under its old address, when the edit changed it
        if replaces and replaces != url:
            moved = self.registry.settings(replaces)
            if signin is None or command is not None:  # else its secret moves to the new address
                forget_signin(self, replaces)
            if command is not None and address_to_keep(replaces) == url:  # keyed before its credentials were left out
                move_runs_and_health(self.store.db.conn, replaces, url)
            self.registry.remove_server(replaces)  # its secrets leave the keyring (saved anew below)
            self.consoles.forget(replaces)
        if command is not None:
            from inspector.agent.server_commands import setting_of

            self.registry.save_server(url, name=name, budget_s=budget_s, replace=True, roots=roots,
                                      command=setting_of(command), era=era)
        else:
            self.registry.save_server(url, name=name, budget_s=budget_s, headers=headers, secret=secret,
                                      replace=True, roots=roots, transport=transport, era=era, query=query)
        if moved is not None:
            self._sign_out_if_unused(moved)  # the old address's tokens, once the new one is configured
        for header, value in [*headers.items(), *([(QUERY_ACCOUNT, query)] if query is not None else [])]:
            if header in secret or is_secret_header(header) or header == QUERY_ACCOUNT:
                self.session_secrets[(url, header)] = value
        was_current = self.current() is not None and self.current().url == url

        def reselect() -> None:
            self.reload_servers(select_url=url)
            if was_current:
                # The same server with new settings: its budget and (with new headers) its tools.
                self._selected(self.current())

        if signin is not None and command is None:
            save_signin(self, url, signin, replaces, reselect)  # reselects once the secret is kept
        else:
            reselect()

    def remove_server(self, record: ServerRecord) -> None:
        box = QMessageBox(QMessageBox.Icon.Question, _("Remove server"), _(
            "Remove {name} from the servers? Its stored runs stay.").format(name=server_label(record)),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.parent())
        box.setTextFormat(Qt.TextFormat.PlainText)  # a name from an imported file is no markup
        box.setDefaultButton(QMessageBox.StandardButton.No)  # Enter keeps it: its secrets and sign-in go too
        if box.exec() == QMessageBox.StandardButton.Yes:
            self.forget_server(record.url)

    def remove_current(self) -> None:
        if self.current() is not None:
            self.remove_server(self.current())

    def forget_server(self, url: str) -> None:
        """The server goes, and every secret kept for it: headers, variables, query, sign-in."""
        removed = self.registry.settings(url)
        self.changing.emit(url)
        self.endpoints.forget(url)
        self.engine.stop_server(url)
        self.consoles.forget(url)
        forget_signin(self, url)
        self.registry.remove_server(url)
        if removed is not None:
            self._sign_out_if_unused(removed)
        self.reload_servers(remember=False)  # the list's first in its place is no choice of the user's

    def _sign_out_if_unused(self, gone: ServerSettings) -> None:
        """The server ``gone`` is no longer configured (removed, or edited to another address): its
        sign-in's tokens are forgotten, unless a configured server is at the same resource."""
        from inspector.agent.server_removal import resource_to_sign_out

        if resource_to_sign_out(self.registry, gone.url, gone.transport) is not None:
            self.engine.signins.sign_out(ServerEndpoint(gone.url, transport=gone.transport))  # on the worker

    def forget_endpoint(self, url: str) -> None:
        """The server's settings changed underneath (its sign-in): the next operation builds it anew."""
        self.endpoints.forget(url)

    def open_console(self, record: ServerRecord) -> None:
        """The Console of a command server: what it writes on stderr, following the newest line."""
        if record.transport == "stdio":
            self.consoles.open(record.url, server_label(record), self.parent())

    def import_servers(self) -> None:
        """File → Import servers…: a configuration file of another client, previewed first."""
        from .server_import import choose_file

        choose_file(self, self.parent())

    def console_current(self) -> None:
        if self.current() is not None:
            self.open_console(self.current())

    # -- the connection test (ConnectionTest) ---------------------------------------------------------------

    def test_server(self, record: ServerRecord) -> OperationTask | None:
        return self.connection_test.run(record)

    def test_current(self) -> None:
        if self.current() is not None:
            self.test_server(self.current())


def select_at_start(admin: ServerAdmin, demo_entry: str | None, opening_file: bool) -> None:
    """The window opens: the server selected last (remembered in the settings) while it is still
    listed, else the demo entry, else the first configured one, else none. The list is sorted by
    address and shows every address the command line called once: such an address is never chosen
    for the user. A window opened on a file selects none (opening a file contacts no server). The
    selection is the window's own (:attr:`ServerAdmin.unasked`) until the user picks another."""
    if opening_file:
        admin.reload_servers(select_first=False)
        return
    try:
        listed = {record.url for record in admin.registry.all()}
        configured = admin.registry.configured_urls()
    except StoreError as exc:
        admin.say(str(exc))
        return
    remembered = admin.settings.last_server
    chosen = remembered if remembered in listed else demo_entry if demo_entry in listed else next(iter(configured),
                                                                                                   None)
    admin.unasked = chosen
    admin.reload_servers(select_url=chosen, select_first=False)
