"""At most once a frame: a costly refresh asked for many times within one frame is done once.

The first request after a quiet frame is done at once (a single change shows with no delay); later
requests within the same frame are gathered and done once, when the frame is over, with whatever
is current then; :meth:`FrameThrottle.now` does it at once whatever the frame. Twenty Run presses
in a fifth of a second thus show the selected operation's detail about a dozen times, not twenty,
and each press leaves more of its frame to the painting.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QElapsedTimer, QObject, Qt, QTimer

from .budget_bar import FRAME_MS


class FrameThrottle(QObject):
    """Calls ``action`` for :meth:`request`, no more than once per ``frame_ms``."""

    def __init__(self, action: Callable[[], None], parent: QObject | None = None,
                 frame_ms: int = FRAME_MS) -> None:
        super().__init__(parent)
        self._action = action
        self._frame_ms = frame_ms
        self._since = QElapsedTimer()
        self._later = QTimer(self)
        self._later.setSingleShot(True)
        self._later.setTimerType(Qt.TimerType.PreciseTimer)
        self._later.timeout.connect(self._act)

    @property
    def pending(self) -> bool:
        """Whether a request waits for the frame's end."""
        return self._later.isActive()

    def request(self) -> None:
        if self._later.isActive():
            return  # already due at the frame's end, and it will show what is current then
        waited = self._since.elapsed() if self._since.isValid() else self._frame_ms
        if waited >= self._frame_ms:
            self._act()
        else:
            self._later.start(self._frame_ms - waited)

    def now(self) -> None:
        """Do it at once, a waiting request with it (what the user did shows without a frame's delay)."""
        self._later.stop()
        self._act()

    def _act(self) -> None:
        self._since.start()
        self._action()


__all__ = ["FrameThrottle"]
