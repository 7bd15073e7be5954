"""The operations engine: the GUI's way to run operations, each a task on the worker's loop.

The GUI submits an operation and gets an :class:`~.operation_task.OperationTask` (the task-state
object of Orange3's pattern); the worker (:mod:`.operations_worker`, one thread with its own asyncio
loop) runs its step and stores it as a run exactly as the command line stores it
(:mod:`.operation_runs`: the GUI thread never waits on the disk for it). The client's reports
cross to the GUI thread at most once per frame (:mod:`.operation_reports`, :mod:`.report_courier`).
What a server logs on an operation's own session goes to :attr:`OperationsEngine.log` (batched for
the Server log); each operation's session asks for the log level set with
:meth:`OperationsEngine.set_log_level` when it was submitted.
"""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.i18n import _
from inspector.i18n.entry_names import shown_label
from inspector.mcp import McpClient, ServerEndpoint, parse_budget
from inspector.mcp.eras import EraMemory, LayeredEras
from inspector.mcp.messages import Message
from inspector.mcp.processes import ServerProcesses
from inspector.mcp.server_requests import Root
from inspector.mcp.signin.model import SignInVault
from inspector.mcp.standalone import ServerNotification
from inspector.runs.replaying import ReplayLink
from inspector.store import StoredEras
from inspector.traces.redact import redact_text

from .console import ProcessOutput
from .keyring_line import KeyringLine
from .operation_log import OperationLog
from .operation_reports import OperationObserver
from .operation_runs import run_operation
from .operation_task import OperationTask
from .operations_worker import OperationsWorker, Work
from .server_requests import WindowAnswers
from .signin_engine import SignIns

#: Housekeeping after quitting (cancel notices, session ends) gets at most this long.
SHUTDOWN_BOUND_S = 1.0
#: Stopping the command servers' processes on quitting gets at most this long: each is told by the
#: end of its stdin, then SIGTERM after 2 s, then SIGKILL after 2 s more (the client's order).
PROCESS_STOP_BOUND_S = 5.0


