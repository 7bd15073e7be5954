"""One operation on the worker thread, from its step to its stored run: the agent's step its kind
names (run again after each sign-in it waited for, :meth:`~.signin_engine.SignIns.operate`), stored
as a run exactly as the command line stores it, through the worker's own store connection. A
sign-in the user asked for is a run of its own (:func:`run_signin`). The agent's steps load with
the first operation, on the worker: not with the window.
"""

from __future__ import annotations

import dataclasses
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from inspector.i18n import _
from inspector.mcp import McpClient, ServerEndpoint
from inspector.runs.replaying import ReplayLink
from inspector.runs.times import to_stored_time
from inspector.store import RunStore, ServerRegistry, StoreError
from inspector.store.database import LOCK_WAIT_S, RECORD_LOCK_WAIT_S, START_LOCK_WAIT_S
from inspector.store.replays import note_replay

from .asking import ASKER, Asker
from .operation_log import OperationLog
from .operation_reports import OperationObserver
from .operation_task import OperationOutcome, OperationTask
from .record_aside import kept_aside
from .set_aside import set_aside_record

if TYPE_CHECKING:
    from inspector.agent import OperationRecord

    from .signin_engine import SignIns
    from .signin_task import SignInObserver, SignInTask

#: The listening session's session for a server (its subscriptions'), or None: an offering's read shares it.
SessionFor = Callable[[ServerEndpoint], Any]


async def run_operation(task: OperationTask, observer: OperationObserver, client: McpClient,
                        store: RunStore | None, problem: str | None, log: OperationLog, signins: SignIns,
                        session_for: SessionFor) -> OperationOutcome:
    """Run ``task``'s step with ``client`` and store it as a run in ``store`` (None: not stored;
    ``problem``: why not). Every end is an outcome, a bug's too."""
    server, budget, cancel = task.server, task.budget_s, task.cancel_signal
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
        run_id, problem = start_run(store, title, task.server_url, problem, uid)
        observer.stored_as(run_id)
        # The server's questions and sampling requests on this operation's session name it.
        ASKER.set(Asker(task, run_id, log))
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

                return await offering_step(client, server, task.tool or "", task.arguments or {}, budget_s=budget,
                                           cancel=cancel, observer=observer, session=session_for(server))
            if task.kind == "list":
                return await list_tools_step(client, server, budget_s=budget, cancel=cancel, observer=observer)
            return await ping_step(client, server, budget_s=budget, cancel=cancel, observer=observer)

        # A server that asks for a sign-in: the operation waits for one, then runs afresh.
        record, signed = await signins.operate(task, client, attempt)
        counted = not (task.set_aside and record.health == "cancelled")  # the window's cancel, not the user's
        if task.set_aside and task.kind == "list":
            record = set_aside_record(record, reloaded=task.reloaded)  # its step says so
        run_id, aside = finish_run(store, run_id, task.server_url, record, signed, task.replay_of, counted,
                                   title=title, uid=uid)
        return OperationOutcome(record, run_id, aside or problem)
    except Exception as exc:  # noqa: BLE001 - the window must hear of every end, even a bug's
        return stopped_by_a_bug(problem, exc)


async def run_signin(task: SignInTask, observer: SignInObserver, client_for: Callable[[], McpClient],
                     store: RunStore | None, problem: str | None, browser: Any) -> OperationOutcome:
    """Sign in to ``task``'s server; stored (no server health: a sign-in says nothing of how the MCP
    server does) as a run of its own in ``store``, None when it is a step of the runs that wait for it."""
    from inspector.agent.operations import sign_in_step

    title, uid = f"sign-in {task.server_url}", uuid.uuid4().hex
    run_id, problem = start_run(store, title, task.server_url, problem, uid)
    observer.stored_as(run_id)
    try:
        record = await sign_in_step(client_for(), task.server, challenge=getattr(task.reason, "challenge", None),
                                    previous_scope=task.previous_scope, cancel=task.cancel_signal,
                                    observer=observer, browser=browser)
        signed = record.result
        task.tokens = getattr(signed, "tokens", None)
        record = dataclasses.replace(record, result=None)  # the tokens stay in the vault, not in the window
        run_id, aside = finish_run(store, run_id, task.server_url, record, counted=False, title=title, uid=uid)
        return OperationOutcome(record, run_id, aside or problem)
    except Exception as exc:  # noqa: BLE001 - the window must hear of every end, even a bug's
        return stopped_by_a_bug(problem, exc)


def stopped_by_a_bug(problem: str | None, exc: Exception) -> OperationOutcome:
    """An unexpected failure inside the engine: the operation ends, and says so."""
    return OperationOutcome(None, None, problem, _("The operation stopped on an internal error: "
                                                   "{error}").format(error=type(exc).__name__))


def start_run(store: RunStore | None, title: str, server_url: str,
              problem: str | None, uid: str | None = None) -> tuple[int | None, str | None]:
    """The run's first row, so that a window killed mid-operation leaves an ``interrupted`` run. When the
    database does not take it (a full disk, a read-only file, a lock), the operation still runs and its
    whole run is written at its end (:func:`finish_run`)."""
    if store is None:
        return None, problem
    try:
        with lock_wait(store, START_LOCK_WAIT_S):  # the worker's loop (every operation, a cancel) waits meanwhile
            return store.start_run(title, "live", server_url, uid=uid), problem
    except (StoreError, sqlite3.Error):
        return None, problem


def finish_run(store: RunStore | None, run_id: int | None, server_url: str, record: OperationRecord,
               before: list[OperationRecord] | None = None, replay_of: ReplayLink | None = None,
               counted: bool = True, *, title: str = "", uid: str | None = None) -> tuple[int | None, str | None]:
    """Store the operation's steps, the run's end and the server's health in one transaction (the whole run
    when its first row could not be written); the run's id and, when the database did not take it, where its
    record went instead. ``before``: the sign-ins the operation waited for, stored as steps before its own;
    ``replay_of``: the stored step the operation replays; ``counted``: the server's health counts it."""
    if store is None:
        return None, None
    from inspector.agent.operations import as_happened  # loaded with the operation's step, not with the window

    if replay_of is not None:
        record = dataclasses.replace(record, step=replay_of.marked(record.step))
    steps = as_happened(before or (), record)
    try:
        with lock_wait(store, RECORD_LOCK_WAIT_S), store.transaction():
            stored = run_id
            if stored is None:
                stored = store.insert_run(title, "live", server_url, steps[0].started_at, uid, "running", None)
            if replay_of is not None:
                note_replay(store, stored, replay_of)
            for step in steps:
                store.insert_step(stored, store.next_sequence(stored), step.step, to_stored_time(step.started_at))
            store.mark_finished(stored, record.status)
            if counted:
                ServerRegistry(store.db).count_operation(server_url, record.health, record.latency_ms)
    except (StoreError, sqlite3.Error, OSError, ValueError) as exc:
        return None, kept_aside(store, run_id, title, server_url, record, uid, exc, steps)
    return stored, None


@contextmanager
def lock_wait(store: RunStore, seconds: float) -> Iterator[None]:
    """Statements on ``store`` inside wait at most ``seconds`` for another program's lock (the usual time after):
    the worker's loop, which runs every operation and hears every cancel, waits while they wait."""
    store.set_lock_wait(seconds)
    try:
        yield
    finally:
        store.set_lock_wait(LOCK_WAIT_S)


__all__ = ["SessionFor", "finish_run", "run_operation", "run_signin", "start_run", "stopped_by_a_bug"]
