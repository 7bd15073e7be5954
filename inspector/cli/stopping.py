"""SIGTERM ends a long export or import (of a file, a trace pulled, runs pushed) as Ctrl-C does: with a
sentence, and nothing half-written.

Python's default for SIGTERM (what ``timeout``, a CI runner cancelling a job or a service manager
sends) kills the process where it stands: an export's ``.part`` file would stay beside its target
and no sentence would say what happened. Within :func:`sigterm_as_ctrl_c` it raises
:class:`Terminated`, a ``KeyboardInterrupt``, so the command's own cleanup (the ``.part`` file removed,
the transaction rolled back, the run being pushed put back in the queue) runs and the command ends
cancelled (exit status 130); its sentence says a signal ended it, not Ctrl-C, which no one pressed.

Once the work is stored (:func:`stoppable_until_stored`: from its COMMIT on) a late Ctrl-C or SIGTERM
changes nothing: the command ends as it would have, saying what it stored. Raised while the "already
here" runs were looked up or the database closed, it made the command say that nothing was stored.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.store import RunStore

#: What stops a command from outside: Ctrl-C, and SIGTERM (``timeout``, a CI runner, a service manager).
_STOPS = (signal.SIGINT, signal.SIGTERM)


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
        if signal.getsignal(signal.SIGTERM) is _interrupt:  # not held meanwhile (work_done): held it stays
            signal.signal(signal.SIGTERM, previous)


def _too_late(number: int, frame: FrameType | None) -> None:
    """A stop signal after the work was done: the command ends as it would have."""


def work_done() -> None:
    """The command's work is done (stored): until it ends (:func:`stops_given_back`) a Ctrl-C or SIGTERM
    changes nothing. In the main thread only: elsewhere signals cannot be handled."""
    if threading.current_thread() is threading.main_thread():
        for number in _STOPS:
            signal.signal(number, _too_late)


@contextmanager
def done_once_stored(store: RunStore | None = None) -> Iterator[None]:
    """The block's work is done (:func:`work_done`) from the COMMIT of ``store``'s transaction (the block's one)
    on, or when the block ends. A stop landing in the COMMIT or just after it was taken for one before it:
    the command said "nothing was imported" of runs it had stored."""
    if store is not None:
        store.committing = work_done
    try:
        yield
        work_done()
    finally:
        if store is not None:
            store.committing = None


@contextmanager
def stoppable_until_stored(store: RunStore | None = None) -> Iterator[None]:
    """Within the block SIGTERM stops the work as Ctrl-C does (:func:`sigterm_as_ctrl_c`) until it is stored
    (:func:`done_once_stored`); from then on neither changes anything."""
    with done_once_stored(store), sigterm_as_ctrl_c():
        yield


@contextmanager
def stoppable_reading() -> Iterator[None]:
    """A command that only reads and prints (``runs list``, ``runs show``, ``compare``, ``servers``): a SIGTERM while
    it does (it killed the process, status -15, no sentence) ends it as a Ctrl-C does: what was printed stays, a
    sentence on stderr, exit status 130 (with ``--json``: the error object if none of the answer was printed, else
    nothing more on stdout: the answer cut short does not read as JSON). Once all is printed, neither changes
    anything."""
    from inspector.i18n import N_
    from inspector.i18n.messages import Message

    from .common import CancelledCommand

    try:
        with sigterm_as_ctrl_c():
            yield
            work_done()
    except Terminated:
        raise CancelledCommand(Message(N_("Ended by a signal (SIGTERM) before the command had done its work."))) \
            from None


@contextmanager
def stops_given_back() -> Iterator[None]:
    """A command's run: at its end the stop signals' handlers are what they were at its beginning (one
    that did its work held them, :func:`work_done`); a process may run several commands, as tests do."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.getsignal(number) for number in _STOPS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
