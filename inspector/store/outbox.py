"""The outbox: finished runs waiting to be pushed to a team's OpenTelemetry collector.

One row per run and collector address (``UNIQUE (run_id, endpoint)``: a run is queued once).
Every change of state is one guarded ``UPDATE`` (it names the state it leaves), so a transition
happens once whoever tries it, and a row a process holds (``sending``) is never taken by another:

    queued ──claim──▶ sending ──sent──▶ sent
       ▲                 │ ──retry (due later)──▶ queued
       └──released───────┘ ──refused for good──▶ failed (with the reason)

A row left ``sending`` by a process that died goes back to ``queued`` (:meth:`Outbox.release_stale`).
The headers sent to the collector (credentials) are never stored here. No network here: the
pushing is :mod:`inspector.capture`'s.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from inspector.runs.times import from_stored_time, to_stored_time, utc_now

from .database import pid_alive
from .transactions import rollback

OUTBOX_STATES = ("queued", "sending", "sent", "failed")
#: Runs of these sources are ours to push; an imported run came from somewhere that has it already.
PUSHED_SOURCES = ("live", "scenario")


@dataclass(frozen=True)
class OutboxEntry:
    """One run's place in the outbox of one collector."""

    id: int
    run_id: int
    endpoint: str
    state: str
    attempts: int
    next_attempt_at: datetime | None
    sent_at: datetime | None
    #: Why the last attempt did not deliver ('' when none failed): kept on a retry, final on ``failed``.
    reason: str


@dataclass(frozen=True)
class OutboxCounts:
    """How many rows of a collector are in each state."""

    queued: int = 0
    sending: int = 0
    sent: int = 0
    failed: int = 0

    @property
    def waiting(self) -> int:
        """Rows not yet delivered nor given up."""
        return self.queued + self.sending


_COLUMNS = "id, run_id, endpoint, state, attempts, next_attempt_at, sent_at, reason"


