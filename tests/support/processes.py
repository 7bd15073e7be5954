"""Is a server's process, or its process group, still there? And the legs an operation reported."""

from __future__ import annotations

import os
import time
from pathlib import Path

from inspector.mcp import OperationRecorder


def alive(pid: int) -> bool:
    """The process runs (a zombie, killed and waiting for init to reap it, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def group_alive(pgid: int) -> bool:
    """Some process of the group runs (zombies aside)."""
    return any(alive(int(entry)) for entry in os.listdir("/proc") if entry.isdigit()
               and _group_of(int(entry)) == pgid)


def gone_soon(pgid: int, *pids: int, within_s: float = 3.0) -> bool:
    """No process of the group, nor any of ``pids``, runs within ``within_s``: a process sent SIGKILL
    may be scheduled to die a moment after the call that killed it returned (on a loaded machine a
    grandchild holding no pipe of ours was seen still running right after the window closed)."""
    deadline = time.monotonic() + within_s
    while group_alive(pgid) or any(alive(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def _group_of(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[2])
    except (FileNotFoundError, ProcessLookupError, ValueError, IndexError):
        return None


def legs(recorder: OperationRecorder) -> list[tuple[str, str]]:
    """The operation's legs as (method, outcome), in order."""
    return [(leg.method, leg.outcome.value) for leg in recorder.legs]
