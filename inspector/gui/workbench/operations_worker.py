"""The operations' worker: ONE thread that owns an asyncio loop and its own connection to the run store.

The GUI thread hands it coroutines (:meth:`OperationsWorker.spawn`) and never waits on it, except
when the window closes: :meth:`OperationsWorker.stop` lets the housekeeping finish, bounded, then
ends the loop and the thread.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from inspector.i18n.messages import translate
from inspector.store import RunStore, StoreError

#: The interpreter lock's switch interval once the worker runs (Python's default is 5 ms). A
#: server flooding a stream keeps the worker busy; the GUI thread needs the lock for each call
#: into Python (each cell a repaint asks for, each timer) and waited up to the interval for
#: each. Under a flood of 100,000 log lines the longest stall was 560–630 ms with 5 ms and
#: 140–160 ms with 1 ms (benchmarks/gui_log_flood.py, three runs each, in turn).
SWITCH_INTERVAL_S = 0.001

Work = Callable[[], Coroutine[Any, Any, None]]


class OperationsWorker:
    """The worker thread, its loop, its store connection and the coroutines running on it."""

    def __init__(self, db_path: Path | None) -> None:
        self._db_path = db_path
        #: The loop, once started (it stays, closed, after :meth:`stop`: nothing more runs on it).
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        #: The worker's own connection to the run store (opened on the worker), and why there is none.
        self.store: RunStore | None = None
        self.store_problem: str | None = None
        #: What runs on the loop (operations, sign-ins, housekeeping): closing waits for it, bounded.
        self.running: set[asyncio.Task[None]] = set()

    @property
    def thread(self) -> threading.Thread | None:
        return self._thread

    @property
    def started(self) -> bool:
        """The thread runs (it was started and has not been stopped)."""
        return self._thread is not None and self.loop is not None

    def start(self) -> None:
        """Start the worker thread and its loop (returns once the loop runs)."""
        if self._thread is not None:
            return
        sys.setswitchinterval(min(sys.getswitchinterval(), SWITCH_INTERVAL_S))
        self._thread = threading.Thread(target=self._work, name="run-inspector-operations", daemon=True)
        self._thread.start()
        self._ready.wait(10)

    def begin(self, make: Work) -> None:
        """Run the coroutine ``make()`` builds on the loop (started first if it has not been); closing
        waits for it (bounded). Raises RuntimeError once the loop has ended."""
        if self.loop is None:
            self.start()
        assert self.loop is not None
        self.loop.call_soon_threadsafe(self._run, make)

    def spawn(self, make: Work) -> None:
        """:meth:`begin`, or nothing once the loop has ended (the window is closing)."""
        try:
            self.begin(make)
        except RuntimeError:
            pass

    def _run(self, make: Work) -> None:
        task = asyncio.get_running_loop().create_task(make())
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    def _work(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self.loop = loop
        if self._db_path is not None:
            try:
                self.store = RunStore.open(self._db_path)  # this thread's own connection
            except StoreError as exc:
                self.store_problem = translate(exc)  # in the reader's language
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            if self.store is not None:
                self.store.close()
            loop.close()

    def stop(self, wind_down: Work, bound_s: float) -> bool:
        """Run ``wind_down()`` on the loop (waited for ``bound_s`` at most), then stop the loop and
        the thread. Returns True when the thread has ended."""
        if not self.started:
            return True
        assert self._thread is not None and self.loop is not None
        ended = threading.Event()

        async def then_end() -> None:
            try:
                await wind_down()
            finally:
                ended.set()

        try:
            asyncio.run_coroutine_threadsafe(then_end(), self.loop)
            ended.wait(bound_s)
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:  # the loop is already closed
            pass
        self._thread.join(bound_s + 0.5)
        alive = self._thread.is_alive()
        self._thread = None
        return not alive


__all__ = ["SWITCH_INTERVAL_S", "OperationsWorker", "Work"]
