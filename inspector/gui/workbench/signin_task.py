"""A sign-in as the window follows it, and what waits for one: :class:`SignInTask` (an operation in
the operations list, with the steps it reported), the worker's wait for a sign-in (:class:`Need`),
and the question the window asks (:class:`SignInRequest`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal

from inspector.i18n import _
from inspector.i18n.entry_names import shown_label
from inspector.mcp import ServerEndpoint
from inspector.mcp.errors import McpTransportError
from inspector.mcp.signin.flow import SignInStep
from inspector.mcp.signin.model import TokenSet
from inspector.mcp.signin.operation import SIGNIN_BUDGET_S

from .operation_reports import OperationObserver
from .operation_task import OperationTask

if TYPE_CHECKING:
    from inspector.agent import OperationRecord

    from .engine import OperationsEngine


class StepRelay(QObject):
    """Carries a sign-in's steps from the worker to the GUI thread."""

    seen = Signal(object)


class SignInTask(OperationTask):
    """A sign-in as the window follows it: an operation (legs, budget, Cancel) plus its steps."""

    #: A step was done (or the browser opened): a :class:`SignInStep`.
    step_seen = Signal(object)

    def __init__(self, number: int, server: ServerEndpoint, *, reason: McpTransportError | None = None,
                 previous_scope: str | None = None) -> None:
        super().__init__(number, "signin", _("sign-in"), server, SIGNIN_BUDGET_S)
        #: What the server said when it refused (None: the user asked for the sign-in).
        self.reason = reason
        self.previous_scope = previous_scope
        #: The steps as reported, in order (the browser step twice: opened, then done).
        self.steps: list[SignInStep] = []
        #: The tokens' public part once it stood (never their values on screen).
        self.tokens: TokenSet | None = None
        #: The operations waiting for it (worker futures).
        self.waiters: list[Need] = []
        self._relay = StepRelay()
        self._relay.seen.connect(self._on_step, Qt.ConnectionType.QueuedConnection)

    def _on_step(self, step: SignInStep) -> None:
        self.steps.append(step)
        self.step_seen.emit(step)

    @property
    def error(self) -> McpTransportError | None:
        record = self.outcome.record if self.outcome is not None else None
        return record.error if record is not None else None


class SignInObserver(OperationObserver):
    """The engine's observer for a sign-in, which also hears each step."""

    def __init__(self, task: SignInTask, engine: OperationsEngine) -> None:
        super().__init__(task._reports, engine.log, task.title, shown_label(task.server))
        self._relay = task._relay
        #: The steps as the worker heard them (what the stored step says).
        self.said: list[SignInStep] = []

    def signin_step(self, step: SignInStep) -> None:
        self.said.append(step)
        self._relay.seen.emit(step)


@dataclass(eq=False)
class Need:
    """One operation waiting on the worker for a sign-in; settled from the GUI thread."""

    task: OperationTask
    error: McpTransportError
    previous_scope: str | None
    future: asyncio.Future[OperationRecord | None]
    loop: asyncio.AbstractEventLoop

    def settle(self, signed: OperationRecord | None) -> None:
        """The sign-in's record (it stood, failed or was cancelled), or None: none was made."""
        def set_result() -> None:
            if not self.future.done():
                self.future.set_result(signed)

        try:
            self.loop.call_soon_threadsafe(set_result)
        except RuntimeError:  # the loop has ended (the window closed)
            pass


class SignInRequest(QObject):
    """A sign-in the window asks the user for: the server, why, and the operations that wait."""

    #: Answered (signed in or not) or no longer needed (every waiting operation ended).
    closed = Signal()

    def __init__(self, server: ServerEndpoint, needs: list[Need]) -> None:
        super().__init__()
        self.server = server
        self.needs = needs
        self.open = True

    @property
    def first(self) -> Need:
        return self.needs[0]

    @property
    def reason(self) -> McpTransportError:
        return self.first.error

    @property
    def task(self) -> OperationTask:
        """The operation that asked first (the view's header names it)."""
        return self.first.task


__all__ = ["Need", "SignInObserver", "SignInRequest", "SignInTask", "StepRelay"]
