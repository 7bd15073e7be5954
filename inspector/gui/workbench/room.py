"""The Workbench tab: the selected server's tools, the arguments form, Run and Cancel, the
operations list and the selected operation's result."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.mcp import bounded_budget
from inspector.runs.replaying import ReplayPlan
from inspector.store import ServerRecord

from ..language import translated, translated_tab
from ..settings import AppSettings
from ..widgets.budget_field import budget_label
from ..widgets.fitted_scroll import FittedScroll
from ..widgets.plain_text import cell_text, clip_text, label_text, plain_tooltip
from ..widgets.snug_label import SnugLabel
from ..widgets.steady_tabs import SteadyTabs
from ..widgets.wrapping_row import WrappingRow
from .arguments_panel import ArgumentsPanel
from .catalogue_cache import CatalogueKeeper
from .engine import OperationsEngine
from .offerings_panel import PromptsPanel, ResourcesPanel
from .operation_detail import OperationDetail
from .operation_task import OperationTask
from .operations_list import OperationsList
from .replaying import replay_step
from .server_admin import ServerAdmin
from .servers_model import server_label
from .skills_panel import SkillsPanel
from .tools_panel import ToolsPanel

#: The splitters whose positions the window remembers, by name.
SPLITTERS = ("top", "bottom")


class Workbench(QSplitter):
    """Tools and the call above, operations and the result below; runs what the user asks."""

    def __init__(self, engine: OperationsEngine, admin: ServerAdmin, settings: AppSettings,
                 parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.engine = engine
        self.admin = admin
        self.settings = settings
        #: The question "replay on which server?" while it is open (inspector/gui/workbench/replaying.py).
        self.replay_dialog: QDialog | None = None
        self.tools = ToolsPanel()
        #: The catalogues still fresh (``ttlMs``): selecting their server again shows them.
        self.catalogues = CatalogueKeeper()
        # As high as its lines: a splitter does not ask the call box's height for its width, and a wrapped
        # QLabel's least height is one line (German "Abbrechen (Esc)" was cut at the call box's foot).
        self.tool_title = SnugLabel()
        self.tool_title.setText(_("No tool selected."))
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
        self.operations = OperationsList()
        self.detail = OperationDetail()
        self.result = self.detail.result
        self.top = QSplitter(Qt.Orientation.Horizontal)
        self.top.addWidget(self._browse_tabs())
        self.call_box = self._call_box()
        self.top.addWidget(self.call_box)
        # The tool's form and Run belong to the Tools tab: beside Resources and Prompts, their lists get the room.
        self.browse.currentChanged.connect(lambda index: self.call_box.setVisible(self.browse.widget(index)
                                                                                  is self.tools))
        self.top.setStretchFactor(1, 2)
        self.bottom = QSplitter(Qt.Orientation.Horizontal)
        self.bottom.addWidget(self._operations_box())
        self.bottom.addWidget(self.detail)
        self.bottom.setStretchFactor(0, 3)
        self.bottom.setStretchFactor(1, 2)
        # Where the window is low (16 points on a 600 px screen) the tools and the call scroll, down to a
        # few lines: the call box alone needed 258 px there, and the window 649 px with the Server log.
        self.addWidget(FittedScroll(self.top))
        self.addWidget(self.bottom)
        self.top.setSizes([260, 710])
        self.setSizes([290, 410])
        self.bottom.setSizes([600, 370])
        self.setObjectName("splitter-workbench")
        for name in SPLITTERS:
            getattr(self, name).setObjectName(f"splitter-{name}")
        self.operations.current_changed.connect(self.detail.show_task)
        self.detail.links.read.connect(lambda server, uri: self.engine.offer(
            server, "resources/read", {"uri": uri}, _("resources/read {uri}").format(uri=cell_text(uri, 80))))
        self.operations.dropped.connect(lambda task: self.engine.forget(task))
        self.tools.tool_selected.connect(self._tool_selected)
        self.tools.reload_requested.connect(self.load_tools)
        self._tool_selected(None)  # no tool yet: nothing to run, no arguments to speak of

    def _browse_tabs(self) -> QTabWidget:
        """Tools, and what the server offers besides: Resources, Prompts and Skills."""
        self.resources = ResourcesPanel(self.offer, self.engine.subscriptions)
        self.prompts = PromptsPanel(self.offer)
        self.skills = SkillsPanel(self.offer)
        for panel in (self.resources, self.prompts, self.skills):  # another server's lists are not this one's
            self.admin.selected.connect(panel.forget)
        self.browse = SteadyTabs()
        translated(self.browse, "setAccessibleName", lambda: _("What the server offers"))
        translated_tab(self.browse, self.tools, lambda: _("Tools"))
        translated_tab(self.browse, self.resources, lambda: _("Resources"))
        translated_tab(self.browse, self.prompts, lambda: _("Prompts"))
        translated_tab(self.browse, self.skills, lambda: _("Skills"))
        return self.browse

    def offer(self, operation: str, params: dict[str, Any], title: str) -> OperationTask | None:
        """An operation on the selected server's resources, prompts or skills (``OperationsEngine.offer``)."""
        record = self.admin.current()
        if record is None:
            self.admin.say(_("Select a server first."))
            return None
        endpoint = self.admin.endpoint_or_say(record)
        if endpoint is None:
            return None
        return self.engine.offer(endpoint, operation, params, title, self.admin.budget_for(record))

    def _call_box(self) -> QWidget:
        buttons = WrappingRow()  # Run and Cancel go under the budget where the window is narrow
        buttons.addWidget(self.budget_label, 1)
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        call = QWidget()
        layout = QVBoxLayout(call)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.tool_title)
        layout.addWidget(self.arguments, 1)
        layout.addLayout(buttons)
        return call

    def _operations_box(self) -> QWidget:
        heading = translated(QLabel(), "setText", lambda: _("Running and recent operations"))
        # Two lines where the box is narrow: at 16 points the German heading held the window 1,030 px wide.
        heading.setWordWrap(True)
        font = heading.font()
        font.setBold(True)
        heading.setFont(font)
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(heading)
        layout.addWidget(self.operations, 1)
        return box

    def retranslate(self) -> None:
        self.show_budget(self.admin.current())
        self._describe_tool(self.tools.current_tool())

    # -- the selected server -----------------------------------------------------------------------

    def server_selected(self, record: ServerRecord | None) -> None:
        """Show the server's budget and load its tools (a load for another server is cancelled)."""
        if record is None:
            self.tools.clear(lambda: _("Select a server to see its tools."))
            self.budget_label.setText("")
            return
        self.show_budget(record)
        if self.tools.task is not None and self.tools.task.running:
            if self.tools.task.server_url == record.url:
                return
            self.tools.task.put_aside()  # the user moved on: the window's cancel, not the user's
        self.load_tools(reuse=True)

    def show_budget(self, record: ServerRecord | None) -> None:
        # What the client enforces (the floor applied), as the budget bar's deadline says it.
        if record is None:
            self.budget_label.setText("")
            return
        unusable = record.budget_s if record.budget_s and bounded_budget(record.budget_s) is None else None
        self.budget_label.setText(budget_label(self.admin.budget_for(record), unusable))

    def load_tools(self, reuse: bool = False) -> OperationTask | None:
        """List the selected server's tools; ``reuse``: show the catalogue kept while it is fresh."""
        record = self.admin.current()
        if record is None:
            return None
        # A server that cannot be spoken to lists no tools (not those of the server selected before).
        endpoint = self.admin.endpoint_or_say(record, self.tools.clear)
        if endpoint is None:
            return None
        kept = self.catalogues.fresh(record.url, endpoint) if reuse else None
        if kept is not None:
            self.tools.show_kept(kept)
            return None
        unasked = reuse and record.url == self.admin.unasked  # the window's own selection, as it opened
        if not reuse:
            self.admin.unasked = None  # Reload: the user's
        if unasked and endpoint.is_command:  # its program starts when the user asks, not with the window
            self.tools.clear(lambda: _("{server} is a command server: Reload starts its program and lists its "
                                       "tools.").format(server=label_text(server_label(record), 200)))
            return None
        walking = self.tools.task
        if walking is not None and walking.running:
            # Reload while a load runs: the new one replaces it (the panel's Cancel and Esc reach only that
            # one), so the old one is set aside, not left to run to the end of its budget.
            walking.put_aside(reloaded=True)
        task = self.engine.list_tools(endpoint, self.admin.budget_for(record))
        changes = self.catalogues.changes(endpoint.key)
        self.tools.loading(task, lambda catalogue: self.catalogues.keep(record.url, endpoint, catalogue, changes))
        return task

    def tools_changed(self, server_url: str) -> None:
        """A server said its tools changed: reload the catalogue if it is the one shown."""
        self.catalogues.forget(server_url)
        record = self.admin.current()
        if record is not None and record.url == server_url and not self.admin.closed:
            self.tools.freshness.mark_stale()
            if self.tools.task is None or not self.tools.task.running:
                self.load_tools()

    # -- the selected tool ----------------------------------------------------------------------------

    def _describe_tool(self, tool: dict[str, Any] | None) -> None:
        if tool is None:
            self.tool_title.setText(_("No tool selected."))
            return
        name = label_text(str(tool.get("name", "")), 200)
        description = tool.get("description") if isinstance(tool.get("description"), str) else ""
        # One paragraph (a docstring's line breaks and indents are not the server's layout), cut and
        # given places to wrap: a server's text never decides the window's width. The whole
        # description (up to 20,000 characters) is the title's tooltip.
        paragraph = " ".join(description[:40_000].split())
        self.tool_title.setText(_("{name} — {description}").format(name=name, description=label_text(paragraph))
                                if description else name)
        self.tool_title.setToolTip(plain_tooltip(clip_text(description, 20_000)) if description else "")

    def _tool_selected(self, tool: dict[str, Any] | None) -> None:
        self._describe_tool(tool)
        if tool is None:
            self.arguments.set_schema(None)
            self.schema_view.setPlainText("")
            self.run_button.setEnabled(False)
            return
        name = str(tool.get("name", ""))
        schema = tool.get("inputSchema") if isinstance(tool.get("inputSchema"), dict) else {}
        server = self.admin.current()
        remembered = self.settings.last_arguments(server.url, name) if server else None
        self.arguments.set_schema(schema, remembered)
        self.schema_view.setPlainText(json.dumps(schema, indent=2, ensure_ascii=False))
        self.run_button.setEnabled(True)

    # -- operations -------------------------------------------------------------------------------------

    def run_current_tool(self) -> OperationTask | None:
        """Run the selected tool with the arguments shown; nothing is sent if they are bad."""
        record, tool = self.admin.current(), self.tools.current_tool()
        if record is None or tool is None:
            self.admin.say(_("Select a server and a tool first."))
            return None
        arguments = self.arguments.arguments()
        if arguments is None:
            return None
        endpoint = self.admin.endpoint_or_say(record)
        if endpoint is None:
            return None
        name = str(tool.get("name", ""))
        self.settings.remember_arguments(record.url, name, arguments)
        # The definition goes along: a tool that requires a task runs as one (no catalogue leg needed).
        return self.engine.call_tool(endpoint, name, arguments, self.admin.budget_for(record), definition=tool)

    def look_up_task(self, server_url: str, task: dict[str, Any]) -> OperationTask | None:
        """Look a stored step's task up again on its server (the configured one, with its headers)."""
        record = next((record for record in self.admin.registry.all() if record.url == server_url), None)
        if record is None:
            self.admin.say(_("The server {server} is no longer configured; add it again to look the task up.").format(
                server=server_url))
            return None
        endpoint = self.admin.endpoint_or_say(record)
        if endpoint is None:
            return None
        session = task.get("sessionId")
        session_id = session if isinstance(session, str) else None
        return self.engine.look_up_task(endpoint, str(task.get("taskId")), session_id, self.admin.budget_for(record))

    def replay(self, plan: ReplayPlan) -> OperationTask | None:
        """Replay a stored step (``None`` while it asks which server, or when it cannot start)."""
        return replay_step(self, plan)

    def cancel_current(self) -> None:
        """Esc: cancel the selected operation if it runs, else the newest one that runs."""
        task = self.operations.current
        if task is None or not task.running:
            running = self.engine.running_tasks()
            task = running[-1] if running else None
        if task is not None:
            self.operations.cancel(task)

    def set_cancel_enabled(self, enabled: bool) -> None:
        self.cancel_button.setEnabled(enabled)
