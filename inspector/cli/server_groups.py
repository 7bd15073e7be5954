"""The process groups of the command servers a command started, for a second Ctrl-C.

The first Ctrl-C cancels the operation and the client then shuts each process down in the spec's
order (bounded, a few seconds at most); a Ctrl-C during that shutdown, or a second one, does not
wait for it: the processes run in
their own sessions (a terminal's Ctrl-C never reaches them), so they are killed here, group and
all, before the command exits; otherwise they would outlive it.
"""

from __future__ import annotations

import contextlib
import os
import signal

from inspector.mcp import McpClient


class ServerGroups:
    """The command servers' process groups, remembered while the client still knows them."""

    def __init__(self, client: McpClient) -> None:
        self._client = client
        self._pids: set[int] = set()
        #: The operation is over and its servers are being shut down.
        self._closing = False

    @property
    def closing(self) -> bool:
        return self._closing

    @closing.setter
    def closing(self, value: bool) -> None:
        self.note()  # before the client forgets its processes
        self._closing = value

    def note(self) -> None:
        """Remember the running processes (the client forgets them as soon as it begins shutting down)."""
        processes = self._client.processes
        self._pids.update(pid for pid in (processes.pid(key) for key in processes.running()) if pid is not None)

    def kill(self) -> None:
        """Kill every remembered or running server's process group at once."""
        self.note()
        for pid in self._pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