class OperationsEngine(QObject):
    """Submits operations to the worker, keeps the list of them, and gives each the worker's client
    for its log level (the command servers' processes shared by all)."""

    #: A new operation was submitted (the task is the argument).
    submitted = Signal(object)
    #: A server said its list of tools changed (the server's URL, without credentials).
    tools_changed = Signal(str)
    #: A command server wrote lines on its stderr: (server key, list of lines), on the GUI thread,
    #: in paced batches (the Console windows follow it; the Server log gets them from :attr:`log`).
    server_output = Signal(str, list)

    def __init__(self, db_path: Path | None, *, client_factory: Callable[[], McpClient] | None = None,
                 default_budget_s: float | None = None, answers: WindowAnswers | None = None,
                 log_level: str | None = None, signin_vault: SignInVault | None = None) -> None:
        super().__init__()
        #: The worker thread, its loop and its own store connection.
        self.worker = OperationsWorker(db_path)
        #: The log level each operation's session asks for (``logging/setLevel``); ``None``: none asked.
        self.log_level = log_level
        #: The Server log's feed: what the servers log on the operations' sessions (and the listening
        #: session's lines); its ``entries`` signal hands them to the log in paced, bounded batches.
        self.log = OperationLog()
        #: The window's resource subscriptions (``subscriptions.ResourceSubscriptions``), once it listens.
        self.subscriptions: Any = None
        #: Who answers the servers' questions and sampling requests (the window's dialogs); set
        #: before :meth:`start`. Without it the client declines them.
        self.answers = answers
        self._client_factory = client_factory or self._new_client
        self.default_budget_s = default_budget_s
        self._numbers = itertools.count(1)
        self._tasks: list[OperationTask] = []
        #: One client per log level (made on the worker when first needed): an operation's level is
        #: the one set when it was submitted, whatever changes while it waits for the loop.
        self._clients: dict[str | None, McpClient] = {}
        #: What ``auto`` found each server to speak, shared by the clients and the listening session.
        self.eras = LayeredEras()
        #: The servers found to speak the older HTTP+SSE transport (by key), shared by clients and listener.
        self.legacy: set[str] = set()
        #: The roots configured per server (by URL); read by the worker for each operation.
        self.server_roots: dict[str, tuple[Root, ...] | None] = {}
        #: The command servers' names as the Server log shows them (by key); set by the window.
        self.server_names: dict[str, str] = {}
        #: The command servers' processes, shared by every client of the engine (one per log level):
        #: a server's process is started once and kept for the window's later operations.
        self.processes = ServerProcesses(self._heard_output, self._heard_between)
        self.output = ProcessOutput(self.log, self.server_names)
        self.output.lines.connect(self.server_output)
        #: Sign-ins: the vault, who waits for one, Sign in and Sign out.
        self.signins = SignIns(self, signin_vault)
        #: The window's line to the system keyring (its secret keepers' calls, never on this loop).
        self.keyring = KeyringLine()

    # -- life ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker thread and its loop (returns once the loop runs)."""
        self.worker.start()

    @property
    def thread(self) -> threading.Thread | None:
        return self.worker.thread

    def spawn(self, make: Work) -> None:
        """Run the coroutine ``make()`` builds on the worker's loop; shutdown waits for it (bounded)."""
        self.worker.spawn(make)

    def shutdown(self, bound_s: float = SHUTDOWN_BOUND_S) -> bool:
        """Cancel what runs, let housekeeping finish (bounded), stop the loop and the thread.

        Returns True when the thread has ended."""
        if not self.worker.started:
            return True
        for task in self._tasks:
            if task.running:
                task.cancel()
        running = self.worker.running

        async def wind_down() -> None:
            try:
                if running:
                    await asyncio.wait(list(running), timeout=bound_s)
                clients = list(self._clients.values())
                if clients:
                    await asyncio.gather(*(client.drain(bound_s / 2) for client in clients))
            finally:
                try:
                    # Every command server's process goes, in the spec's order (each bounded).
                    await asyncio.wait_for(self.processes.stop_all(), PROCESS_STOP_BOUND_S)
                except (TimeoutError, asyncio.TimeoutError, OSError):
                    pass

        return self.worker.stop(wind_down, bound_s * 2 + PROCESS_STOP_BOUND_S + 0.5)

    # -- the worker's clients and the command servers' processes -------------------------------------

    def _new_client(self) -> McpClient:
        # Each operation opens the standalone stream of its own session, even while the window
        # listens to the server: a server sends what belongs to a session (its questions, a
        # roots/list while a tool waits for it, its log messages) on that session's stream,
        # never on another's.
        return McpClient(handler=self.answers.handler() if self.answers is not None else None,
                         standalone_stream=True, roots_for=self.server_roots.get, eras=self._era_memory(),
                         signin_vault=self.signins.clients_vault(), wire_patterns=redact_text)

    def _era_memory(self) -> EraMemory:
        """What ``auto`` found each server to speak, shared by the worker's clients and the listening
        session: in memory, and kept in the store through the worker's own connection (given to
        it here, on the worker), so it lasts between sessions."""
        if self.eras.backing is None and self.worker.store is not None:
            self.eras.backing = StoredEras(self.worker.store)
        return self.eras

    def set_log_level(self, level: str | None) -> None:
        """Ask every operation submitted from now on for log messages of ``level`` and above."""
        self.log_level = level

    def client_for(self, level: str | None) -> McpClient:
        """The worker's client whose sessions ask for ``level`` (made on first use, on the worker)."""
        client = self._clients.get(level)
        if client is None:
            client = self._clients[level] = self._client_factory()
            client.log_level = level
            client.processes = self.processes
            client.lines.legacy = self.legacy  # found by one client (or the listener): known to all
        return client

    def _heard_output(self, key: str, line: str | Message) -> None:
        """A command server's stderr line (or our sentence about a fault of its stdout), on
        the worker thread."""
        self.output.add(key, line)

    def _heard_between(self, key: str, note: ServerNotification) -> None:
        """A command server's notification while none of its operations runs (its process lives on):
        a log message still goes to the Server log, on the worker thread."""
        self.log.heard(_("process"), self.server_names.get(key) or key.removeprefix("stdio:"), note)

    def stop_server(self, key: str) -> None:
        """Shut the process of the command server ``key`` down (its settings changed, or it went)."""
        if self.worker.loop is None:
            return
        processes = self.processes

        async def stop() -> None:
            await processes.stop(key)

        self.spawn(stop)

    # -- operations ------------------------------------------------------------------------------

    @property
    def tasks(self) -> list[OperationTask]:
        return list(self._tasks)

    def running_tasks(self) -> list[OperationTask]:
        return [task for task in self._tasks if task.running]

    def forget(self, task: OperationTask) -> None:
        """Drop a finished operation from the list (its run stays stored)."""
        if not task.running and task in self._tasks:
            self._tasks.remove(task)

    def next_number(self) -> int:
        """The number the next operation (or sign-in) is listed with."""
        return next(self._numbers)

    def enlist(self, task: OperationTask) -> None:
        """``task`` joins the operations list (a sign-in's too), which is told."""
        self._tasks.append(task)
        self.submitted.emit(task)

    def call_tool(self, server: ServerEndpoint, tool: str, arguments: dict[str, Any],
                  budget_s: object = None, *, store: bool = True, definition: dict[str, Any] | None = None,
                  replay_of: ReplayLink | None = None) -> OperationTask:
        """``definition``: the tool as listed; its result is then checked against its output schema,
        and a tool that requires a task runs as one. ``replay_of``: the stored step this call replays."""
        return self._submit("call", _("tools/call {tool}").format(tool=tool), server, budget_s, store,
                            tool=tool, arguments=arguments, definition=definition, replay_of=replay_of)

    def look_up_task(self, server: ServerEndpoint, task_id: str, session_id: str | None = None,
                     budget_s: object = None, *, store: bool = True) -> OperationTask:
        """``tasks/get`` (and the result once it has ended) for a task made earlier, as an operation."""
        return self._submit("task", _("tasks/get {task}").format(task=task_id), server, budget_s, store,
                            tool=task_id, definition={"sessionId": session_id} if session_id else None)

    def list_tools(self, server: ServerEndpoint, budget_s: object = None, *, store: bool = True) -> OperationTask:
        return self._submit("list", _("tools/list"), server, budget_s, store)

    def ping(self, server: ServerEndpoint, budget_s: object = None, *, store: bool = True) -> OperationTask:
        return self._submit("ping", _("ping"), server, budget_s, store)

    def offer(self, server: ServerEndpoint, operation: str, params: dict[str, Any], title: str,
              budget_s: object = None, *, store: bool = True) -> OperationTask:
        """An operation on what the server offers besides tools (``resources/read``, ``prompts/get``…:
        ``inspector.agent.offerings``); ``title`` names it in the operations list."""
        return self._submit("offering", title, server, budget_s, store, tool=operation, arguments=params)

    def _submit(self, kind: str, title: str, server: ServerEndpoint, budget_s: object, store: bool,
                tool: str | None = None, arguments: dict[str, Any] | None = None,
                definition: dict[str, Any] | None = None, replay_of: ReplayLink | None = None) -> OperationTask:
        if self.worker.loop is None:
            self.start()
        assert self.worker.loop is not None
        budget = parse_budget(self.default_budget_s if budget_s is None else budget_s)
        task = OperationTask(self.next_number(), kind, title, server, budget, tool, arguments)
        task.definition, task.replay_of = definition, replay_of
        task.server_notification.connect(lambda report, url=task.server_url: self._notified(url, report))
        self.enlist(task)
        observer = OperationObserver(task._reports, self.log, title, shown_label(server))
        level = self.log_level
        self.worker.begin(lambda: self._operate(task, observer, store, level))
        return task

    def _notified(self, server_url: str, report: ServerNotification) -> None:
        if report.method == "notifications/tools/list_changed":
            self.tools_changed.emit(server_url)

    async def _operate(self, task: OperationTask, observer: OperationObserver, store: bool,
                       log_level: str | None) -> None:
        """On the worker: run the operation and store it; its end reaches the GUI thread at once."""
        client = self.client_for(log_level)
        worker = self.worker
        outcome = await run_operation(task, observer, client, worker.store if store else None,
                                      worker.store_problem if store else None, self.log, self.signins,
                                      self._session_for)
        task._reports.done(outcome)

    def _session_for(self, server: ServerEndpoint) -> Any:
        """The listening session's session for ``server`` (an offering's read shares it), or None."""
        return self.subscriptions.session_for(server) if self.subscriptions is not None else None


__all__ = ["PROCESS_STOP_BOUND_S", "SHUTDOWN_BOUND_S", "OperationsEngine"]
