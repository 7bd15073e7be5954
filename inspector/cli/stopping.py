"""SIGTERM ends a long export or import (of a file, a trace pulled, runs pushed) as Ctrl-C does: with a
sentence, and nothing half-written.

Python's default for SIGTERM (what ``timeout``, a CI runner cancelling a job or a service manager
sends) kills the process where it stands: an export's ``.part`` file would stay beside its target
and no sentence would say what happened. Within :func:`sigterm_as_ctrl_c` it raises
:class:`Terminated`, a ``KeyboardInterrupt``, so the command's own cleanup (the ``.part`` file removed,
the transaction rolled back, the run being pushed put back in the queue) runs and the command ends
cancelled (exit status 130); its sentence says a signal ended it, not Ctrl-C, which no one pressed.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived within :func:`sigterm_as_ctrl_c`: caught wherever Ctrl-C is, and told apart from it."""


def _interrupt(number: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def sigterm_as_ctrl_c() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Terminated`, a ``KeyboardInterrupt`` (in the main thread
    only: elsewhere signals cannot be handled, and the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
