"""SIGTERM and SIGINT (Ctrl-C in the terminal that started the window) quit the window as Quit does.

A Python signal handler only runs when the interpreter gets control, and while Qt's event loop
waits, it does not. So the signal's number is also written to one end of a socket pair
(``signal.set_wakeup_fd``); Qt watches the other end (``QSocketNotifier``) and wakes up: the
window closes (operations cancelled, the demo server's process stopped, the layout saved), the
event loop ends with status 0 and the database is closed by the caller. Without this, SIGTERM
ended the process at once (status 143) and SIGINT was ignored until some Python code ran.
"""

from __future__ import annotations

import signal
import socket
from collections.abc import Callable

from PySide6.QtCore import QObject, QSocketNotifier

#: The signals that quit the window (SIGTERM is not delivered on Windows, but exists there).
QUIT_SIGNALS = tuple(sig for sig in (signal.SIGINT, getattr(signal, "SIGTERM", None)) if sig is not None)


class QuitOnSignals(QObject):
    """While installed, SIGTERM and SIGINT call ``quit`` on the GUI thread; :meth:`remove` restores
    the handlers that were there before."""

    def __init__(self, quit: Callable[[], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._quit = quit
        self.received: list[int] = []
        self._reader, self._writer = socket.socketpair()
        for end in (self._reader, self._writer):
            end.setblocking(False)
        self._previous_fd = signal.set_wakeup_fd(self._writer.fileno(), warn_on_full_buffer=False)
        # A handler of our own: the default one would end the process before Qt could wake up.
        self._previous = {sig: signal.signal(sig, self._noted) for sig in QUIT_SIGNALS}
        self._notifier = QSocketNotifier(self._reader.fileno(), QSocketNotifier.Type.Read, self)
        self._notifier.activated.connect(self._woken)

    def _noted(self, signum: int, _frame: object) -> None:
        """The Python-level handler (the wake-up byte does the work)."""

    def _woken(self) -> None:
        try:
            numbers = self._reader.recv(64)
        except (BlockingIOError, InterruptedError):
            return
        quitting = [number for number in numbers if number in {int(sig) for sig in QUIT_SIGNALS}]
        if quitting:
            self.received.extend(quitting)
            self._quit()

    def remove(self) -> None:
        """Give the signals back to the handlers they had (safe to call twice)."""
        if self._reader is None:
            return
        self._notifier.setEnabled(False)
        signal.set_wakeup_fd(self._previous_fd)
        for sig, handler in self._previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        self._reader.close()
        self._writer.close()
        self._reader = None


__all__ = ["QUIT_SIGNALS", "QuitOnSignals"]
