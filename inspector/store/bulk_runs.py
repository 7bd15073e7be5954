"""Runs by the hundred, for an importer: which uids are stored, and new runs inserted together.

What :meth:`RunStore.find_run_by_uid` and :meth:`RunStore.insert_run` do one run at a time, in one
statement per batch of :data:`BATCH` runs (a file of 25,000 traces made 75,000 statements).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from .database import Database

__all__ = ["BATCH", "NewRun", "drop_first_rows", "first_rows_left", "insert_runs", "stored_uids"]

BATCH = 500
"""Runs per statement (well under SQLite's limit of host parameters)."""


@dataclass(frozen=True)
class NewRun:
    """A finished run to insert (an importer's: never ``running``, so no process owns it)."""

    uid: str
    title: str
    source: str
    server: str | None
    status: str
    #: Stored times ('' unknown; see :func:`inspector.runs.times.normal_stored_time`).
    started_at: str
    finished_at: str
    origin: str | None
    note: str = ""


def stored_uids(db: Database, uids: Sequence[str]) -> set[str]:
    """Those of ``uids`` (at most :data:`BATCH`) that a stored run has."""
    if not uids:
        return set()
    marks = ", ".join("?" * len(uids))
    return {uid for (uid,) in db.conn.execute(f"SELECT uid FROM runs WHERE uid IN ({marks})", tuple(uids))}


#: A run that is only an operation's first row left behind: made here, no step, and either interrupted (its
#: process ended) or still "running" for this very process (the window, whose operation ended meanwhile:
#: its finished record is in the file being imported).
_FIRST_ROW_LEFT = ("source = 'live' AND (status = 'interrupted' OR (status = 'running' AND owner_pid = ?)) "
                   "AND NOT EXISTS (SELECT 1 FROM steps WHERE run_id = runs.id)")


def first_rows_left(db: Database, uids: Sequence[str]) -> set[str]:
    """Those of ``uids`` (at most :data:`BATCH`; runs a file holds finished) whose stored run is only an
    operation's first row left behind. An operation whose record went to a side file while another program
    held the lock could not remove its first row; the side file holds the whole run, under the same uid."""
    if not uids:
        return set()
    marks = ", ".join("?" * len(uids))
    return {uid for (uid,) in db.conn.execute(
        f"SELECT uid FROM runs WHERE uid IN ({marks}) AND {_FIRST_ROW_LEFT}", (*uids, os.getpid()))}


def drop_first_rows(db: Database, uids: Sequence[str]) -> None:
    """Delete the first rows left behind (:func:`first_rows_left`) of ``uids`` inside an open transaction,
    so that the whole runs can be inserted under their uids."""
    for uid in uids:
        db.conn.execute(f"DELETE FROM runs WHERE uid = ? AND {_FIRST_ROW_LEFT}", (uid, os.getpid()))


def insert_runs(db: Database, runs: Sequence[NewRun]) -> list[int]:
    """Insert ``runs`` (at most :data:`BATCH`, uids not stored) inside an open transaction, as
    ``insert_run`` would one by one; their ids, in order."""
    if not runs:
        return []
    if any(run.status == "running" for run in runs):
        raise ValueError("an imported run is never running")
    conn = db.conn
    conn.executemany(
        "INSERT INTO runs (uid, title, source, server, status, started_at, finished_at, owner_pid, origin, note)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)",
        [(run.uid, run.title, run.source, run.server, run.status, run.started_at, run.finished_at or None,
          run.origin, run.note) for run in runs])
    marks = ", ".join("?" * len(runs))
    ids = dict(conn.execute(f"SELECT uid, id FROM runs WHERE uid IN ({marks})", tuple(run.uid for run in runs)))
    return [ids[run.uid] for run in runs]
