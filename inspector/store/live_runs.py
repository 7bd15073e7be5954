"""Runs that grow while they are stored: the OTLP receiver's runs, written again as their trace grows.

A received trace is one run (its uid is the one an import gives the same spans); each time more of
its spans arrive, its row and all its steps are replaced, the runs one request grew in one
transaction, so a reader never sees half of an update. A run with that uid that the receiver did not
make (imported from a file, say) is left alone, as an import leaves a run that is already present.

A note someone wrote here on a received run or one of its steps is never replaced by the sender's: as an
import of a run already stored, the trace's note (``run_inspector.run.note``, ``.step.note``) is taken
only where the run or step has none (see ``docs/receiver.md``, "Notes").
"""

from __future__ import annotations

import json
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
    noted: dict[str, str] = {}
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
                      row[2] or run.note, run_id))  # a note written here wins over the sender's
        noted = _step_notes(store, run_id)
        conn.execute("DELETE FROM steps WHERE run_id = ?", (run_id,))  # their legs go with them
    store.insert_step_rows([(run_id, sequence, started_at, _with_note(step, noted))
                            for sequence, started_at, step in run.steps])
    return Written(run_id, created)


@dataclass(frozen=True)
class Finished:
    """A received run whose trace went quiet, its spans as they were when the run was last written whole."""

    uid: str
    status: str
    finished_at: str


def finish_live_runs(store: RunStore, runs: Sequence[Finished]) -> list[Written | None]:
    """Give each received run (by uid) its final status and end, its row and steps otherwise as they were
    last written (they were mapped from the same spans), all in one transaction. Written again whole, a
    trace's settling cost as much as its first write: a request of 50,000 one-span traces took as long again
    to settle as to store. ``None`` for a run that is not the receiver's here (deleted meanwhile, say)."""
    with store.transaction():
        return [_finish(store, run) for run in runs]


def _finish(store: RunStore, run: Finished) -> Written | None:
    conn = store.db.conn
    row = conn.execute("SELECT id, origin FROM runs WHERE uid = ?", (run.uid,)).fetchone()
    if row is None or row[1] != RECEIVER_ORIGIN:
        return None
    conn.execute("UPDATE runs SET status = ?, finished_at = ?, owner_pid = NULL WHERE id = ?",
                 (run.status, run.finished_at or None, row[0]))
    return Written(int(row[0]), False)


def _step_notes(store: RunStore, run_id: int) -> dict[str, str]:
    """The notes of the run's stored steps, by the ids of the spans each step was made of (its own, a
    joined call's server side). A step's span ids stay when the trace is mapped again; its number need
    not (a client span arriving joins the server span's step)."""
    noted: dict[str, str] = {}
    rows = store.db.conn.execute(
        "SELECT json_extract(payload, '$.note'), json_extract(payload, '$.raw.otlp.spanId'),"
        " json_extract(payload, '$.raw.otlp.server.spanId') FROM steps WHERE run_id = ?"
        " AND instr(payload, '\"note\"') AND json_valid(payload) ORDER BY sequence", (run_id,))
    for note, *span_ids in rows:
        if isinstance(note, str) and note:
            for span in span_ids:
                if isinstance(span, str) and span:
                    noted[span] = note
    return noted


def _with_note(step: StepRow, noted: dict[str, str]) -> StepRow:
    """``step`` with the stored notes of its spans (two steps joined into one: both notes, the
    stored one first where the sender's differs); as it was when none of its spans had one."""
    if not noted or not any(span in step[4] for span in noted):
        return step
    payload = json.loads(step[4])
    otlp = (payload.get("raw") or {}).get("otlp") or {}
    spans = [otlp.get("spanId"), (otlp.get("server") or {}).get("spanId")]
    kept = list(dict.fromkeys(noted[span] for span in spans if isinstance(span, str) and span in noted))
    if not kept:
        return step
    payload["note"] = "\n\n".join(kept)
    return (*step[:4], json.dumps(payload, ensure_ascii=False, separators=(",", ":")), step[5])
