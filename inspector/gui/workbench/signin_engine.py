"""Signing in from the window: a sign-in is an operation of its own in the operations list, and an
operation the server refused until a sign-in waits for one, then runs afresh with its whole budget.

When an operation fails with "sign-in required" (a 401, or a 403 asking for a larger scope) the
worker hands it to :class:`SignIns` on the GUI thread and waits. The window asks the user first
(:attr:`SignIns.asked`: the sign-in view opens with a Sign in button), because signing in opens the
system browser, which a user should not see happen merely on selecting a server; without a window
listening the sign-in starts at once, as on the command line. Several operations of one server
wait for one sign-in. A sign-in that stood lets each run again afresh (at most
:data:`MAX_SIGNINS` times: a server that keeps asking for more is stopped); one that failed, was
cancelled or was declined leaves each recorded as it failed, "sign-in required"; an operation cancelled
while it waits is recorded cancelled.

The tokens live in the vault (:mod:`.signin_tokens`), never in the database. As on the
command line, the sign-in is stored as a step of each run that waited for it, before that
operation's own step (a sign-in the user started from the Servers panel is a run of its own).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt, Signal

from inspector.mcp import McpClient, ServerEndpoint
from inspector.mcp.errors import ErrorKind, McpTransportError
from inspector.mcp.leg_names import SIGNIN_WAIT
from inspector.mcp.signin.discovery import canonical_resource
from inspector.mcp.signin.model import SignInSettings, SignInVault, TokenSet
from inspector.mcp.signin.operation import with_tokens
from inspector.store import StoreError

from .operation_runs import run_signin
from .operation_task import OperationTask
from .signin_task import Need, SignInObserver, SignInRequest, SignInTask
from .signin_tokens import KeptTokens

if TYPE_CHECKING:
    from inspector.agent import OperationRecord

    from .engine import OperationsEngine

#: How many times one operation waits for a sign-in (as ``run-inspector call`` does).
MAX_SIGNINS = 3
Browser = Callable[[str], Awaitable[bool]]


def configured_signin(store: Any, url: str, vault: SignInVault) -> SignInSettings | None:
    """The sign-in settings kept with the server ``url`` (``servers set``, schema 7), its client
    secret from the keyring; ``None`` when none are set or they cannot be read (a key file gone)."""
    from inspector.store.signin_settings import StoredSignIn
    from inspector.store.signin_vault import LazyVault

    # A vault not yet opened is handed on as it is: it opens only when a client secret is asked for.
    keeper = vault if isinstance(vault, LazyVault) or hasattr(vault, "client_secret") else None
    try:
        return StoredSignIn(store, keeper).settings_for(url)  # type: ignore[arg-type]
    except (StoreError, OSError, ValueError):
        return None


def signed_in_copy(signins: SignIns, server: ServerEndpoint) -> ServerEndpoint:
    """``server`` carrying its sign-in's token (for the listening session), or as it is."""
    tokens = signins.tokens(server)
    return with_tokens(server, tokens) if tokens is not None else server


def cancelled_waiting(record: OperationRecord, server: ServerEndpoint) -> OperationRecord:
    """``record``, refused until a sign-in, as the cancel that ended its wait for one leaves it: cancelled,
    never a failure nor the server's fault (as the command line records a Ctrl-C during the sign-in); its
    step still shows the refusal."""
    error = McpTransportError.cancelled(server.label, SIGNIN_WAIT, in_flight=False)
    return dataclasses.replace(record, error=error, status="cancelled", health="cancelled")


def asks_signin(error: object) -> bool:
    return isinstance(error, McpTransportError) and error.kind is ErrorKind.SIGNIN_REQUIRED


class _Crossing(QObject):
    needed = Signal(object)