class Outbox:
    """The outbox table through one connection (its own, or a store's: ``RunStore.db.conn``)."""

    def __init__(self, conn: sqlite3.Connection, pid: int | None = None) -> None:
        self._conn = conn
        self._pid = pid if pid is not None else os.getpid()

    # -- queueing -------------------------------------------------------------------------------

    def enqueue(self, run_ids: Iterable[int], endpoint: str, now: datetime | None = None) -> int:
        """Queue these runs for ``endpoint`` (a run still running, or already queued there, is not);
        return how many were added."""
        stamp = to_stored_time(now or utc_now())
        ids = list(dict.fromkeys(run_ids))
        added = 0
        with self._writing():
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                added += self._conn.execute(
                    "INSERT OR IGNORE INTO outbox (run_id, endpoint, queued_at, next_attempt_at) "
                    f"SELECT id, ?, ?, ? FROM runs WHERE status != 'running' AND id IN ({','.join('?' * len(chunk))})",
                    (endpoint, stamp, stamp, *chunk)).rowcount
        return added

    def enqueue_finished(self, endpoint: str, since: datetime, now: datetime | None = None) -> int:
        """Queue every run of ours (not imported) that finished at or after ``since`` and is not
        queued for ``endpoint`` yet; return how many were added."""
        stamp = to_stored_time(now or utc_now())
        with self._writing():
            return self._conn.execute(
                "INSERT OR IGNORE INTO outbox (run_id, endpoint, queued_at, next_attempt_at) "
                "SELECT id, ?, ?, ? FROM runs WHERE status != 'running' AND finished_at >= ? "
                f"AND source IN ({','.join('?' * len(PUSHED_SOURCES))}) "
                "AND id NOT IN (SELECT run_id FROM outbox WHERE endpoint = ?)",
                (endpoint, stamp, stamp, to_stored_time(since), *PUSHED_SOURCES, endpoint)).rowcount

    # -- the transitions ------------------------------------------------------------------------

    def release_stale(self) -> int:
        """Rows left ``sending`` by a process that no longer runs go back to ``queued``."""
        rows = self._conn.execute("SELECT id, owner_pid FROM outbox WHERE state = 'sending'").fetchall()
        dead = [(row_id, pid) for row_id, pid in rows if pid != self._pid and not pid_alive(pid)]
        if not dead:
            return 0
        with self._writing():
            return sum(self._conn.execute(
                "UPDATE outbox SET state = 'queued', owner_pid = NULL WHERE id = ? AND state = 'sending' "
                "AND owner_pid IS ?", (row_id, pid)).rowcount for row_id, pid in dead)

    def claim_due(self, endpoint: str, now: datetime | None = None) -> OutboxEntry | None:
        """Take the next row of ``endpoint`` that is due (``queued`` → ``sending``, held by this
        process), or None when none is."""
        stamp = to_stored_time(now or utc_now())
        with self._writing():
            row = self._conn.execute(
                "UPDATE outbox SET state = 'sending', owner_pid = ? WHERE id = ("
                " SELECT id FROM outbox WHERE endpoint = ? AND state = 'queued' AND next_attempt_at <= ?"
                " ORDER BY next_attempt_at, id LIMIT 1) AND state = 'queued' "
                f"RETURNING {_COLUMNS}", (self._pid, endpoint, stamp)).fetchone()
        return _entry(row) if row else None

    def mark_sent(self, entry_id: int, now: datetime | None = None, reason: str = "") -> bool:
        """``sending`` → ``sent``, with what the collector said of spans it rejected ('' when it kept
        them all); False when this process did not hold the row."""
        return self._move(entry_id, "UPDATE outbox SET state = 'sent', sent_at = ?, attempts = attempts + 1, "
                                    "reason = ?, owner_pid = NULL", (to_stored_time(now or utc_now()), reason))

    def mark_retry(self, entry_id: int, due: datetime, reason: str) -> bool:
        """``sending`` → ``queued`` again, due at ``due``, with why this attempt did not deliver."""
        return self._move(entry_id, "UPDATE outbox SET state = 'queued', next_attempt_at = ?, reason = ?, "
                                    "attempts = attempts + 1, owner_pid = NULL", (to_stored_time(due), reason))

    def mark_failed(self, entry_id: int, reason: str) -> bool:
        """``sending`` → ``failed`` for good (the collector refused it), with the reason."""
        return self._move(entry_id, "UPDATE outbox SET state = 'failed', reason = ?, attempts = attempts + 1, "
                                    "owner_pid = NULL", (reason,))

    def release(self, entry_id: int) -> bool:
        """``sending`` → ``queued`` unchanged (the push was stopped before an answer came)."""
        return self._move(entry_id, "UPDATE outbox SET state = 'queued', owner_pid = NULL", ())

    def retry_failed(self, endpoint: str, now: datetime | None = None) -> int:
        """Queue the runs that failed for good at ``endpoint`` once more (the user asked to)."""
        with self._writing():
            return self._conn.execute(
                "UPDATE outbox SET state = 'queued', next_attempt_at = ?, attempts = 0 "
                "WHERE endpoint = ? AND state = 'failed'", (to_stored_time(now or utc_now()), endpoint)).rowcount

    def rekey(self, old: str, endpoint: str) -> int:
        """The rows of the collector address ``old`` become ``endpoint``'s (the same collector, named
        without a secret its address carried); a run queued at both keeps ``endpoint``'s row. Returns how
        many moved."""
        with self._writing():
            moved = self._conn.execute("UPDATE OR IGNORE outbox SET endpoint = ? WHERE endpoint = ?",
                                       (endpoint, old)).rowcount
            self._conn.execute("DELETE FROM outbox WHERE endpoint = ?", (old,))
        return moved

    def _move(self, entry_id: int, update: str, values: tuple[object, ...]) -> bool:
        with self._writing():
            return bool(self._conn.execute(f"{update} WHERE id = ? AND state = 'sending' AND owner_pid = ?",
                                           (*values, entry_id, self._pid)).rowcount)

    # -- reading --------------------------------------------------------------------------------

    def entry(self, entry_id: int) -> OutboxEntry | None:
        row = self._conn.execute(f"SELECT {_COLUMNS} FROM outbox WHERE id = ?", (entry_id,)).fetchone()
        return _entry(row) if row else None

    def entries(self, endpoint: str | None = None) -> list[OutboxEntry]:
        """Every row (of ``endpoint``), oldest first."""
        if endpoint is None:
            rows = self._conn.execute(f"SELECT {_COLUMNS} FROM outbox ORDER BY id")
        else:
            rows = self._conn.execute(f"SELECT {_COLUMNS} FROM outbox WHERE endpoint = ? ORDER BY id", (endpoint,))
        return [_entry(row) for row in rows]

    def of_runs(self, run_ids: Sequence[int]) -> dict[int, OutboxEntry]:
        """The newest row of each of these runs (whatever the collector), by run id."""
        found: dict[int, OutboxEntry] = {}
        ids = list(run_ids)
        for start in range(0, len(ids), 500):
            chunk = ids[start:start + 500]
            for row in self._conn.execute(
                    f"SELECT {_COLUMNS} FROM outbox WHERE run_id IN ({','.join('?' * len(chunk))}) ORDER BY id",
                    chunk):
                found[row[1]] = _entry(row)  # later rows win: the newest
        return found

    def any(self) -> bool:
        """Whether any run was ever queued (for any collector)."""
        return self._conn.execute("SELECT EXISTS (SELECT 1 FROM outbox)").fetchone()[0] == 1

    def counts(self, endpoint: str) -> OutboxCounts:
        rows = self._conn.execute("SELECT state, COUNT(*) FROM outbox WHERE endpoint = ? GROUP BY state",
                                  (endpoint,)).fetchall()
        return OutboxCounts(**{state: count for state, count in rows})

    def next_due(self, endpoint: str) -> datetime | None:
        """When the next queued row of ``endpoint`` is due (None: nothing queued)."""
        row = self._conn.execute("SELECT MIN(next_attempt_at) FROM outbox WHERE endpoint = ? AND state = 'queued'",
                                 (endpoint,)).fetchone()
        return from_stored_time(row[0]) if row and row[0] else None

    def _writing(self):  # type: ignore[no-untyped-def]
        return _Immediate(self._conn)


class _Immediate:
    """One short write transaction (BEGIN IMMEDIATE), or the caller's when one is open."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._own = False

    def __enter__(self) -> None:
        if not self._conn.in_transaction:
            self._conn.execute("BEGIN IMMEDIATE")
            self._own = True

    def __exit__(self, kind: object, *rest: object) -> None:
        if not self._own:
            return
        if kind is None:
            self._conn.execute("COMMIT")
        else:
            rollback(self._conn)


def _entry(row: Sequence[object]) -> OutboxEntry:
    entry_id, run_id, endpoint, state, attempts, due, sent, reason = row
    return OutboxEntry(int(entry_id), int(run_id), str(endpoint), str(state), int(attempts),  # type: ignore[arg-type]
                       from_stored_time(due) if due else None, from_stored_time(sent) if sent else None,  # type: ignore[arg-type]
                       str(reason or ""))
