"""An operation recorded as a run while another program may hold the database's lock.

The call keeps its budget: the run's first row waits a fraction of a second for the lock (else
the call goes ahead unrecorded for now), and the record at the end waits a bounded time. A
record that still cannot be written (the lock still held, a database that can only be read) is
never dropped: it is saved as a trace file beside the database (our own export format, secrets
redacted like an export), and the user is told where and how to import it. A side file rather
than waiting for the lock to go: the other program may hold it for hours, and a command must end
once its answer is printed.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.agent import OperationRecord
from inspector.agent.operations import as_happened
from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason
from inspector.runs.replaying import ReplayLink
from inspector.runs.times import to_stored_time
from inspector.store import RunStore, ServerRegistry, StoreError
from inspector.store.database import RECORD_LOCK_WAIT_S, START_LOCK_WAIT_S
from inspector.store.faults import is_damage, is_lock, is_read_only
from inspector.store.replays import note_replay


@dataclass(frozen=True)
class RecordFate:
    """What became of the record: stored as run ``run_id``, or not, and then why and where it went."""

    run_id: int | None
    problem: Message | None = None
    side_file: Path | None = None

    def to_dict(self) -> dict[str, Any]:
        """For the ``--json`` report when the record did not reach the database."""
        return {"saved": False, "reason": str(self.problem),
                "side_file": str(self.side_file) if self.side_file is not None else None}


class RunRecording:
    """One operation's run in ``store`` (at ``db_path``): started before the call, finished after it."""

    def __init__(self, store: RunStore, db_path: Path, title: str, server_url: str) -> None:
        self._store = store
        self._db_path = db_path
        self._title = title
        self._server_url = server_url
        self.run_id: int | None = None
        #: The run's uid, chosen now: the requests' ``traceparent`` names its trace before it is written.
        self.uid = uuid.uuid4().hex
        #: The step this run replays (``replay``), noted on its row.
        self.replay_of: ReplayLink | None = None

    def start(self) -> None:
        """The run's first row, so that a process killed mid-call leaves an ``interrupted`` run.

        A lock held elsewhere is not waited out, and a database that can only be read is not given up
        on: the call goes ahead and the whole run is written at the end, or saved to a side file
        (:meth:`finish`). Other store errors propagate (the caller reports them)."""
        self._store.set_lock_wait(START_LOCK_WAIT_S)
        try:
            self.run_id = self._store.start_run(self._title, "live", self._server_url, uid=self.uid)
        except sqlite3.OperationalError as exc:
            if not (is_lock(exc) or is_read_only(exc)):
                raise

    def finish(self, record: OperationRecord, before: Sequence[OperationRecord] = ()) -> RecordFate:
        """Write the step, the run's end and the server's health in one transaction, waiting at
        most :data:`RECORD_LOCK_WAIT_S` for the lock; else save the record to a side file."""
        self._store.set_lock_wait(RECORD_LOCK_WAIT_S)
        try:
            with self._store.transaction():
                run_id = self.run_id
                steps = as_happened(before, record)
                if run_id is None:
                    run_id = self._store.insert_run(self._title, "live", self._server_url, steps[0].started_at,
                                                    self.uid, "running", None)
                if self.replay_of is not None:
                    note_replay(self._store, run_id, self.replay_of)
                for step in steps:
                    self._store.insert_step(run_id, self._store.next_sequence(run_id), step.step,
                                            to_stored_time(step.started_at))
                self._store.mark_finished(run_id, record.status)
                ServerRegistry(self._store.db).count_operation(self._server_url, record.health,
                                                               record.latency_ms)
        except (sqlite3.Error, StoreError) as exc:
            # Whatever stops the write, the call happened: its record goes to a side file, and
            # the run's first row (if written) goes, or is at least finished, not left `running`.
            if self.run_id is not None and not is_lock(exc):
                self._drop_first_row(record.status)
            return self._aside(record, self._why(exc), before)
        self.run_id = run_id
        return RecordFate(run_id)

    def _drop_first_row(self, status: str) -> None:
        """The side file holds the whole run under the same uid: a first row left behind made its import
        find the run "imported before" and add nothing (a full disk took the call's steps for good)."""
        from inspector.store.browse import drop_empty_run

        try:
            if drop_empty_run(self._store, self.run_id):
                return
            self._store.finish_run(self.run_id, status)
        except (sqlite3.Error, StoreError):
            pass  # a later opening marks the row interrupted

    def _why(self, error: BaseException) -> Message:
        if is_lock(error):
            return Message(N_("the database {path} is locked by another program"), {"path": self._db_path})
        if is_read_only(error):
            return Message(N_("the database {path} can only be read"), {"path": self._db_path})
        if is_damage(error):
            return Message(N_("the database {path} is damaged ({reason})"), {"path": self._db_path, "reason": error})
        return Message(N_("the database {path} could not be written ({reason})"),
                       {"path": self._db_path, "reason": error})

    def _aside(self, record: OperationRecord, why: Message, before: Sequence[OperationRecord] = ()) -> RecordFate:
        try:
            # Here, when a store failed: the transfer package (the trace readers and writers) is not
            # loaded by a call that stores its run (tests/integration/test_cli_imports.py).
            from inspector.transfer.side_files import save_side_file

            side_file = save_side_file(self._db_path, self._title, self._server_url, record, self.uid,
                                       as_happened(before, record))
        except OSError as exc:
            return RecordFate(None, Message(N_("The call's record could not be saved because {why}, and it could not "
                                               "be written to a side file either ({reason}); it is lost."),
                                            {"why": why, "reason": os_reason(exc)}))
        return RecordFate(None, Message(
            N_("The call's record could not be saved because {why}: it was written to {file} instead; add it to the "
               "database later with: run-inspector import {file} --db {path}"),
            {"why": why, "file": side_file, "path": self._db_path}), side_file)
