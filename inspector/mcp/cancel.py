"""A cancel signal owned by the caller, safe to fire from any thread or a signal handler."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Iterator


class CancelSignal:
    """Fired once by the caller (the GUI thread, a Ctrl-C handler); stops the operation at once.

    The operation binds its asyncio task to the signal; firing cancels that task through the
    loop's thread-safe wake-up, so there is no polling interval and the request on the wire is
    torn down by the transport's own cancellation handling.
    """

    def __init__(self) -> None:
        # Re-entrant: a signal handler may interrupt the same thread while it holds the lock.
        self._lock = threading.RLock()
        self._fired = False
        self._callbacks: list[Callable[[], None]] = []
        self._event = threading.Event()

    @property
    def fired(self) -> bool:
        return self._fired

    def fire(self) -> None:
        """Cancel. Idempotent; returns immediately."""
        with self._lock:
            if self._fired:
                return
            self._fired = True
            callbacks = list(self._callbacks)
        self._event.set()
        for callback in callbacks:
            callback()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until fired (for threads that are not on an event loop)."""
        return self._event.wait(timeout)

    def _add(self, callback: Callable[[], None]) -> bool:
        with self._lock:
            if self._fired:
                return False
            self._callbacks.append(callback)
            return True

    def _remove(self, callback: Callable[[], None]) -> None:
        with self._lock, contextlib.suppress(ValueError):
            self._callbacks.remove(callback)

    @contextlib.contextmanager
    def bind_current_task(self) -> Iterator[None]:
        """While inside, firing the signal cancels the current asyncio task.

        The cancellation is only delivered while the binding is active, so a signal fired just
        as the operation ends can never hit whatever the task does next.
        """
        task = asyncio.current_task()
        if task is None:
            raise RuntimeError("bind_current_task() must be called from inside an asyncio task")
        loop = asyncio.get_running_loop()
        state = {"bound": True}

        def cancel_on_loop() -> None:
            if state["bound"] and not task.done():
                task.cancel(CANCEL_MESSAGE)

        def from_any_thread() -> None:
            with contextlib.suppress(RuntimeError):  # the loop is already closed: nothing to stop
                loop.call_soon_threadsafe(cancel_on_loop)

        added = self._add(from_any_thread)
        try:
            yield
        finally:
            state["bound"] = False
            if added:
                self._remove(from_any_thread)


CANCEL_MESSAGE = "run-inspector: cancelled by the user"


def claim_cancel(cancel: CancelSignal | None) -> bool:
    """After a ``CancelledError``: was it the user's cancel? Then the current task is uncancelled
    (it ends as a cancelled operation, not a cancelled task) and True is returned; otherwise the
    caller re-raises (the cancellation belongs to someone else, e.g. the loop shutting down)."""
    if cancel is None or not cancel.fired:
        return False
    task = asyncio.current_task()
    if task is not None:
        task.uncancel()
    return True
