"""Pushing finished runs to the team's collector from the window: a worker thread, never the GUI's.

While the setting is on, the worker queues each run that finished since it was turned on (once:
the outbox is unique per run and collector), sends what is due, and sleeps until the next retry
is due or a run ends (:meth:`PushService.wake`). Everything it writes goes to the outbox table
with its own connection; the Runs tab sees the changes through the database's ``data_version``
like any other write. Nothing here waits on the network in the GUI thread.
"""

from __future__ import annotations

import sqlite3
import threading
from datetime import datetime
from pathlib import Path

from inspector.i18n import _
from inspector.runs.times import utc_now

from ..team_settings import PushSetting

#: How often the worker looks for newly finished runs when nothing wakes it.
POLL_S = 3.0
#: How long closing the window waits for a request in flight (the thread is a daemon beyond that).
STOP_WAIT_S = 2.0


class PushService:
    """Owns the push worker: :meth:`apply` starts, restarts or stops it to match the setting."""

    def __init__(self, db_path: Path) -> None:
        self.db_path = db_path
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._wake = threading.Event()
        self.setting: PushSetting | None = None
        #: Rounds done by the worker (tests wait on it); the last problem it met ('' when none).
        self.rounds = 0
        self.problem = ""

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def apply(self, setting: PushSetting) -> None:
        """Run the worker for ``setting`` (stopping one that runs for another)."""
        if setting == self.setting and (self.running or not setting.enabled):
            return
        self.stop()
        self.setting = setting
        if not setting.enabled:
            return
        self._stop, self._wake = threading.Event(), threading.Event()
        self._thread = threading.Thread(target=self._work, args=(setting, self._stop, self._wake),
                                        name="run-inspector-push", daemon=True)
        self._thread.start()

    def wake(self) -> None:
        """A run may have finished: look now rather than at the next poll."""
        self._wake.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(STOP_WAIT_S)
            self._thread = None

    def _work(self, setting: PushSetting, stop: threading.Event, wake: threading.Event) -> None:
        # Loaded on the worker: the window's start does not wait for the HTTP client.
        from inspector.capture.pusher import Pusher
        from inspector.capture.sending import EndpointError, collector_address
        from inspector.store import RunStore, StoreError
        from inspector.store.outbox import Outbox

        try:
            endpoint, headers, query = collector_address(setting.endpoint, setting.headers)
        except EndpointError:  # kept before the settings refused it (a port out of range): nothing can be sent
            self.problem = _("To send runs to a collector, give its http:// or https:// address, e.g. "
                             "http://127.0.0.1:4318.")
            return
        since = setting.since or utc_now()
        try:
            store = RunStore.open(self.db_path)
        except StoreError as error:
            self.problem = str(error)
            return
        try:
            with Pusher(store, endpoint, headers, query=query) as pusher:
                while not stop.is_set():
                    try:
                        Outbox(store.db.conn).enqueue_finished(endpoint, since)
                        done = pusher.push_due(stop.is_set)
                        self.problem = done.last_reason
                        wait = _until(done.next_due)
                    except sqlite3.Error as error:  # locked by another program, say: said, tried again later
                        self.problem, wait = str(error), POLL_S
                    self.rounds += 1
                    wake.wait(wait)
                    wake.clear()
        finally:
            store.close()


def _until(due: datetime | None) -> float:
    if due is None:
        return POLL_S
    return min(POLL_S, max(0.05, (due - utc_now()).total_seconds()))


__all__ = ["PushService"]
