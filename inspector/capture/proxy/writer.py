"""Where the proxy's runs go: one thread that owns the database connection and writes each run whole.

The proxy's event loop never waits on the disk: it hands a finished run to :meth:`RunWriter.put`
and goes on forwarding. Each run (its row, its step with legs, the server's health) is written in
one transaction, so the Runs tab (which watches the database) shows it whole.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.runs.times import to_stored_time, utc_now
from inspector.store import RunStore, ServerRegistry, StoreError
from inspector.store.browse import drop_empty_run
from inspector.store.faults import is_lock
from inspector.transfer.side_files import save_side_file

from .steps import ProxiedRun

_STOP = object()


@dataclass(frozen=True)
class _Begin:
    number: int
    title: str
    server_url: str
    started_at: datetime


class RunWriter:
    """Writes :class:`ProxiedRun` s to the database at ``db_path`` on a thread of its own.

    ``written(run_id, run)`` is called (on the writer's thread) after each run is stored;
    ``problem(message)`` when one could not be (the sentence names the run and the reason)."""

    def __init__(self, db_path: Path, *, written: Callable[[int, ProxiedRun], None] | None = None,
                 problem: Callable[[Message], None] | None = None) -> None:
        self.db_path = db_path
        self._written = written
        self._problem = problem
        self._queue: queue.Queue[object] = queue.Queue()
        self._opened = threading.Event()
        self._open_error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="proxy-run-writer", daemon=True)
        self.count = 0
        self._running: dict[int, int] = {}  # operation number → its running row (writer's thread only)
        self._uids: dict[int, str] = {}  # operation number → its run's uid (its running row's, its side file's)

    def start(self) -> None:
        """Open the database (on the writer's thread); raise what opening raised."""
        self._thread.start()
        self._opened.wait()
        if self._open_error is not None:
            raise self._open_error

    def put(self, run: ProxiedRun) -> None:
        """Store a finished run (over its running row, when one was written)."""
        self._queue.put(run)

    def begin(self, number: int, title: str, server_url: str, started_at: datetime) -> None:
        """Write a running row for operation ``number`` now, so a long call shows while it runs (and a
        proxy killed mid-call leaves an ``interrupted`` run, not nothing)."""
        self._queue.put(_Begin(number, title, server_url, started_at))

    def stop(self) -> None:
        """Write what is queued, then close the database."""
        if self._thread.is_alive():
            self._queue.put(_STOP)
            self._thread.join()

    def _work(self) -> None:
        try:
            store = RunStore.open(self.db_path)
        except (sqlite3.Error, StoreError, OSError) as exc:
            self._open_error = exc
            self._opened.set()
            return
        self._opened.set()
        try:
            while (item := self._queue.get()) is not _STOP:
                if isinstance(item, _Begin):
                    self._begin(store, item)
                else:
                    assert isinstance(item, ProxiedRun)
                    self._write(store, item)
        finally:
            store.close()

    def _begin(self, store: RunStore, item: _Begin) -> None:
        uid = self._uids.setdefault(item.number, uuid.uuid4().hex)
        try:
            self._running[item.number] = store.start_run(item.title, "live", item.server_url,
                                                         started_at=item.started_at, uid=uid)
        except (sqlite3.Error, StoreError, ValueError):
            pass  # the finished run is written whole at the end (and a problem said then)

    def _write(self, store: RunStore, run: ProxiedRun) -> None:
        running = self._running.pop(run.number, None)
        uid = self._uids.pop(run.number, None) or uuid.uuid4().hex
        try:
            with store.transaction():
                if running is None:
                    run_id = store.insert_run(run.title, "live", run.server_url, run.started_at, uid, run.status,
                                              None, finished_at=utc_now())
                else:
                    run_id = running
                    store.db.execute("UPDATE runs SET title = ? WHERE id = ?", [run.title, run_id])
                    store.mark_finished(run_id, run.status)
                store.insert_step(run_id, 1, run.step, to_stored_time(run.started_at))
                if run.health is not None:  # a leg of the agent's operations (its stream, its end) counts none
                    ServerRegistry(store.db).count_operation(run.server_url, run.health, run.latency_ms)
        except (sqlite3.Error, StoreError, ValueError) as exc:
            self._aside(store, run, running, uid, exc)
            return
        self.count += 1
        if self._written is not None:
            self._written(run_id, run)

    def _aside(self, store: RunStore, run: ProxiedRun, running: int | None, uid: str, error: Exception) -> None:
        """The run the database did not take, kept in a side file (under its uid: the import replaces a running
        row a lock kept), and said; its running row removed where it can be."""
        if running is not None and not is_lock(error):
            try:
                drop_empty_run(store, running)
            except (sqlite3.Error, StoreError):
                pass  # a later opening marks it interrupted
        try:
            side_file = save_side_file(self.db_path, run.title, run.server_url, run, uid)
        except OSError:
            said = Message(N_("The proxy could not store the run {title} in {path} ({reason})."),
                           {"title": run.title, "path": self.db_path, "reason": error})
        else:
            said = Message(N_("The proxy could not store the run {title} in {path} ({reason}): it was written to "
                              "{file} instead; once the proxy has stopped, add it to the database with: run-inspector "
                              "import {file} --db {path}"),
                           {"title": run.title, "path": self.db_path, "reason": error, "file": side_file})
        if self._problem is not None:
            self._problem(said)