class SignIns(QObject):
    """The window's sign-ins: who waits, who is signed in, Sign in and Sign out (GUI thread)."""

    #: A sign-in the user should be asked for (a :class:`SignInRequest`); see :attr:`ask_user`.
    asked = Signal(object)
    #: A sign-in started (a :class:`SignInTask`).
    started = Signal(object)
    #: What a server's sign-in state is changed (its URL without credentials).
    state_changed = Signal(str)

    def __init__(self, engine: OperationsEngine, vault: SignInVault | None = None) -> None:
        super().__init__()
        self._engine = engine
        #: The tokens kept per server, as last read (on the worker).
        self.kept = KeptTokens(vault, engine.spawn)
        self.kept.changed.connect(self.state_changed)
        self.vault = self.kept.vault
        #: Opens the browser at an address (None: the system browser, honouring BROWSER).
        self.browser: Browser | None = None
        #: Ask before signing in (the window's sign-in view answers :attr:`asked`); else start at once.
        self.ask_user = False
        #: Servers (canonical resource) that refused an operation until a sign-in, not signed in since.
        self.needing: set[str] = set()
        self._running: dict[str, SignInTask] = {}
        self._pending: dict[str, SignInRequest] = {}
        self._crossing = _Crossing()
        self._crossing.needed.connect(self._on_needed, Qt.ConnectionType.QueuedConnection)

    # -- asked by the window (GUI thread) ------------------------------------------------------

    def tokens(self, server: ServerEndpoint) -> TokenSet | None:
        """The tokens kept for ``server``, as last read (see :meth:`KeptTokens.tokens`)."""
        return self.kept.tokens(server)

    def hold_reads(self) -> None:
        """Keep the vault's reads waiting until :meth:`release_reads` (the first paint)."""
        self.kept.hold_reads()

    def release_reads(self) -> None:
        self.kept.release_reads()

    def clients_vault(self) -> SignInVault:
        """The vault as the operations' clients hold it: it notes whose tokens they change."""
        return self.kept.clients_vault()

    def operation_ended(self, task: OperationTask) -> None:
        """An operation ended: its server's tokens are read again if it changed them."""
        self.kept.operation_ended(task)

    def needs(self, server: ServerEndpoint) -> bool:
        return not server.is_command and canonical_resource(server.url) in self.needing

    def running(self, server: ServerEndpoint) -> SignInTask | None:
        return self._running.get(server.key)

    def sign_in(self, server: ServerEndpoint, *, reason: McpTransportError | None = None,
                previous_scope: str | None = None) -> SignInTask:
        """Start signing in to ``server`` (or return the sign-in already running for it)."""
        running = self._running.get(server.key)
        if running is not None:
            return running
        engine = self._engine
        if engine.worker.loop is None:
            engine.start()
        assert engine.worker.loop is not None
        task = SignInTask(engine.next_number(), server, reason=reason, previous_scope=previous_scope)
        self._running[server.key] = task
        pending = self._pending.pop(server.key, None)
        if pending is not None:
            task.waiters.extend(pending.needs)
            pending.open = False
            pending.closed.emit()
        task.finished.connect(lambda outcome, task=task: self._signin_over(task))
        engine.enlist(task)
        self.started.emit(task)
        observer = SignInObserver(task, engine)
        # Stored as a run of its own when the user asked for it; else in the runs that wait for it.
        alone = reason is None
        engine.worker.begin(lambda: self._run(task, observer, alone))
        return task

    def answer(self, request: SignInRequest) -> SignInTask | None:
        """The user said Sign in to ``request``."""
        if not request.open:
            return self._running.get(request.server.key)
        error = request.reason
        return self.sign_in(request.server, reason=error, previous_scope=request.first.previous_scope)

    def decline(self, request: SignInRequest) -> None:
        """The user said no: the waiting operations end as they failed (sign-in required)."""
        if self._pending.get(request.server.key) is request:
            del self._pending[request.server.key]
        if request.open:
            request.open = False
            for need in request.needs:
                need.settle(None)
            request.closed.emit()

    def sign_out(self, server: ServerEndpoint) -> None:
        """Forget the server's tokens (the next operation that needs a sign-in asks again)."""
        self.kept.forget(server)
        self.state_changed.emit(server.key)

    # -- the worker's side ----------------------------------------------------------------------

    async def operate(self, task: OperationTask, client: McpClient, attempt: Callable[[], Awaitable[OperationRecord]],
                      ) -> tuple[OperationRecord, list[OperationRecord]]:
        """Run ``attempt``; while the server asks for a sign-in, wait for one and run it again afresh.
        The last attempt's record, and the records of the sign-ins it waited for (its run's steps
        before its own). A sign-in that failed or was cancelled leaves the attempt as it failed."""
        record = await attempt()
        signins: list[OperationRecord] = []
        while asks_signin(record.error) and len(signins) < MAX_SIGNINS and not task.cancel_signal.fired:
            error = record.error
            assert error is not None
            kept = client.signed_in(task.server)
            previous = kept.scope if kept is not None and error.http_status == 403 else None
            signed = await self._wait(task, error, previous)
            if signed is None:
                if task.cancel_signal.fired:  # the user's cancel (or the window's) ended the wait
                    record = cancelled_waiting(record, task.server)
                break
            signins.append(signed)
            if signed.status != "ok":
                break
            # With the task's reports, so it reaches the window before the new attempt's (its end too).
            task._reports.put("restart", len(signins))
            record = await attempt()
        return record, signins

    async def _wait(self, task: OperationTask, error: McpTransportError,
                    previous: str | None) -> OperationRecord | None:
        loop = asyncio.get_running_loop()
        need = Need(task, error, previous, loop.create_future(), loop)
        self._crossing.needed.emit(need)
        try:
            with task.cancel_signal.bind_current_task():
                return await need.future
        except asyncio.CancelledError:
            if not task.cancel_signal.fired:
                raise
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
            return None

    async def _run(self, task: SignInTask, observer: SignInObserver, alone: bool) -> None:
        engine, worker = self._engine, self._engine.worker
        outcome = await run_signin(task, observer, lambda: engine.client_for(engine.log_level),
                                   worker.store if alone else None, worker.store_problem if alone else None,
                                   self.browser)
        task._reports.done(outcome)

    # -- on the GUI thread ----------------------------------------------------------------------

    def _on_needed(self, need: Need) -> None:
        task = need.task
        task.flush_reports()  # the attempt's legs first: the wait clears them
        if not task.running or task.cancel_signal.fired:
            need.settle(None)
            return
        self.needing.add(canonical_resource(task.server.url))
        _wait_shown(task)
        self.state_changed.emit(task.server.key)
        key = task.server.key
        running = self._running.get(key)
        if running is not None:
            running.waiters.append(need)
            return
        pending = self._pending.get(key)
        if pending is not None:
            pending.needs.append(need)
            return
        if not self.ask_user:
            self.sign_in(task.server, reason=need.error, previous_scope=need.previous_scope).waiters.append(need)
            return
        request = SignInRequest(task.server, [need])
        self._pending[key] = request
        # A question no waiting operation needs any more goes away (each was cancelled or ended).
        task.finished.connect(lambda _outcome, request=request: self._maybe_unneeded(request))
        task.cancelling.connect(lambda request=request: self._maybe_unneeded(request))
        self.asked.emit(request)

    def _maybe_unneeded(self, request: SignInRequest) -> None:
        if request.open and all(not need.task.running or need.task.cancel_signal.fired for need in request.needs):
            self.decline(request)

    def _signin_over(self, task: SignInTask) -> None:
        if self._running.get(task.server.key) is task:
            del self._running[task.server.key]
        record = task.outcome.record if task.outcome is not None else None
        stood = record is not None and record.status == "ok"
        self.kept.signin_ended(task.server, task.tokens, stood)
        if stood:
            self.needing.discard(canonical_resource(task.server.url))
        for need in task.waiters:
            need.settle(record)
        self.state_changed.emit(task.server.key)


def _wait_shown(task: OperationTask) -> None:
    """The operation waits for a sign-in: its budget has not started yet (it starts afresh)."""
    task.state.reset()
    task.started_at = None
    task.waiting_for_signin = True
    task.changed.emit()


__all__ = ["MAX_SIGNINS", "SignInRequest", "SignInTask", "SignIns", "asks_signin", "configured_signin",
           "signed_in_copy"]
