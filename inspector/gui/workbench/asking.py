"""Who asks: the server and the operation a server's question or sampling request belongs to.

The engine sets :data:`ASKER` in each operation's asyncio task on the worker thread. What the
operation's client does (its legs, the answers on its standalone stream) runs in copies of that
task's context, so the window's handler learns, for each request, which operation's session
carried it. The dialogs name the asker from this record, our own data, never from anything the
server said. The user can tell an operation to stop asking: its later requests are declined
without a dialog, each with a line in the Server log.
"""

from __future__ import annotations

import threading
from contextvars import ContextVar
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from inspector.i18n.entry_names import shown_label, shown_name
from inspector.mcp import ServerEndpoint
from inspector.mcp.messages import N_, Message

from .operation_log import OperationLog, operation_tag

if TYPE_CHECKING:
    from .operation_task import OperationTask


class AskingSource:
    """What the dialogs and the Server log name as who asks: the server (its name, address and
    label), the run's number and the start; and the user's "stop asking" (a thread-safe flag).
    Read on both threads: the fields are set once."""

    def __init__(self, server: ServerEndpoint, server_url: str, run_id: int | None,
                 log: OperationLog | None) -> None:
        #: The name the user gave the server ("" when none), and its address without credentials.
        self.server_name = shown_name(server.name, server.key) or ""
        self.server_url = server_url
        #: How the Server log names the server.
        self.server_label = shown_label(server)
        self.run_id = run_id
        self.started = datetime.now(timezone.utc)
        self._log = log
        self._stopped = threading.Event()

    @property
    def log_title(self) -> str:
        """How the Server log names the operation."""
        raise NotImplementedError

    @property
    def cancel_asked(self) -> bool:
        """The user asked to cancel the operation (GUI thread)."""
        raise NotImplementedError

    @property
    def stopped(self) -> bool:
        """The user told this operation to stop asking."""
        return self._stopped.is_set()

    def stop_asking(self) -> None:
        """Decline every later request of this operation without a dialog (from any thread)."""
        self._stopped.set()

    def declined_unasked(self, method: str) -> None:
        """Note in the Server log that a request was declined because the user said stop (worker thread)."""
        if self._log is not None:
            # A message, not words: the Server log says it in the language of the moment.
            self._log.declined(operation_tag(self.run_id, self.log_title), self.server_label, method,
                               Message(N_("you told the window to stop asking for this operation")))


class Asker(AskingSource):
    """One operation of the workbench as the source of a server's requests."""

    def __init__(self, task: OperationTask, run_id: int | None, log: OperationLog | None = None) -> None:
        super().__init__(task.server, task.server_url, run_id, log)
        #: The operation (a QObject of the GUI thread: the worker reads only its plain fields).
        self.task = task
        #: The operation's title ("tools/call ask_name").
        self.title = task.title

    @property
    def log_title(self) -> str:
        return self.title

    @property
    def cancel_asked(self) -> bool:
        return self.task.cancel_signal.fired

    @property
    def over(self) -> bool:
        """The operation ended or its cancel was asked (GUI thread)."""
        return not self.task.running or self.cancel_asked

    def ends(self) -> tuple[Any, ...]:
        """The signals (GUI thread) on which the operation ends or its cancel is asked: its dialogs close."""
        return self.task.finished, self.task.cancelling


#: The operation whose task runs the current code (worker thread); ``None`` outside operations.
ASKER: ContextVar[Asker | None] = ContextVar("run_inspector_asker", default=None)


def current_asker() -> Asker | None:
    """The operation the running request belongs to, if any."""
    return ASKER.get()
