"""``serve-demo --stop-with-stdin``: a child process that ends with the program that started it.

The window starts the demo server as a process of its own and keeps the write end of its stdin.
When the window ends, however it ends (SIGKILL included), the system closes that end and the
child reads end-of-file: it stops. This works on every platform; on Linux the child also asks the
kernel for SIGTERM when its parent dies (``PR_SET_PDEATHSIG``), in case something else holds the
pipe open.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

#: prctl(2): deliver this signal to the process when its parent dies.
_PR_SET_PDEATHSIG = 1


def stop_with_parent(stop: threading.Event) -> None:
    """Set ``stop`` once stdin reaches its end (or cannot be read); on Linux, die with the parent too."""
    if sys.platform.startswith("linux"):
        _die_with_parent()
    try:
        # A windowed build may have no sys.stdin even when its stdin is a pipe: then descriptor 0 itself.
        stream = sys.stdin.buffer if sys.stdin is not None else open(0, "rb", closefd=False)  # noqa: SIM115
    except (OSError, ValueError):
        return  # nothing to watch: it stops on Ctrl-C (and on Linux with its parent)

    def watch() -> None:
        try:
            while stream.read(4096):
                pass  # nothing is expected on stdin: only its end counts
        except (OSError, ValueError):
            pass
        stop.set()

    threading.Thread(target=watch, name="stdin-watch", daemon=True).start()


def _die_with_parent() -> None:
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the process's own symbols: libc's prctl among them
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGTERM), 0, 0, 0)
    except (OSError, AttributeError):
        return  # the stdin watch still stops it
    if os.getppid() == 1:  # the parent died before the request took effect
        os.kill(os.getpid(), signal.SIGTERM)


__all__ = ["stop_with_parent"]
