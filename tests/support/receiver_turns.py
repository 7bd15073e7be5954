"""The receiver's turns to read a body, counted, so that a test waits until its clients hold them
instead of sleeping a moment and hoping their threads got there first (on a loaded machine a
newcomer's thread could take a turn before them: 200 where the test expects 503)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from inspector.capture.request_body import BodyGate


class CountedGate(BodyGate):
    """The real :class:`~inspector.capture.request_body.BodyGate`, counting the requests that hold a
    turn to read (their head read, their connection busy)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._count = threading.Lock()
        self.holding = 0

    @contextmanager
    def reading(self) -> Iterator[None]:
        with super().reading():
            with self._count:
                self.holding += 1
            try:
                yield
            finally:
                with self._count:
                    self.holding -= 1


def wait_until(condition: Callable[[], bool], what: str, timeout_s: float = 15.0) -> None:
    """Wait until ``condition()``; fail naming ``what`` after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.01)
