"""The configured servers behind the Servers panel: add, edit, remove, test, and their endpoints.

The window lays out the panel; this object keeps the registry, the headers each server is called
with (stored values, the keyring, or this session's secrets) and the panel's health up to date.
A command server's endpoint carries its command with its secret variables (the keyring, or this
session's); saving or removing a command server stops its process, so the next operation starts
the command as it is now configured.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from inspector.i18n import _
from inspector.i18n.formatting import format_duration
from inspector.i18n.messages import translate
from inspector.mcp import InvalidServerError, ServerEndpoint
from inspector.mcp.roots import roots_from_uris
from inspector.mcp.server_command import InvalidCommandError, ServerCommand
from inspector.store import RunStore, ServerRecord, ServerRegistry, StoreError
from inspector.store.secrets import SecretKeeper

from ..dialogs.signin_fields import SignInChoice
from ..settings import AppSettings
from ..widgets.background_reads import database_file
from .console import ConsoleBook
from .engine import OperationsEngine
from .health_reader import HealthReader, latencies
from .operation_task import OperationOutcome, OperationTask
from .server_commands import command_endpoint, command_fields, save_command
from .servers_model import server_label
from .servers_panel import ServersPanel
from .signin_engine import configured_signin
from .signin_setup import dialog_setup, forget_signin, save_signin

#: How often the panel asks whether another program wrote the database (cheap: one pragma, off the GUI thread).
HEALTH_POLL_MS = 500


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
        self.secrets = secrets
        self.say = say
        self.registry = ServerRegistry(store.db, secrets)
        #: Secret header values the keyring could not keep: for this session only, never written.
        self.session_secrets: dict[tuple[str, str], str] = {}
        self._endpoints: dict[str, ServerEndpoint] = {}
        #: The last connection test's server and outcome (its sentence is said again in a new language).
        self._last_test: tuple[str, OperationOutcome] | None = None
        self.closed = False
        #: Selections are remembered in the settings (not those the window makes on its own, e.g. opening a file).
        self._remembering = True
        self.health = HealthReader(database_file(store), self)  # read after endings, off the GUI thread
        self.health.read.connect(self._health_read)
        #: Listings made on this thread (a save, a removal): a health read asked before one is stale.
        self._listings = self._asked_at = 0
        self._health_refresh = QTimer(self)
        self._health_refresh.setSingleShot(True)
        self._health_refresh.setInterval(100)
        self._health_refresh.timeout.connect(self._refresh_health)
        # Other programs (the command line, a proxy) count operations in the same database.
        self._health_poll = QTimer(self)
        self._health_poll.setInterval(HEALTH_POLL_MS)
        self._health_poll.timeout.connect(lambda: self._refresh_health(poll=True))
        self._health_poll.start()
        panel.server_selected.connect(self._selected)
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
        if self._last_test is not None:
            self._tested(*self._last_test)

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
        self._listings += 1
        self._remembering = remember
        self._list(records, select_url, select_first)
        self._remembering = True

    def _list(self, records: list[ServerRecord], select_url: str | None = None, select_first: bool = True) -> None:
        self.engine.server_roots.clear()
        self.engine.server_roots.update({record.url: roots_from_uris(record.roots) for record in records})
        self.engine.server_names.clear()
        self.engine.server_names.update({record.url: server_label(record) for record in records
                                         if record.transport == "stdio"})
        self.panel.set_records(records, select_url, select_first=select_first)

    def _selected(self, record: ServerRecord | None) -> None:
        if record is not None:
            if self._remembering:
                self.settings.last_server = record.url  # the next window selects it again
            self.panel.show_latencies(latencies(self.store, record.url))
        self.selected.emit(record)

    def health_changed(self) -> None:
        """An operation ended: read the health back once for a burst of endings (off the GUI thread)."""
        self._health_refresh.start()

    def _refresh_health(self, poll: bool = False) -> None:
        if not self.closed:
            current = self.current()
            self._asked_at = self._listings
            self.health.request(current.url if current is not None else None, poll=poll)

    def _health_read(self, records: list[ServerRecord] | None, url: str | None, shown: list[float],
                     problem: str) -> None:
        if self.closed or self._asked_at != self._listings:
            return  # the servers were listed since it was asked (a server saved or removed): that is newer
        if records is None:
            self.say(problem)
            return
        listed = [self.panel.model.record(row) for row in range(self.panel.model.rowCount())]
        if records != listed:  # a poll reads after any write (a run imported): the list is reset only for news
            # A refresh selects no server when none was: a server another program just counted (the
            # command line, a scenario) is not asked anything by this window unless the user picks it.
            self._list(records, select_first=False)
        current = self.current()
        if current is not None and current.url == url:
            self.panel.show_latencies(shown)

    def close(self) -> None:
        """The window closes: nothing more is read or said."""
        self.closed = True
        self._health_poll.stop()
        self.health.stop()

    # -- what an operation needs -----------------------------------------------------------------------

    def endpoint_for(self, record: ServerRecord) -> ServerEndpoint:
        """The server with its headers: stored values, the keyring, or this session's secrets.

        Kept until the server is saved or removed: Run must not wait on the store or the keyring."""
        endpoint = self._endpoints.get(record.url)
        stale = endpoint is None or endpoint.name != record.name or endpoint.era != record.era
        if stale and record.transport == "stdio":
            endpoint = self._endpoints[record.url] = command_endpoint(self, record)
        elif stale:
            headers = self.registry.headers_for(record.url, ask=lambda header: self.session_secrets.get(
                (record.url, header)))
            marked = frozenset(setting.name for setting in record.headers if setting.secret)
            endpoint = self._endpoints[record.url] = ServerEndpoint(
                record.url, headers=headers, name=record.name, secret_headers=marked,
                transport="sse" if record.transport == "sse" else "http", era=record.era,
                signin=configured_signin(self.store, record.url, self.engine.signins.vault))
        return endpoint

    def endpoint_or_say(self, record: ServerRecord) -> ServerEndpoint | None:
        try:
            return self.endpoint_for(record)
        except InvalidServerError as exc:
            self.say(translate(exc))
            return None
        except InvalidCommandError as exc:
            self.say(translate(exc.sentence))
            return None

    def budget_for(self, record: ServerRecord) -> float:
        return record.budget_s if record.budget_s else self.settings.default_budget_s

    # -- add, edit, remove -----------------------------------------------------------------------------

    def add_server(self) -> None:
        self._edit(None)

    def edit_server(self, record: ServerRecord) -> None:
        self._edit(record)

    def edit_current(self) -> None:
        if self.current() is not None:
            self._edit(self.current())

    def _edit(self, record: ServerRecord | None) -> None:
        headers = []
        if record is not None:
            for setting in record.headers:
                value = setting.value if not setting.secret else (
                    self.secrets.load(record.url, setting.name) or self.session_secrets.get(
                        (record.url, setting.name), ""))
                headers.append((setting.name, value or "", setting.secret))
        command = command_fields(self, record) if record is not None and record.transport == "stdio" else {}
        from ..dialogs.server_dialog import ServerDialog  # loaded with the first Add or Edit

        dialog = ServerDialog(self.parent(), url=record.url if record and not command else "",
                              name=record.name if record else None,
                              budget_s=record.budget_s if record else None, headers=headers,
                              secrets_kept=self.secrets.available, roots=record.roots if record else (),
                              default_budget_s=lambda: self.settings.default_budget_s,
                              transport=record.transport if record else "http",
                              era=record.era if record else "auto",
                              signin=dialog_setup(self, record.url) if record and not command else None,
                              signin_in_keyring=bool(getattr(self.engine.signins.vault, "persistent", False)),
                              **command)
        self.dialog = dialog  # tests answer it while it is open
        if dialog.exec() != ServerDialog.DialogCode.Accepted or dialog.result_settings is None:
            return
        chosen = dialog.result_settings
        self.save_server(chosen.url, chosen.name, chosen.budget_s, chosen.headers, chosen.secret,
                         replaces=record.url if record else None, roots=chosen.roots, transport=chosen.transport,
                         command=chosen.command, kept_env=chosen.kept_env, era=chosen.era, signin=chosen.signin)

    #: Emitted before a server's settings change or it goes (its URL): a session held for it ends.
    changing = Signal(str)

    def save_server(self, url: str, name: str | None, budget_s: float | None, headers: dict[str, str],
                    secret: set[str], *, replaces: str | None = None, roots: tuple[str, ...] = (),
                    transport: str = "http", command: ServerCommand | None = None,
                    kept_env: set[str] | None = None, era: str = "auto", signin: SignInChoice | None = None) -> None:
        """Store a server (secret values to the keyring or this session only) and select it.

        A command server's process stops when its settings change (the next operation starts it
        anew); ``kept_env`` names secret variables whose kept value (under ``replaces``) stays."""
        from inspector.store.secrets import is_secret_header

        if command is not None:
            command = save_command(self, url, command, replaces, kept_env or set())
        self._endpoints.pop(url, None)
        if replaces:
            self._endpoints.pop(replaces, None)
            self.changing.emit(replaces)
            self.engine.stop_server(replaces)
        if replaces and replaces != url:
            if signin is None or command is not None:  # else its secret moves to the new address
                forget_signin(self, replaces)
            self.registry.remove_server(replaces)
            self.consoles.forget(replaces)
        if command is not None:
            from inspector.agent.server_commands import setting_of

            self.registry.save_server(url, name=name, budget_s=budget_s, replace=True, roots=roots,
                                      command=setting_of(command), era=era)
        else:
            self.registry.save_server(url, name=name, budget_s=budget_s, headers=headers, secret=secret,
                                      replace=True, roots=roots, transport=transport, era=era)
        for header, value in headers.items():
            if header in secret or is_secret_header(header):
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
        answer = QMessageBox.question(self.parent(), _("Remove server"), _(
            "Remove {name} from the servers? Its stored runs stay.").format(name=record.name or record.url))
        if answer == QMessageBox.StandardButton.Yes:
            self.forget_server(record.url)

    def remove_current(self) -> None:
        if self.current() is not None:
            self.remove_server(self.current())

    def forget_server(self, url: str) -> None:
        self.changing.emit(url)
        self._endpoints.pop(url, None)
        self.engine.stop_server(url)
        self.consoles.forget(url)
        forget_signin(self, url)
        self.registry.remove_server(url)
        self.reload_servers(remember=False)  # the list's first in its place is no choice of the user's

    def forget_endpoint(self, url: str) -> None:
        """The server's settings changed underneath (its sign-in): the next operation builds it anew."""
        self._endpoints.pop(url, None)

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

    # -- the connection test ---------------------------------------------------------------------------

    def test_server(self, record: ServerRecord) -> OperationTask | None:
        endpoint = self.endpoint_or_say(record)
        if endpoint is None:
            return None
        task = self.engine.ping(endpoint, self.budget_for(record))
        self._last_test = None
        self.panel.test_result.setText(_("Testing the connection…"))
        task.finished.connect(lambda outcome: self._tested(record.url, outcome))
        return task

    def test_current(self) -> None:
        if self.current() is not None:
            self.test_server(self.current())

    def _tested(self, url: str, outcome: OperationOutcome) -> None:
        current = self.current()
        if current is None or current.url != url:
            return
        self._last_test = (url, outcome)
        record = outcome.record
        if record is not None and record.status == "ok":
            text = _("Answered in {duration}; speaks MCP {version}.").format(
                duration=format_duration(record.latency_ms / 1000), version=record.result.protocol_version)
        elif record is not None and record.status == "cancelled":
            text = _("The connection test was cancelled.")
        else:
            text = _("No answer: {reason}").format(reason=translate(record.error) if record and record.error
                                                    else outcome.internal_error or "")
        self.panel.test_result.setText(text)


def select_at_start(admin: ServerAdmin, demo_entry: str | None, opening_file: bool) -> None:
    """The window opens: the server selected last (remembered in the settings) while it is still
    listed, else the demo entry, else the first. The list is sorted by address, so without this the
    first of a few addresses the command line called would win over the demo entry. A window opened
    on a file selects none (opening a file contacts no server)."""
    if opening_file:
        admin.reload_servers(select_first=False)
        return
    try:
        listed = {record.url for record in admin.registry.all()}
    except StoreError as exc:
        admin.say(str(exc))
        return
    remembered = admin.settings.last_server
    admin.reload_servers(select_url=remembered if remembered in listed else demo_entry if demo_entry in listed
                         else None)
