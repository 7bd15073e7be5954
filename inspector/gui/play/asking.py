"""Who asks, in a played run: the run's tool call that carried a server's question or sampling request.

A tool the agent calls may ask the user something (``elicitation/create``) or ask for the model
(``sampling/createMessage``). The played run's client (:class:`AskingClient`) names each tool call
as the asker of what its server sends on that call (the workbench's :data:`ASKER`), so the window's
handler opens the same dialogs as for an operation of the workbench, naming the played run and the
tool. A :class:`PlayAsker` has the face of the workbench's :class:`~..workbench.asking.Asker`
(server, address, title, run, start; stop asking; over; the signals that end it): a dialog closes
when the run ends or its cancel is asked (Esc, Cancel), as when the operation ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from inspector.i18n import _
from inspector.i18n.scenarios import said_title
from inspector.mcp import McpClient, ServerEndpoint, public_url

from ..workbench.asking import ASKER, AskingSource
from ..workbench.operation_log import OperationLog

if TYPE_CHECKING:
    from .run_state import PlayRun

#: Makes the asker of one tool call of the run: (server, tool, the run's number) -> asker.
AskerFactory = Callable[[ServerEndpoint, str, "int | None"], Any]


class PlayAsker(AskingSource):
    """One tool call of a played run as the source of a server's requests.

    Made on the worker thread when the call starts; its fields are set once. The run it belongs to
    (a QObject of the GUI thread) is read only there (:attr:`over`, :meth:`ends`)."""

    def __init__(self, run: PlayRun, server: ServerEndpoint, tool: str, run_id: int | None,
                 log: OperationLog | None = None) -> None:
        super().__init__(server, public_url(server.url), run_id, log)
        self._run = run
        self.tool = tool
        self.run_title = run.title

    @property
    def title(self) -> str:
        """The operation as the dialog's header names it: the tool call and the played run."""
        return _("tools/call {tool} · played run “{run}”").format(tool=self.tool, run=said_title(self.run_title))

    @property
    def log_title(self) -> str:
        return f"tools/call {self.tool}"

    @property
    def cancel_asked(self) -> bool:
        return self._run.cancel_requested_at is not None

    @property
    def over(self) -> bool:
        """The run ended or its cancel was asked (GUI thread)."""
        return not self._run.running or self.cancel_asked

    def ends(self) -> tuple[Any, ...]:
        """The signals (GUI thread) on which the run ends or its cancel is asked: its dialogs close."""
        return self._run.ended, self._run.cancelling


def play_askers(run: PlayRun, log: OperationLog | None = None) -> AskerFactory:
    """The asker of each tool call of ``run`` (the Server log notes what was declined unasked)."""
    return lambda server, tool, run_id: PlayAsker(run, server, tool, run_id, log)


class AskingClient(McpClient):
    """The played run's client: each tool call is the asker of the requests its server sends on it."""

    def __init__(self, asker_for: Callable[[ServerEndpoint, str], Any] | None = None, **options: Any) -> None:
        super().__init__(**options)
        self._asker_for = asker_for

    async def call_tool(self, server: ServerEndpoint, name: str, arguments: dict[str, Any] | None = None,
                        **options: Any) -> Any:
        if self._asker_for is None:
            return await super().call_tool(server, name, arguments, **options)
        # Set in the run's own task: the call's legs, and the answers they carry, run in copies of it.
        token = ASKER.set(self._asker_for(server, name))
        try:
            return await super().call_tool(server, name, arguments, **options)
        finally:
            ASKER.reset(token)
