"""Runs that grow while they are stored: the OTLP receiver's runs, written again as their trace grows.

A received trace is one run (its uid is the one an import gives the same spans); each time more of
its spans arrive, its row and all its steps are replaced, the runs one request grew in one
transaction, so a reader never sees half of an update. A run with that uid that the receiver did not
make (imported from a file, say) is left alone, as an import leaves a run that is already present.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from .run_store import RunStore, StepRow

#: ``runs.origin`` of a run the receiver made (its source is ``imported``: it came from elsewhere).
RECEIVER_ORIGIN = "OTLP receiver"


@dataclass(frozen=True)
class LiveRun:
    """A received run as it is to be stored now; times in the stored form ("" unknown)."""

    uid: str
    title: str
    server: str | None
    status: str
    started_at: str
    finished_at: str
    note: str
    #: ``(sequence, started_at, step_row(step))`` for every step, in the order they were made.
    steps: Sequence[tuple[int, str, StepRow]]


@dataclass(frozen=True)
class Written:
    """What :func:`write_live_run` did: the run's id, and whether the run is new."""

    run_id: int
    created: bool


def write_live_runs(store: RunStore, runs: Sequence[LiveRun]) -> list[Written | None]:
    """Create or replace each received run (by uid) with its steps, all in one transaction. ``None``
    for a run whose uid belongs to a run the receiver did not make (that one is not touched)."""
    with store.transaction():
        return [_write(store, run) for run in runs]


def _write(store: RunStore, run: LiveRun) -> Written | None:
    """One run, inside the caller's transaction."""
    conn = store.db.conn
    owner = os.getpid() if run.status == "running" else None
    row = conn.execute("SELECT id, origin, note FROM runs WHERE uid = ?", (run.uid,)).fetchone()
    if row is None:
        cursor = conn.execute(
            "INSERT INTO runs (uid, title, source, server, status, started_at, finished_at, owner_pid, origin,"
            " note) VALUES (?, ?, 'imported', ?, ?, ?, ?, ?, ?, ?)",
            (run.uid, run.title, run.server, run.status, run.started_at, run.finished_at or None, owner,
             RECEIVER_ORIGIN, run.note))
        run_id, created = int(cursor.lastrowid), True
    elif row[1] != RECEIVER_ORIGIN:
        return None
    else:
        run_id, created = int(row[0]), False
        conn.execute("UPDATE runs SET title = ?, server = ?, status = ?, started_at = ?, finished_at = ?,"
                     " owner_pid = ?, note = ? WHERE id = ?",
                     (run.title, run.server, run.status, run.started_at, run.finished_at or None, owner,
                      run.note or row[2], run_id))
        conn.execute("DELETE FROM steps WHERE run_id = ?", (run_id,))  # their legs go with them
    store.insert_step_rows([(run_id, sequence, started_at, step) for sequence, started_at, step in run.steps])
    return Written(run_id, created)
