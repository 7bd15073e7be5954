"""The main window: Servers on the left; tools, arguments, operations and the result on the right.

It holds no logic of its own beyond wiring: the engine runs operations, the panels show them,
the store (read on this thread, written by the engine's worker) keeps runs and health.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDockWidget,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, choose_language, current_language, ngettext
from inspector.i18n.formatting import format_number, format_seconds
from inspector.i18n.messages import translate
from inspector.mcp import InvalidServerError, ServerEndpoint
from inspector.mcp.listening import ListenerState, ListenerStatus
from inspector.mcp.roots import roots_from_uris
from inspector.store import RunStore, ServerRecord, ServerRegistry, StoreError
from inspector.store.secrets import SecretKeeper, system_secret_keeper

from .dialogs.elicitation_dialog import ElicitationDialog, SamplingDialog
from .dialogs.server_dialog import ServerDialog
from .dialogs.settings_dialog import SettingsDialog
from .language import on_language_changed, switch_language, translated, translated_tab
from .runs.tab import RunsTab
from .settings import AppSettings
from .widgets.outcomes import outcome_word
from .widgets.server_log import ServerLogView
from .workbench.arguments_panel import ArgumentsPanel
from .workbench.demo_service import DemoService
from .workbench.engine import OperationOutcome, OperationsEngine, OperationTask
from .workbench.listening import LogEntry, WindowListener
from .workbench.operations_list import OperationsList
from .workbench.result_view import ResultView
from .workbench.server_requests import PendingQuestion, WindowAnswers
from .workbench.servers_panel import ServersPanel
from .workbench.tools_panel import ToolsPanel

SPLITTERS = ("main", "workbench", "top", "bottom")


class MainWindow(QMainWindow):
    """Run Inspector's window."""

    def __init__(self, store: RunStore, db_path: Path, settings: AppSettings,
                 engine: OperationsEngine | None = None, *, secrets: SecretKeeper | None = None,
                 demo: DemoService | None = None) -> None:
        super().__init__()
        translated(self, "setWindowTitle", lambda: _("Run Inspector"))
        self.store = store
        self.db_path = db_path
        self.settings = settings
        self.secrets = secrets or system_secret_keeper()
        self.registry = ServerRegistry(store.db, self.secrets)
        #: Secret header values the keyring could not keep: for this session only, never written.
        self.session_secrets: dict[tuple[str, str], str] = {}
        self._endpoints: dict[str, ServerEndpoint] = {}
        self.answers = WindowAnswers()
        self.engine = engine or OperationsEngine(db_path, default_budget_s=settings.default_budget_s)
        if self.engine.answers is None:
            self.engine.answers = self.answers
        self.answers = self.engine.answers
        self.answers.set_sampler(sampler_from_settings(settings))
        self.answers.question.connect(self.ask_question)
        self.answers.sampling.connect(self.confirm_sampling)
        self.answers.withdrawn.connect(self._withdrawn)
        #: The open question and sampling dialogs, by their pending request.
        self.dialogs: dict[int, QDialog] = {}
        self.engine.tools_changed.connect(self._tools_changed)
        self.engine.start()
        #: The listening session of the selected server (log messages, list changes, its requests).
        self.listener = WindowListener(self.engine)
        self.listener.log_level = settings.server_log_level
        self.listener.tools_changed.connect(self._tools_changed)
        self._listened: tuple[ServerEndpoint, tuple[str, ...]] | None = None
        self.demo = demo
        self.last_run: tuple[int, str, str] | None = None
        self._closed = False
        self._health_refresh = QTimer(self)
        self._health_refresh.setSingleShot(True)
        self._health_refresh.setInterval(100)
        self._health_refresh.timeout.connect(self._refresh_health)
        #: The last connection test's server and outcome (its sentence is said again in a new language).
        self._last_test: tuple[str, OperationOutcome] | None = None
        #: The listener's last state (its sentence is said again in a new language).
        self._listener_said: tuple[str, ListenerStatus] | None = None
        self._build()
        self._restore()
        self.reload_servers()
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        """Say again, in the new language, what the window shows that depends on its state."""
        record = self.servers.current()
        self._show_budget(record)
        self._describe_tool(self.tools.current_tool())
        if self._last_test is not None:
            self._tested(*self._last_test)
        if self._listener_said is not None:
            self._listener_status(*self._listener_said)
        self._update_status()

    # -- layout ------------------------------------------------------------------------------

    def _build(self) -> None:
        self.servers = ServersPanel()
        self.tools = ToolsPanel()
        self.tool_title = QLabel(_("No tool selected."))
        self.tool_title.setTextFormat(Qt.TextFormat.PlainText)
        self.tool_title.setWordWrap(True)
        self.arguments = ArgumentsPanel()
        self.schema_view = QPlainTextEdit()
        self.schema_view.setReadOnly(True)
        translated(self.schema_view, "setAccessibleName", lambda: _("Input schema"))
        translated_tab(self.arguments.tabs, self.schema_view, lambda: _("Schema"))
        self.run_button = translated(QPushButton(), "setText", lambda: _("Run  (Ctrl+Enter)"))
        translated(self.run_button, "setAccessibleName", lambda: _("Run the tool"))
        self.run_button.clicked.connect(self.run_current_tool)
        self.cancel_button = translated(QPushButton(), "setText", lambda: _("Cancel  (Esc)"))
        translated(self.cancel_button, "setAccessibleName", lambda: _("Cancel the selected operation"))
        self.cancel_button.clicked.connect(self.cancel_current)
        self.budget_label = QLabel()
        self.budget_label.setTextFormat(Qt.TextFormat.PlainText)
        buttons = QHBoxLayout()
        buttons.addWidget(self.budget_label, 1)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        call = QWidget()
        call_layout = QVBoxLayout(call)
        call_layout.setContentsMargins(4, 4, 4, 4)
        call_layout.addWidget(self.tool_title)
        call_layout.addWidget(self.arguments, 1)
        call_layout.addLayout(buttons)

        self.operations = OperationsList()
        self.operations.current_changed.connect(self._show_result)
        self.operations.dropped.connect(lambda task: self.engine.forget(task))
        heading = translated(QLabel(), "setText", lambda: _("Running and recent operations"))
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        operations_box = QWidget()
        operations_layout = QVBoxLayout(operations_box)
        operations_layout.setContentsMargins(4, 4, 4, 4)
        operations_layout.addWidget(heading)
        operations_layout.addWidget(self.operations, 1)
        self.result = ResultView()

        self.top = QSplitter(Qt.Orientation.Horizontal)
        self.top.addWidget(self.tools)
        self.top.addWidget(call)
        self.top.setStretchFactor(1, 2)
        self.bottom = QSplitter(Qt.Orientation.Horizontal)
        self.bottom.addWidget(operations_box)
        self.bottom.addWidget(self.result)
        self.bottom.setStretchFactor(0, 3)
        self.bottom.setStretchFactor(1, 2)
        self.workbench = QSplitter(Qt.Orientation.Vertical)
        self.workbench.addWidget(self.top)
        self.workbench.addWidget(self.bottom)
        self.runs_tab = RunsTab(self.store, self.db_path)
        self.runs_tab.watch(self.engine)
        self.runs_tab.accept_drops_on(self)
        self.tabs = QTabWidget()
        translated(self.tabs, "setAccessibleName", lambda: _("Workbench and runs"))
        translated_tab(self.tabs, self.workbench, lambda: _("&Workbench"))
        translated_tab(self.tabs, self.runs_tab, lambda: _("R&uns"))
        self.main = QSplitter(Qt.Orientation.Horizontal)
        self.main.addWidget(self.servers)
        self.main.addWidget(self.tabs)
        self.main.setStretchFactor(1, 1)
        self.main.setSizes([230, 970])
        self.top.setSizes([260, 710])
        self.workbench.setSizes([290, 410])
        self.bottom.setSizes([600, 370])
        for name in SPLITTERS:
            getattr(self, name).setObjectName(f"splitter-{name}")
        self.setCentralWidget(self.main)
        self.resize(1200, 760)

        self.server_log = ServerLogView()
        self.log_dock = QDockWidget(self)
        translated(self.log_dock, "setWindowTitle", lambda: _("Server log"))
        self.log_dock.setObjectName("dock-server-log")
        translated(self.log_dock, "setAccessibleName", lambda: _("Server log"))
        self.log_dock.setWidget(self.server_log)
        self.log_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetClosable
                                  | QDockWidget.DockWidgetFeature.DockWidgetMovable)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.log_dock)
        self.resizeDocks([self.log_dock], [150], Qt.Orientation.Vertical)
        self.listener.entry.connect(self._log_entry)
        self.listener.status_changed.connect(self._listener_status)

        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        translated(self.status, "setAccessibleName", lambda: _("Status"))
        self.statusBar().addWidget(self.status, 1)

        self.servers.server_selected.connect(self._server_selected)
        self.servers.add_requested.connect(self.add_server)
        self.servers.edit_requested.connect(self.edit_server)
        self.servers.remove_requested.connect(self.remove_server)
        self.servers.test_requested.connect(self.test_server)
        self.tools.tool_selected.connect(self._tool_selected)
        self.tools.reload_requested.connect(self.load_tools)
        self.engine.submitted.connect(self._submitted)
        self._menus()
        self._update_status()

    def _menus(self) -> None:
        file_menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&File"))
        self.open_trace_action = translated(QAction(self), "setText", lambda: _("&Open trace…"))
        self.open_trace_action.setShortcut(QKeySequence.StandardKey.Open)
        self.open_trace_action.triggered.connect(self._open_trace)
        file_menu.addAction(self.open_trace_action)
        self.export_selected_action = translated(QAction(self), "setText", lambda: _("&Export the selected runs…"))
        self.export_selected_action.triggered.connect(lambda: self._export(True))
        file_menu.addAction(self.export_selected_action)
        self.export_listed_action = translated(QAction(self), "setText", lambda: _("Export the &listed runs…"))
        self.export_listed_action.triggered.connect(lambda: self._export(False))
        file_menu.addAction(self.export_listed_action)
        self.delete_runs_action = translated(QAction(self), "setText", lambda: _("&Delete the selected runs…"))
        self.delete_runs_action.triggered.connect(lambda: self.runs_tab.delete_selected())
        file_menu.addAction(self.delete_runs_action)
        file_menu.addSeparator()
        settings = translated(QAction(self), "setText", lambda: _("&Settings…"))
        settings.triggered.connect(self.open_settings)
        file_menu.addAction(settings)
        quit_action = translated(QAction(self), "setText", lambda: _("&Quit"))
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        file_menu.addAction(quit_action)
        run_menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&Run"))
        self.run_action = translated(QAction(self), "setText", lambda: _("&Run the tool"))
        self.run_action.setShortcuts([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.run_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.run_action.triggered.connect(self.run_current_tool)
        run_menu.addAction(self.run_action)
        self.cancel_action = translated(QAction(self), "setText", lambda: _("&Cancel the selected operation"))
        self.cancel_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.cancel_action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.cancel_action.triggered.connect(self.cancel_current)
        run_menu.addAction(self.cancel_action)
        reload_tools = translated(QAction(self), "setText", lambda: _("Re&load tools"))
        reload_tools.setShortcut(QKeySequence.StandardKey.Refresh)
        reload_tools.triggered.connect(self.load_tools)
        run_menu.addAction(reload_tools)
        server_menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&Server"))
        for message, slot in ((lambda: _("&Add server…"), self.add_server),
                              (lambda: _("&Edit server…"), self._edit_current),
                              (lambda: _("&Remove server"), self._remove_current),
                              (lambda: _("&Test connection"), self._test_current)):
            action = translated(QAction(self), "setText", message)
            action.triggered.connect(slot)
            server_menu.addAction(action)
        view_menu = translated(self.menuBar().addMenu(""), "setTitle", lambda: _("&View"))
        log_action = translated(self.log_dock.toggleViewAction(), "setText", lambda: _("Server &log"))
        view_menu.addAction(log_action)
        # Actions live in the window too, so their shortcuts work wherever the focus is.
        self.addActions([self.run_action, self.cancel_action])

    # -- traces (the Runs tab does the work) ---------------------------------------------------

    def _open_trace(self) -> None:
        self.tabs.setCurrentWidget(self.runs_tab)
        self.runs_tab.choose_trace()

    def _export(self, selected_only: bool) -> None:
        self.tabs.setCurrentWidget(self.runs_tab)
        self.runs_tab.choose_export(selected_only)

    def open_trace(self, path: Path) -> None:
        """Import a trace file (``run-inspector FILE``, a drop) and show its runs."""
        self.tabs.setCurrentWidget(self.runs_tab)
        self.runs_tab.open_trace(path)

    # -- servers ---------------------------------------------------------------------------------

    def reload_servers(self, select_url: str | None = None) -> None:
        try:
            records = self.registry.all()
        except StoreError as exc:
            self.status.setText(str(exc))
            return
        self.engine.server_roots.clear()
        self.engine.server_roots.update({record.url: roots_from_uris(record.roots) for record in records})
        self.servers.set_records(records, select_url)

    def _server_selected(self, record: ServerRecord | None) -> None:
        if record is None:
            self.tools.clear(lambda: _("Select a server to see its tools."))
            self.budget_label.setText("")
            self.listener.stop()
            return
        self._listen_to(record)
        self.servers.show_latencies(self._latencies(record.url))
        self._show_budget(record)
        if self.tools.task is not None and self.tools.task.running:
            if self.tools.task.server_url == record.url:
                return
            self.tools.task.cancel()
        self.load_tools()

    def _listen_to(self, record: ServerRecord) -> None:
        """Hold a listening session for the selected server (a new one when its settings changed)."""
        if self._closed:
            return
        try:
            endpoint = self.endpoint_for(record)
        except InvalidServerError:
            self.listener.stop()
            return
        wanted = (endpoint, record.roots)
        if self.listener.listening_to == record.url and self._listened == wanted:
            return
        self._listened = wanted
        self.listener.listen(endpoint, roots_from_uris(record.roots))

    def _log_entry(self, entry: LogEntry) -> None:
        if not self._closed:
            self.server_log.add(entry)

    def _listener_status(self, server: str, status: ListenerStatus) -> None:
        self._listener_said = (server, status)
        if not self._closed:
            self.server_log.show_state(listener_sentence(server, status))

    def _show_budget(self, record: ServerRecord | None) -> None:
        self.budget_label.setText("" if record is None else _("Budget: {seconds} s").format(
            seconds=format_seconds(self._budget_for(record))))

    def _latencies(self, url: str) -> list[float]:
        runs = self.store.list_runs(server=url, outcome="ok", limit=20)
        values = [(run.finished_at - run.started_at).total_seconds() * 1000 for run in reversed(runs)
                  if run.finished_at and run.started_at]
        return values

    def endpoint_for(self, record: ServerRecord) -> ServerEndpoint:
        """The server with its headers: stored values, the keyring, or this session's secrets.

        Kept until the server is saved or removed: Run must not wait on the store or the keyring."""
        endpoint = self._endpoints.get(record.url)
        if endpoint is None or endpoint.name != record.name:
            headers = self.registry.headers_for(record.url, ask=lambda header: self.session_secrets.get(
                (record.url, header)))
            endpoint = self._endpoints[record.url] = ServerEndpoint(record.url, headers=headers, name=record.name)
        return endpoint

    def _budget_for(self, record: ServerRecord) -> float:
        return record.budget_s if record.budget_s else self.settings.default_budget_s

    def add_server(self) -> None:
        self._edit(None)

    def edit_server(self, record: ServerRecord) -> None:
        self._edit(record)

    def _edit_current(self) -> None:
        if self.servers.current() is not None:
            self._edit(self.servers.current())

    def _edit(self, record: ServerRecord | None) -> None:
        headers = []
        if record is not None:
            for setting in record.headers:
                value = setting.value if not setting.secret else (
                    self.secrets.load(record.url, setting.name) or self.session_secrets.get(
                        (record.url, setting.name), ""))
                headers.append((setting.name, value or "", setting.secret))
        dialog = ServerDialog(self, url=record.url if record else "", name=record.name if record else None,
                              budget_s=record.budget_s if record else None, headers=headers,
                              secrets_kept=self.secrets.available, roots=record.roots if record else ())
        if dialog.exec() != ServerDialog.DialogCode.Accepted or dialog.result_settings is None:
            return
        self.save_server(dialog.result_settings.url, dialog.result_settings.name, dialog.result_settings.budget_s,
                         dialog.result_settings.headers, dialog.result_settings.secret,
                         replaces=record.url if record else None, roots=dialog.result_settings.roots)

    def save_server(self, url: str, name: str | None, budget_s: float | None, headers: dict[str, str],
                    secret: set[str], *, replaces: str | None = None, roots: tuple[str, ...] = ()) -> None:
        """Store a server (secret values to the keyring or this session only) and select it."""
        from inspector.store.secrets import is_secret_header

        self._endpoints.pop(url, None)
        if replaces:
            self._endpoints.pop(replaces, None)
        if replaces and replaces != url:
            self.registry.remove_server(replaces)
        if replaces and self.listener.listening_to == replaces:
            self.listener.stop()  # its settings change: the selection below listens afresh
        self.registry.save_server(url, name=name, budget_s=budget_s, headers=headers, secret=secret,
                                  replace=True, roots=roots)
        for header, value in headers.items():
            if header in secret or is_secret_header(header):
                self.session_secrets[(url, header)] = value
        was_current = self.servers.current() is not None and self.servers.current().url == url
        self.reload_servers(select_url=url)
        if was_current:
            # The same server with new settings: its budget and (with new headers) its tools.
            self._server_selected(self.servers.current())

    def remove_server(self, record: ServerRecord) -> None:
        answer = QMessageBox.question(self, _("Remove server"), _(
            "Remove {name} from the servers? Its stored runs stay.").format(name=record.name or record.url))
        if answer == QMessageBox.StandardButton.Yes:
            self.forget_server(record.url)

    def forget_server(self, url: str) -> None:
        if self.listener.listening_to == url:
            self.listener.stop()
        self._endpoints.pop(url, None)
        self.registry.remove_server(url)
        self.reload_servers()

    def _remove_current(self) -> None:
        if self.servers.current() is not None:
            self.remove_server(self.servers.current())

    def test_server(self, record: ServerRecord) -> OperationTask | None:
        endpoint = self._endpoint_or_say(record)
        if endpoint is None:
            return None
        task = self.engine.ping(endpoint, self._budget_for(record))
        self._last_test = None
        self.servers.test_result.setText(_("Testing the connection…"))
        task.finished.connect(lambda outcome: self._tested(record.url, outcome))
        return task

    def _test_current(self) -> None:
        if self.servers.current() is not None:
            self.test_server(self.servers.current())

    def _tested(self, url: str, outcome: OperationOutcome) -> None:
        current = self.servers.current()
        if current is None or current.url != url:
            return
        self._last_test = (url, outcome)
        record = outcome.record
        if record is not None and record.status == "ok":
            text = _("Answered in {ms} ms; speaks MCP {version}.").format(
                ms=format_number(round(record.latency_ms)), version=record.result.protocol_version)
        elif record is not None and record.status == "cancelled":
            text = _("The connection test was cancelled.")
        else:
            text = _("No answer: {reason}").format(reason=translate(record.error) if record and record.error
                                                    else outcome.internal_error or "")
        self.servers.test_result.setText(text)

    def _endpoint_or_say(self, record: ServerRecord) -> ServerEndpoint | None:
        try:
            return self.endpoint_for(record)
        except InvalidServerError as exc:
            self.status.setText(translate(exc))
            return None

    # -- tools and arguments -------------------------------------------------------------------

    def load_tools(self) -> OperationTask | None:
        record = self.servers.current()
        if record is None:
            return None
        endpoint = self._endpoint_or_say(record)
        if endpoint is None:
            return None
        task = self.engine.list_tools(endpoint, self._budget_for(record))
        self.tools.loading(task)
        return task

    def _tools_changed(self, server_url: str) -> None:
        """A server said its tools changed: reload the catalogue if it is the one shown."""
        record = self.servers.current()
        if record is not None and record.url == server_url and not self._closed:
            if self.tools.task is None or not self.tools.task.running:
                self.load_tools()

    # -- the servers' questions ----------------------------------------------------------------

    def ask_question(self, pending: PendingQuestion) -> ElicitationDialog:
        """Show a server's question; the dialog answers it (or the budget ends it)."""
        dialog = ElicitationDialog(pending, parent=self)
        self._open_dialog(pending, dialog)
        return dialog

    def confirm_sampling(self, pending: PendingQuestion) -> SamplingDialog:
        """Ask whether the server may use the model for this request."""
        dialog = SamplingDialog(pending, parent=self)
        self._open_dialog(pending, dialog)
        return dialog

    def _open_dialog(self, pending: PendingQuestion, dialog: QDialog) -> None:
        key = id(pending)
        self.dialogs[key] = dialog
        dialog.finished.connect(lambda _code: self.dialogs.pop(key, None))
        if pending.withdrawn:
            dialog.reject()
            return
        dialog.show()

    def _withdrawn(self, pending: PendingQuestion) -> None:
        dialog = self.dialogs.pop(id(pending), None)
        if dialog is not None:
            dialog.reject()

    def _describe_tool(self, tool: dict[str, Any] | None) -> None:
        if tool is None:
            self.tool_title.setText(_("No tool selected."))
            return
        name = str(tool.get("name", ""))
        description = tool.get("description") if isinstance(tool.get("description"), str) else ""
        self.tool_title.setText(_("{name} — {description}").format(name=name, description=description)
                                if description else name)

    def _tool_selected(self, tool: dict[str, Any] | None) -> None:
        self._describe_tool(tool)
        if tool is None:
            self.arguments.set_schema({})
            self.schema_view.setPlainText("")
            self.run_button.setEnabled(False)
            return
        name = str(tool.get("name", ""))
        schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
        server = self.servers.current()
        remembered = self.settings.last_arguments(server.url, name) if server else None
        self.arguments.set_schema(schema, remembered)
        self.schema_view.setPlainText(json.dumps(schema, indent=2, ensure_ascii=False))
        self.run_button.setEnabled(True)

    # -- operations ------------------------------------------------------------------------------

    def run_current_tool(self) -> OperationTask | None:
        """Run the selected tool with the arguments shown; nothing is sent if they are bad."""
        record, tool = self.servers.current(), self.tools.current_tool()
        if record is None or tool is None:
            self.status.setText(_("Select a server and a tool first."))
            return None
        arguments = self.arguments.arguments()
        if arguments is None:
            return None
        endpoint = self._endpoint_or_say(record)
        if endpoint is None:
            return None
        name = str(tool.get("name", ""))
        self.settings.remember_arguments(record.url, name, arguments)
        return self.engine.call_tool(endpoint, name, arguments, self._budget_for(record))

    def cancel_current(self) -> None:
        """Esc: cancel the selected operation if it runs, else the newest one that runs."""
        task = self.operations.current
        if task is None or not task.running:
            running = self.engine.running_tasks()
            task = running[-1] if running else None
        if task is not None:
            self.operations.cancel(task)

    def _submitted(self, task: OperationTask) -> None:
        self.operations.add(task)
        task.finished.connect(lambda outcome, task=task: self._finished(task, outcome))
        self._update_status()

    def _finished(self, task: OperationTask, outcome: OperationOutcome) -> None:
        if self._closed:
            return  # a report that crossed the quit: the store is closed
        if outcome.run_id is not None:
            self.last_run = (outcome.run_id, task.title, outcome.status)
        if self.operations.current is task:
            self._show_result(task)
        self._update_status()
        # Health is read back once for a burst of endings (twenty operations may end together).
        self._health_refresh.start()

    def _refresh_health(self) -> None:
        if self._closed:
            return
        self.reload_servers()
        current = self.servers.current()
        if current is not None:
            self.servers.show_latencies(self._latencies(current.url))

    def _show_result(self, task: OperationTask | None) -> None:
        self.result.show_task(task)

    def _update_status(self) -> None:
        count = len(self.engine.running_tasks())
        # Esc and the button cancel whatever runs (the selected operation first): with nothing
        # running they would do nothing, so they say so by being disabled.
        self.cancel_button.setEnabled(count > 0)
        self.cancel_action.setEnabled(count > 0)
        running = ngettext("{count} operation running", "{count} operations running", count).format(
            count=format_number(count))
        if self.last_run is None:
            last = _("no run stored yet")
        else:
            run_id, title, status = self.last_run
            last = _("last run #{run_id}: {title} ({status})").format(run_id=run_id, title=title,
                                                                      status=outcome_word(status))
        self.status.setText(_("{running} · {last} · database {path}").format(running=running, last=last,
                                                                            path=self.db_path))

    # -- settings, geometry, quitting ---------------------------------------------------------------

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings, str(self.db_path), self)
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            self.engine.default_budget_s = self.settings.default_budget_s
            self.answers.set_sampler(sampler_from_settings(self.settings))
            if self.settings.server_log_level != self.listener.log_level:
                self.listener.set_log_level(self.settings.server_log_level)
            # Only what the settings change: the budget shown; the catalogue and the chosen tool stay.
            self._show_budget(self.servers.current())
            self.apply_language()

    def apply_language(self) -> str:
        """Switch to the language the settings ask for (else the system's), if it is not the one shown."""
        wanted = choose_language(self.settings.language or None)
        if wanted != current_language():
            return switch_language(wanted)
        return wanted

    def _restore(self) -> None:
        geometry = self.settings.restore_bytes("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)
        for name in SPLITTERS:
            state = self.settings.restore_bytes(f"splitter-{name}")
            if state is not None:
                getattr(self, name).restoreState(state)

    def save_layout(self) -> None:
        self.settings.save_bytes("geometry", self.saveGeometry())
        for name in SPLITTERS:
            self.settings.save_bytes(f"splitter-{name}", getattr(self, name).saveState())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        self.shut_down()
        super().closeEvent(event)

    def shut_down(self) -> None:
        """Cancel what runs, let housekeeping finish (bounded), stop the worker and the demo server."""
        if self._closed:
            return
        self._closed = True
        self._health_refresh.stop()
        self.save_layout()
        self.runs_tab.shut_down()
        self.listener.stop()  # before the engine winds down: the session's DELETE is bounded
        self.engine.shutdown()
        if self.demo is not None:
            self.demo.stop()


def sampler_from_settings(settings: AppSettings):  # -> Sampler | None
    """The configured model as a sampler, when the user allows servers to use it."""
    if not (settings.allow_sampling and settings.sampling_model_url and settings.sampling_model):
        return None
    from inspector.agent.chat_model import OpenAIChatModel
    from inspector.agent.sampling import ChatModelSampler

    try:
        model = OpenAIChatModel(settings.sampling_model_url, settings.sampling_model)
    except ValueError:
        return None
    return ChatModelSampler(model, settings.sampling_model)


def listener_sentence(server: str, status: ListenerStatus) -> str:
    """The listener's state in words, for the log view's header."""
    state = status.state
    if state is ListenerState.CONNECTING:
        return _("Connecting to {server}…").format(server=server)
    if state is ListenerState.LISTENING:
        return _("Listening to {server}.").format(server=server)
    if state is ListenerState.NO_STREAM:
        return _("{server} offers no stream of its own (HTTP {status}): its log messages and list changes "
                 "arrive only during operations.").format(server=server, status=status.http_status)
    if state is ListenerState.RECONNECTING:
        if status.retry_in_s is None:
            return _("The stream of {server} broke; reconnecting…").format(server=server)
        return _("The stream of {server} broke; reconnecting in {seconds} s…").format(
            server=server, seconds=format_seconds(status.retry_in_s))
    if status.error:
        return _("Stopped listening to {server}: {reason}").format(server=server, reason=translate(status.error))
    return _("Not listening.")
