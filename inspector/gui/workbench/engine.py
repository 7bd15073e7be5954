"""The operations engine: one worker thread owns an asyncio loop; each operation is a task on it.

The GUI submits an operation and gets an :class:`OperationTask` (the task-state object of
Orange3's pattern): the client's reports arrive on the worker thread, are buffered and cross to
the GUI thread at most once per frame (:mod:`.report_courier`), update the task's
:class:`BarState` once per batch, and are re-emitted there. Cancel,
called on the GUI thread, fires the operation's own :class:`CancelSignal` at once. Every
operation is stored as a run exactly as the command line stores it, by the worker (the GUI
thread never waits on the disk for it). What a server logs on an operation's own session goes
to :attr:`OperationsEngine.log` (batched for the Server log); each operation's session asks for
the log level set with :meth:`OperationsEngine.set_log_level` when it was submitted.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import sys
import threading
import time
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from inspector.i18n import _
from inspector.mcp import (
    CancelSignal,
    LegFinished,
    LegStarted,
    LogLevelRefused,
    McpClient,
    NullObserver,
    OperationFinished,
    OperationStarted,
    ProgressSeen,
    ServerEndpoint,
    ServerRequestSeen,
    parse_budget,
    public_url,
)
from inspector.mcp.eras import EraMemory, LayeredEras
from inspector.mcp.messages import Message
from inspector.mcp.processes import ServerProcesses
from inspector.mcp.reports import TaskSeen
from inspector.mcp.server_requests import Root
from inspector.mcp.signin.model import SignInVault
from inspector.mcp.standalone import STDERR, ServerNotification
from inspector.runs.replaying import ReplayLink
from inspector.store import RunStore, ServerRegistry, StoredEras, StoreError
from inspector.store.replays import note_replay
from inspector.traces.redact import redact_text

from ..widgets.budget_state import BarState, ProgressMark, ending_for
from .asking import ASKER, Asker
from .console import ProcessOutput
from .operation_log import OperationLog, operation_tag
from .report_courier import ReportCourier, the_courier
from .server_requests import WindowAnswers
from .set_aside import set_aside_record

if TYPE_CHECKING:
    from inspector.agent import OperationRecord

#: Housekeeping after quitting (cancel notices, session ends) gets at most this long.
SHUTDOWN_BOUND_S = 1.0
#: Stopping the command servers' processes on quitting gets at most this long: each is told by the
#: end of its stdin, then SIGTERM after 2 s, then SIGKILL after 2 s more (the client's order).
PROCESS_STOP_BOUND_S = 5.0
KINDS = ("call", "list", "ping")
#: The interpreter lock's switch interval once the worker runs (Python's default is 5 ms). A
#: server flooding a stream keeps the worker busy; the GUI thread needs the lock for each call
#: into Python (each cell a repaint asks for, each timer) and waited up to the interval for
#: each. Under a flood of 100,000 log lines the longest stall was 560–630 ms with 5 ms and
#: 140–160 ms with 1 ms (benchmarks/gui_log_flood.py, three runs each, in turn).
SWITCH_INTERVAL_S = 0.001


@dataclass(frozen=True)
class OperationOutcome:
    """How an operation ended, as the window needs it."""

    record: OperationRecord | None
    run_id: int | None
    #: Why the run could not be stored (completely), or None.
    store_problem: str | None = None
    #: An unexpected failure inside the engine (a bug): the sentence to show.
    internal_error: str | None = None

    @property
    def status(self) -> str:
        if self.record is None:
            return "failed"
        return self.record.status


class _Reports:
    """Puts one operation's reports, with the time each was seen, into the courier's buffer
    (worker thread); the GUI thread takes them at most once per frame (:mod:`.report_courier`)."""

    def __init__(self, task: OperationTask, courier: ReportCourier) -> None:
        self._task = task
        self._courier = courier

    def put(self, kind: str, report: object) -> None:
        self._courier.put(self._task, kind, report, time.monotonic())

    def done(self, outcome: OperationOutcome) -> None:
        """The operation's end: delivered at once, not at the frame's end (a cancel shows at once)."""
        self._courier.put(self._task, "done", outcome, time.monotonic(), urgent=True)


class _Observer(NullObserver):
    """The client's observer for one operation: runs on the worker, emits with the time seen.

    Log messages (and a refused log level) go to the engine's :class:`OperationLog`, tagged with
    the operation and the server, in batches; other notifications cross one by one."""

    def __init__(self, reports: _Reports, log: OperationLog, title: str, server: str) -> None:
        self._reports = reports
        self._log = log
        self._title = title
        self._operation = operation_tag(None, title)
        self._server = server

    def stored_as(self, run_id: int | None) -> None:
        """The operation's run is known (before its first leg): its lines name it."""
        self._operation = operation_tag(run_id, self._title)

    def operation_started(self, report: OperationStarted) -> None:
        self._reports.put("started", report)

    def leg_started(self, report: LegStarted) -> None:
        self._reports.put("leg_started", report)

    def leg_finished(self, report: LegFinished) -> None:
        self._reports.put("leg_finished", report)

    def progress(self, report: ProgressSeen) -> None:
        self._reports.put("progress", report)

    def notification(self, report: ServerNotification) -> None:
        if report.method == "notifications/message":
            self._log.heard(self._operation, self._server, report)
        elif report.method == STDERR:
            # A command server's stderr reaches the log once, through the engine's process output
            # (also between operations); the step keeps its own copy.
            return
        else:
            self._reports.put("notification", report)

    def log_level_refused(self, report: LogLevelRefused) -> None:
        self._log.refused(self._operation, self._server, report)

    def task_seen(self, report: TaskSeen) -> None:
        self._reports.put("task", report)

    def server_request(self, report: ServerRequestSeen) -> None:
        self._log.asked(self._operation, self._server, report)

    def operation_finished(self, report: OperationFinished) -> None:
        self._reports.put("finished", report)


