"""Writing an OTLP file's steps while it is still being read: a writer thread in the import's transaction.

The usual import (:mod:`.importing`) checks the whole file, then writes. For a file of foreign
spans (another tool's: each trace one new run) the place of every step is known as soon as it is
checked, so a writer thread stores it then, in the transaction the import commits at the end:
SQLite and the compressing of pages run while the interpreter reads the next spans (``sqlite3``
lets go of the interpreter while a statement runs), and no checked step is kept to be written
later.

The rows are those the usual import writes, in the same order: steps in the order they are
checked; runs in file order (that of each trace's first span), their ids handed out in that order
as SQLite would hand them out when the runs are inserted at the end (foreign keys are checked at
the commit). Runs whose uid is stored already are skipped with their steps. Nothing is committed
before the whole file has been checked: a file refused half-way, a progress callback that
cancels, a database error all roll the transaction back.

What the stream cannot place is :class:`Abandoned`: a span of ours (its run's steps and the
foreign spans joining it are placed at the end), a trace of a stored run of ours (its spans join
that run). The import then starts again the usual way, from a database as it was.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, MutableMapping
from pathlib import Path as FilePath
from typing import Any

from inspector.runs.trace_ids import trace_id
from inspector.store import RunStore, StepRow, step_row
from inspector.store.bulk_runs import BATCH as RUN_BATCH
from inspector.store.bulk_runs import stored_uids
from inspector.store.transactions import rollback
from inspector.traces.format import Path, RunHeader, TraceStep
from inspector.traces.otlp import SPAN_ROLE
from inspector.traces.reader import TracePlan

__all__ = ["Abandoned", "StepStream", "StreamingPlan", "may_hold_spans_of_ours"]

STEP_BATCH = 1000
"""Steps handed to the writer together (one ``executemany``)."""
_QUEUED_BATCHES = 8
"""Batches waiting for the writer at most: memory stays bounded when SQLite is the slower side."""
_NOT_OURS = ("otlp-", "payloads-")  # uids that no span of ours names (as transfer.joining.NOT_OURS)


class Abandoned(Exception):  # noqa: N818 (not an error: the usual import takes over)
    """The file holds something the stream cannot place; nothing it wrote is kept."""


def may_hold_spans_of_ours(source: FilePath, chunk_size: int = 1 << 20) -> bool:
    """Whether the file names the attribute every span of ours has (a quick look at its bytes,
    so that our own exports go the usual way at once instead of being read twice)."""
    needle = SPAN_ROLE.encode()
    tail = b""
    with source.open("rb") as file:
        while chunk := file.read(chunk_size):
            if needle in tail + chunk[:len(needle)] or needle in chunk:
                return True
            tail = chunk[-len(needle):]
    return False


class StepStream:
    """The writer thread and what it has placed: ``ids`` (run key → its new id, or 0 for a run
    stored already), ``count`` (steps written), ``began`` (the transaction is open)."""

    def __init__(self, store: RunStore, new_table: Callable[[], MutableMapping[Any, Any]]) -> None:
        self._conn = store.db.conn
        self._store = store
        self.ids = new_table()
        self.count = 0
        self.began = False
        self.abandoned = False
        self.failure: BaseException | None = None
        self._next_id = 0
        self._before_begin: list[str] = []  # keys seen (all stored already) before the transaction began
        self._ours: set[str] | None = None  # trace ids of the stored runs of ours
        self._traces: list[str] = []
        self._steps: list[tuple[str, int, str, StepRow]] = []
        self._queue: queue.Queue[tuple[list[str], list[tuple[str, int, str, StepRow]]] | None] = \
            queue.Queue(_QUEUED_BATCHES)
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="import-writer", daemon=True)
        self._thread.start()

    # -- the reading thread ------------------------------------------------------------------

    def trace(self, key: str) -> None:
        """A foreign trace's first span: its run comes next in file order."""
        self._traces.append(key)
        if len(self._traces) >= RUN_BATCH:
            self._hand_over()

    def step(self, key: str, sequence: int, started_at: str, row: StepRow) -> None:
        self._steps.append((key, sequence, started_at, row))
        if len(self._steps) >= STEP_BATCH:
            self._hand_over()

    def _hand_over(self) -> None:
        self._check()
        self._queue.put((self._traces, self._steps))
        self._traces, self._steps = [], []

    def _check(self) -> None:
        if self.failure is not None:
            raise self.failure
        if self.abandoned:
            raise Abandoned

    def finish(self) -> None:
        """Hand over the rest and wait until the writer has written it (raises what it met)."""
        if self._traces or self._steps:
            self._hand_over()
        self._stop()
        self._check()

    def close(self) -> None:
        """Stop the writer (after :meth:`finish`, or instead of it when the import failed)."""
        self._stopping = True
        self._stop()

    def _stop(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()

    # -- the writer thread -------------------------------------------------------------------

    def _run(self) -> None:
        while (batch := self._queue.get()) is not None:
            if self.failure is not None or self.abandoned or self._stopping:
                continue  # drained, so the reading thread never waits for room
            try:
                self._write(*batch)
            except BaseException as error:  # noqa: BLE001 (raised in the reading thread)
                self.failure = error

    def _write(self, traces: list[str], steps: list[tuple[str, int, str, StepRow]]) -> None:
        if traces:
            self._place(traces)
            if self.abandoned:
                return
        rows = []
        ids = self.ids
        last_key, run_id = None, 0
        for key, sequence, started_at, row in steps:
            if key != last_key:
                last_key, run_id = key, ids[key]
            if run_id:  # 0: a run stored already, skipped
                rows.append((run_id, sequence, started_at, row))
        if rows:
            self._store.insert_step_rows(rows)
            self.count += len(rows)

    def _place(self, traces: list[str]) -> None:
        """Give each new trace's run its id, in file order (0 when its uid is stored already)."""
        if self._ours is None:
            self._ours = {trace_id(uid) for (uid,) in self._conn.execute("SELECT uid FROM runs")
                          if not uid.startswith(_NOT_OURS)}
        if not self._ours.isdisjoint(traces):
            self.abandoned = True  # its spans join a stored run of ours
            return
        found = stored_uids(self._store.db, [f"otlp-{key}" for key in traces])
        if not self.began:
            if all(f"otlp-{key}" in found for key in traces):
                self._before_begin.extend(traces)
                for key in traces:
                    self.ids[key] = 0
                return
            self._begin()
            traces, self._before_begin = [*self._before_begin, *traces], []
            found = set()
            for start in range(0, len(traces), RUN_BATCH):  # again, now that no one else can write
                found |= stored_uids(self._store.db, [f"otlp-{key}" for key in traces[start:start + RUN_BATCH]])
        for key in traces:
            if f"otlp-{key}" in found:
                self.ids[key] = 0
            else:
                self.ids[key] = self._next_id
                self._next_id += 1

    def _begin(self) -> None:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        self.began = True
        # The steps come before their runs: their runs are inserted at the end, before the commit.
        conn.execute("PRAGMA defer_foreign_keys = ON")
        # The id SQLite gives the next run inserted (none is deleted or added meanwhile: we hold the lock).
        self._next_id = conn.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM runs").fetchone()[0]

    def rollback(self) -> None:
        """Undo what the writer wrote (the writer stopped)."""
        if self.began:
            rollback(self._conn)


class StreamingPlan(TracePlan):
    """The checking sink of a streamed import: checks as :class:`TracePlan` does, keeps no step,
    and hands each checked foreign step to the :class:`StepStream`."""

    def __init__(self, stream: StepStream, new_table: Callable[[], MutableMapping[Any, Any]]) -> None:
        super().__init__(0, new_table)
        self.cache = None
        self._stream = stream

    def run(self, key: Any, header: RunHeader, path: Path) -> None:
        if type(key) is not str:  # a run span of ours
            raise Abandoned
        super().run(key, header, path)

    def trace(self, key: str) -> None:
        self._stream.trace(key)

    def step(self, key: Any, step: TraceStep, path: Path, size: int = 0) -> None:
        if type(key) is not str:  # a step span of ours
            raise Abandoned
        super().step(key, step, path, size)
        self._stream.step(key, step.sequence, step.started_at, step_row(step.step))