class OperationTask(QObject):
    """The state of one operation on the GUI thread; widgets only connect to its signals."""

    #: Something the bar shows changed (a leg started or ended, progress, the end).
    changed = Signal()
    #: The operation is over; the outcome is in :attr:`outcome`.
    finished = Signal(object)
    #: The server sent a notification other than a log message (a list-changed notice); log
    #: messages go to the engine's :attr:`OperationsEngine.log`.
    server_notification = Signal(object)
    #: The user asked to cancel (the operation ends soon): its question dialogs close now.
    cancelling = Signal()

    def __init__(self, number: int, kind: str, title: str, server: ServerEndpoint, budget_s: float,
                 tool: str | None = None, arguments: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.number = number
        self.kind = kind
        self.title = title
        self.server = server
        self.server_url = public_url(server.url)
        self.tool = tool
        self.arguments = arguments
        #: The tool as the catalogue listed it: its result is checked against its output schema, and
        #: its ``execution.taskSupport`` decides whether it runs as a task.
        self.definition: dict[str, Any] | None = None
        #: The stored step this operation replays (its run is linked to it).
        self.replay_of: ReplayLink | None = None
        self.budget_s = budget_s
        self.cancel_signal = CancelSignal()
        self.state = BarState(budget_s, transport=server.transport)  # how its legs' tooltips say what travelled
        #: Monotonic time the operation opened its deadline (set by the first report).
        self.started_at: float | None = None
        self.submitted_at = time.monotonic()
        self.cancel_requested_at: float | None = None
        #: The window cancelled it for itself (the user selected another server): not the user's
        #: cancel, so a cancelled end counts nothing in the server's health.
        self.set_aside = False
        #: The server asked for a sign-in: the operation waits for it, its budget not yet started.
        self.waiting_for_signin = False
        #: How many sign-ins it waited for before its last, fresh attempt.
        self.signins_waited = 0
        self.outcome: OperationOutcome | None = None
        self.error_kind: str | None = None
        #: The task the operation runs as, as last seen (its status after the latest poll).
        self.task_seen: TaskSeen | None = None
        #: The legs that have ended, as reported (with what each sent and received, when kept).
        self.finished_legs: list[LegFinished] = []
        self._courier = the_courier()
        self._reports = _Reports(self, self._courier)

    # -- asked by the GUI --------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self.outcome is None

    def cancel(self) -> None:
        """Cancel now: the worker's task is cancelled through the loop's thread-safe wake-up."""
        if self.outcome is None and self.cancel_requested_at is None:
            self.cancel_requested_at = time.monotonic()
        first = self.outcome is None and not self.cancel_signal.fired
        # The cancel first: the worker tears the call down before it can act on the answer below (both
        # reach its loop in this order). Answered first, a server that ends its tool at once when told
        # "cancel" could end the call ok before the cancel came.
        self.cancel_signal.fire()
        if first:
            self.cancelling.emit()  # then an open question is answered "cancel" and its dialog closes

    def put_aside(self) -> None:
        """Cancel an operation the user did not ask for and has moved on from (a catalogue walk of the
        server selected before): it ends as a cancel, but not as the user's, so the server's health
        (which counts the user's cancels) is not touched by it."""
        if self.outcome is None:
            self.set_aside = True
        self.cancel()

    def elapsed_s(self, now: float | None = None) -> float:
        """Seconds since the operation started (0 before it has)."""
        if self.started_at is None:
            return 0.0
        return (time.monotonic() if now is None else now) - self.started_at

    def flush_reports(self) -> None:
        """Take what the worker reported and the courier still holds, now (GUI thread)."""
        self._courier.flush(self)

    # -- reports, on the GUI thread ------------------------------------------------------------

    def take_reports(self, entries: list[tuple[str, Any, float]]) -> None:
        """A batch of reports, in the order the worker made them: the bar's state takes each,
        and :attr:`changed` is emitted once for the batch (the end emits it with :attr:`finished`)."""
        moved = False
        for kind, report, at in entries:
            if kind == "done":
                self._on_done(report)
                moved = False
            elif kind == "notification":
                self.server_notification.emit(report)
            else:
                moved = _TAKE[kind](self, report, at) or moved
        if moved:
            self.changed.emit()

    def _on_started(self, report: OperationStarted, at: float) -> bool:
        self.started_at = at
        self.budget_s = self.state.budget_s = report.budget_s
        self.state.touch()
        return True

    def _on_leg_started(self, report: LegStarted, at: float) -> bool:
        self.state.leg_started(report.method, report.granted_s, report.offset_s)
        return True

    def _on_leg_finished(self, report: LegFinished, at: float) -> bool:
        elapsed = None if report.elapsed_ms is None else report.elapsed_ms / 1000
        self.state.leg_finished(report.method, report.granted_s, elapsed, report.outcome.value,
                                report.http_status, report.bytes_received, report.error_kind,
                                now_s=self.elapsed_s(at), exchange=report.exchange)
        self.finished_legs.append(report)
        return True

    def _on_progress(self, report: ProgressSeen, at: float) -> bool:
        self.state.add_mark(ProgressMark(self.elapsed_s(at), report.progress, report.total, report.message))
        return True

    def _on_task(self, report: TaskSeen, at: float) -> bool:
        self.task_seen = report
        return True

    def _on_restart(self, count: int, at: float) -> bool:
        """It waited for a sign-in (``count`` so far) and runs afresh."""
        self.waiting_for_signin = False
        self.signins_waited = count
        return True

    def _on_finished(self, report: OperationFinished, at: float) -> bool:
        self.error_kind = None if report.error is None else getattr(report.error.kind, "value", None)
        if report.transport:  # an address found to speak the older HTTP+SSE transport: its legs say so
            self.state.transport = report.transport
            self.state.touch()
        return False

    def _on_done(self, outcome: OperationOutcome) -> None:
        self.outcome = outcome
        status = outcome.status
        reason = None
        record = outcome.record
        if status == "failed":
            # A kind, not words: the bar and the row say it in the language of the moment.
            if outcome.internal_error:
                reason = "internal_error"
            elif record is not None and record.error is None:
                reason = "tool_error"
            elif record is not None and record.error.kind.value == "output_schema":
                reason = "output_schema"  # the server answered: the client found the answer wrong
            elif self.error_kind:
                reason = self.error_kind
        ended = record.latency_ms / 1000 if record is not None else self.elapsed_s()
        self.state.finish(ended, ending_for(status, self.state.legs, self.error_kind), reason)
        self.changed.emit()
        self.finished.emit(outcome)


#: What each kind of report does to the task (each returns whether the bar changed).
_TAKE: dict[str, Callable[[OperationTask, Any, float], bool]] = {
    "started": OperationTask._on_started, "leg_started": OperationTask._on_leg_started,
    "leg_finished": OperationTask._on_leg_finished, "progress": OperationTask._on_progress,
    "task": OperationTask._on_task, "finished": OperationTask._on_finished, "restart": OperationTask._on_restart,
}


class OperationsEngine(QObject):
    """Runs operations on one worker thread with its own asyncio loop, and stores each as a run."""

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
        self._db_path = db_path
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
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        #: One client per log level (made on the worker when first needed): an operation's level is
        #: the one set when it was submitted, whatever changes while it waits for the loop.
        self._clients: dict[str | None, McpClient] = {}
        #: What ``auto`` found each server to speak, shared by the clients and the listening session.
        self.eras = LayeredEras()
        self._store: RunStore | None = None
        self._store_problem: str | None = None
        self._running: set[asyncio.Task[None]] = set()
        #: The roots configured per server (by URL); read by the worker for each operation.
        self.server_roots: dict[str, tuple[Root, ...] | None] = {}
        #: The command servers' names as the Server log shows them (by key); set by the window.
        self.server_names: dict[str, str] = {}
        #: The command servers' processes, shared by every client of the engine (one per log level):
        #: a server's process is started once and kept for the window's later operations.
        self.processes = ServerProcesses(self._heard_output, self._heard_between)
        self.output = ProcessOutput(self.log, self.server_names)
        self.output.lines.connect(self.server_output)
        from .signin_engine import SignIns  # it builds on this module's task and observer

        #: Sign-ins: the vault, who waits for one, Sign in and Sign out.
        self.signins = SignIns(self, signin_vault)

    # -- life ------------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker thread and its loop (returns once the loop runs)."""
        if self._thread is not None:
            return
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self._thread = threading.Thread(target=self._work, name="run-inspector-operations", daemon=True)
        self._thread.start()
        self._ready.wait(10)

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
        if self.eras.backing is None and self._store is not None:
            self.eras.backing = StoredEras(self._store)
        return self.eras

    def set_log_level(self, level: str | None) -> None:
        """Ask every operation submitted from now on for log messages of ``level`` and above."""
        self.log_level = level

    def _client_for(self, level: str | None) -> McpClient:
        """The worker's client whose sessions ask for ``level`` (made on first use)."""
        client = self._clients.get(level)
        if client is None:
            client = self._clients[level] = self._client_factory()
            client.log_level = level
            client.processes = self.processes
        return client

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

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
        if self._loop is None:
            return
        processes = self.processes

        async def stop() -> None:
            await processes.stop(key)

        self.spawn(stop)

    def spawn(self, make: Callable[[], Coroutine[Any, Any, None]]) -> None:
        """Run the coroutine ``make()`` builds on the worker's loop; shutdown waits for it (bounded)."""
        if self._loop is None:
            self.start()
        assert self._loop is not None

        def begin() -> None:
            task = asyncio.get_running_loop().create_task(make())
            self._running.add(task)
            task.add_done_callback(self._running.discard)

        try:
            self._loop.call_soon_threadsafe(begin)
        except RuntimeError:  # the loop has ended (the window is closing)
            pass

    def _work(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        if self._db_path is not None:
            try:
                self._store = RunStore.open(self._db_path)  # this thread's own connection
            except StoreError as exc:
                self._store_problem = str(exc)
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            if self._store is not None:
                self._store.close()
            loop.close()

    def shutdown(self, bound_s: float = SHUTDOWN_BOUND_S) -> bool:
        """Cancel what runs, let housekeeping finish (bounded), stop the loop and the thread.

        Returns True when the thread has ended."""
        if self._thread is None or self._loop is None:
            return True
        for task in self._tasks:
            if task.running:
                task.cancel()
        ended = threading.Event()

        async def wind_down() -> None:
            try:
                if self._running:
                    await asyncio.wait(list(self._running), timeout=bound_s)
                clients = list(self._clients.values())
                if clients:
                    await asyncio.gather(*(client.drain(bound_s / 2) for client in clients))
            finally:
                try:
                    # Every command server's process goes, in the spec's order (each bounded).
                    await asyncio.wait_for(self.processes.stop_all(), PROCESS_STOP_BOUND_S)
                except (TimeoutError, asyncio.TimeoutError, OSError):
                    pass
                ended.set()

        try:
            asyncio.run_coroutine_threadsafe(wind_down(), self._loop)
            ended.wait(bound_s * 2 + PROCESS_STOP_BOUND_S + 0.5)
            self._loop.call_soon_threadsafe(self._loop.stop)
        except RuntimeError:  # the loop is already closed
            pass
        self._thread.join(bound_s * 2 + PROCESS_STOP_BOUND_S + 1)
        alive = self._thread.is_alive()
        self._thread = None
        return not alive

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
        if self._loop is None:
            self.start()
        assert self._loop is not None
        budget = parse_budget(self.default_budget_s if budget_s is None else budget_s)
        task = OperationTask(next(self._numbers), kind, title, server, budget, tool, arguments)
        task.definition, task.replay_of = definition, replay_of
        self._tasks.append(task)
        task.server_notification.connect(lambda report, url=task.server_url: self._notified(url, report))
        self.submitted.emit(task)
        observer = _Observer(task._reports, self.log, title, server.label)
        self._loop.call_soon_threadsafe(self._begin, task, observer, store, self.log_level)
        return task

    def _notified(self, server_url: str, report: ServerNotification) -> None:
        if report.method == "notifications/tools/list_changed":
            self.tools_changed.emit(server_url)

    # -- on the worker thread -------------------------------------------------------------------

    def _begin(self, task: OperationTask, observer: _Observer, store: bool, log_level: str | None) -> None:
        running = asyncio.get_running_loop().create_task(self._operate(task, observer, store, log_level))
        self._running.add(running)
        running.add_done_callback(self._running.discard)

    async def _operate(self, task: OperationTask, observer: _Observer, store: bool, log_level: str | None) -> None:
        client, server, budget, cancel = self._client_for(log_level), task.server, task.budget_s, task.cancel_signal
        run_store = self._store if store else None
        problem = self._store_problem if store else None
        try:
            # The same titles and steps as `run-inspector call/tools/ping`.
            if task.kind == "call":
                title = f"tools/call {task.tool}"
            elif task.kind == "task":
                title = f"tasks/get {task.tool}"
            elif task.kind == "offering":
                title = task.title
            else:
                title = f"{'tools/list' if task.kind == 'list' else 'ping'} {task.server_url}"
            # The run's uid is chosen now: its requests' traceparent names the run's trace.
            uid = uuid.uuid4().hex
            run_id, problem = _start_run(run_store, title, task.server_url, problem, uid)
            observer.stored_as(run_id)
            # The server's questions and sampling requests on this operation's session name it.
            ASKER.set(Asker(task, run_id, self.log))
            # The operations' steps load with the first operation, on the worker: not with the window.
            from inspector.agent.operations import execute_tool, list_tools_step, look_up_task_step, ping_step
            from inspector.agent.tracing import step_trace, traced

            attempts = 0

            async def attempt() -> OperationRecord:
                nonlocal attempts
                attempts += 1  # an attempt after the first follows a sign-in's step: it is step `attempts`
                with traced(step_trace(uid, attempts) if run_id is not None else None):
                    return await _attempt()

            async def _attempt() -> OperationRecord:
                if task.kind == "call":
                    return await execute_tool(client, server, task.tool or "", task.arguments, budget_s=budget,
                                              cancel=cancel, observer=observer, definition=task.definition)
                if task.kind == "task":  # a task looked up again: its id rides as the tool, its session in definition
                    return await look_up_task_step(client, server, task.tool or "", budget_s=budget, cancel=cancel,
                                                   observer=observer,
                                                   session_id=(task.definition or {}).get("sessionId"))
                if task.kind == "offering":
                    from inspector.agent.offerings import offering_step

                    session = self.subscriptions.session_for(server) if self.subscriptions is not None else None
                    return await offering_step(client, server, task.tool or "", task.arguments or {}, budget_s=budget,
                                               cancel=cancel, observer=observer, session=session)
                if task.kind == "list":
                    return await list_tools_step(client, server, budget_s=budget, cancel=cancel, observer=observer)
                return await ping_step(client, server, budget_s=budget, cancel=cancel, observer=observer)

            # A server that asks for a sign-in: the operation waits for one, then runs afresh.
            record, signins = await self.signins.operate(task, client, attempt)
            counted = not (task.set_aside and record.health == "cancelled")  # the window's cancel, not the user's
            record = set_aside_record(record) if task.set_aside and task.kind == "list" else record  # its step says so
            problem = _finish_run(run_store, run_id, task.server_url, record, signins, task.replay_of,
                                  counted) or problem
            outcome = OperationOutcome(record, run_id, problem)
        except Exception as exc:  # noqa: BLE001 - the window must hear of every end, even a bug's
            outcome = OperationOutcome(None, None, problem, _("The operation stopped on an internal error: "
                                                              "{error}").format(error=type(exc).__name__))
        task._reports.done(outcome)


def _start_run(store: RunStore | None, title: str, server_url: str,
               problem: str | None, uid: str | None = None) -> tuple[int | None, str | None]:
    if store is None:
        return None, problem
    try:
        return store.start_run(title, "live", server_url, uid=uid), problem
    except StoreError as exc:
        return None, _("This operation will not be recorded: {reason}").format(reason=exc)


def _finish_run(store: RunStore | None, run_id: int | None, server_url: str, record: OperationRecord,
                before: list[OperationRecord] | None = None, replay_of: ReplayLink | None = None,
                counted: bool = True) -> str | None:
    """``before``: the sign-ins the operation waited for, stored as steps before its own;
    ``replay_of``: the stored step the operation replays; ``counted``: the server's health counts it."""
    if store is None or run_id is None:
        return None
    try:
        if replay_of is not None:
            record = dataclasses.replace(record, step=replay_of.marked(record.step))
            note_replay(store, run_id, replay_of)
        for earlier in before or ():
            store.append_step(run_id, earlier.step, earlier.started_at)
        store.append_step(run_id, record.step, record.started_at)
        store.finish_run(run_id, record.status)
        if counted:
            ServerRegistry(store.db).record_operation(server_url, record.health, record.latency_ms)
    except (StoreError, OSError, ValueError) as exc:
        return _("The run could not be stored completely: {reason}").format(reason=exc)
    return None


