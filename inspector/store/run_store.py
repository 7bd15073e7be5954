"""Runs, their steps and the legs of each step, in the run database."""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from orjson import dumps as _orjson_dumps

from inspector.i18n import N_
from inspector.i18n.messages import Message, kept_sentence
from inspector.runs import RUN_SOURCES, RUN_STATUSES, Leg, RunStep, StepKind, step_outcome
from inspector.runs.step import StoredPayload
from inspector.runs.times import from_stored_time, to_stored_time, utc_now

from .database import LOCK_WAIT_S, Database, open_database, pid_alive, rollback
from .errors import UnknownRunError
from .faults import DatabaseGoneError, is_lock, is_read_only, set_lock_wait, store_fault
from .payload_mentions import payload_mentions
from .plumbing_traces import NOT_PLUMBING_TRACE, PLUMBING_TRACE

SOURCES = RUN_SOURCES

# What json.dumps(payload, ensure_ascii=False, separators=(",", ":")) would make, without
# building an encoder for every step.
_PAYLOAD_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _payload_json() -> Callable[[Any], str]:
    """``_PAYLOAD_ENCODER.encode`` for a dict, with the C encoder made once instead of per call and
    no check for cycles (a payload is a tree: parsed JSON and our own values). The public encoder
    where Python has no C one."""
    make = getattr(json.encoder, "c_make_encoder", None)
    text = getattr(json.encoder, "c_encode_basestring", None)
    if make is None or text is None:
        return _PAYLOAD_ENCODER.encode
    encoder = _PAYLOAD_ENCODER
    chunks = make(None, encoder.default, text, None, encoder.key_separator, encoder.item_separator,
                  encoder.sort_keys, encoder.skipkeys, encoder.allow_nan)
    join = "".join

    def encode(payload: Any) -> str:
        return join(chunks(payload, 0)) if type(payload) is dict else encoder.encode(payload)
    return encode


_payload_text = _payload_json()


def _finite_payload_text(payload: Any) -> str:
    """:func:`_payload_text` of a payload whose floats are all finite (its values were read by a JSON
    parser that refuses ``NaN`` and ``Infinity``; orjson would write them as ``null``), by ``orjson``:
    four times quicker, which an import of many steps feels. The same values; a float may be spelled
    otherwise (``1e16`` for ``1e+16``, ``0.00001`` for ``1e-05``). What orjson refuses (an integer
    beyond 64 bits, a key that is not a string, a lone surrogate, nesting deeper than 255 levels) is
    written by the standard library, as before."""
    try:
        return _orjson_dumps(payload).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return _payload_text(payload)


_INSERT_STEP = ("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at, outcome, payload,"
                " mentions_note, mentions_plumbing) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")

StepRow = tuple[str, int, float, str | None, str, tuple[tuple[Any, ...], ...]]
"""A step as the store writes it: kind, round, duration, outcome, the payload's JSON, its legs' values
(the exchange as JSON)."""


def step_row(step: RunStep | StoredPayload, *, finite: bool = False) -> StepRow:
    """What :meth:`RunStore.insert_step` writes of ``step``: plain values, cheap to keep (an
    importer keeps the checked steps of a file this way until it writes them). ``finite``: the
    caller knows a stored payload's floats are all finite (see :func:`_finite_payload_text`)."""
    if type(step) is StoredPayload:  # checked and in its stored form already
        return step.kind, step.round, step.duration_ms, step_outcome(step.payload), \
            (_finite_payload_text if finite else _payload_text)(step.payload), ()
    payload = step.to_payload(legs=False)  # legs live in their own table; one source of truth
    return (str(step.kind), step.round, step.duration_ms, step_outcome(payload), _payload_text(payload),
            tuple((leg.method, leg.granted_s, leg.elapsed_ms, leg.http_status, leg.outcome,
                   None if leg.exchange is None else _payload_text(leg.exchange)) for leg in step.legs))


@dataclass(frozen=True)
class RunRecord:
    """One run as stored."""

    id: int
    uid: str
    title: str
    source: str
    server: str | None
    status: str
    started_at: datetime | None
    finished_at: datetime | None
    origin: str | None = None
    step_count: int | None = None
    #: What someone who reviewed the run wrote about it ("" when nothing).
    note: str = ""


@dataclass(frozen=True)
class StoredStep:
    """A step read back: its place in the run, its time and the step itself (legs included)."""

    id: int
    run_id: int
    sequence: int
    started_at: datetime | None
    outcome: str
    step: RunStep
    #: Where the step sits in the timeline's order, exactly as stored (pages continue after it).
    mark: PageMark = field(default=("", 0), compare=False, repr=False)
    #: Why the stored row could not be read ('' when it could): ``step`` then only says so.
    damage: str = field(default="", compare=False)
    #: The same sentence, translatable where it is shown (``str()`` is ``damage``).
    damage_sentence: Message | None = field(default=None, compare=False, repr=False)

    @property
    def payload(self) -> dict[str, Any]:
        return self.step.to_payload()


#: Where a page of the timeline ends: (started_at as stored, sequence).
PageMark = tuple[str, int]


class RunStore:
    """The run database. One instance per thread that writes; SQLite serialises writers."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._conn = db.conn
        #: Called as a transaction's work is done, right before its COMMIT (e.g. a command holding the stop
        #: signals from there on: a Ctrl-C landing in the COMMIT or after it cannot be told from one before).
        self.committing: Callable[[], None] | None = None
        #: Next sequence per run this store appends to: saves a lookup per step.
        self._next_sequence: dict[int, int] = {}
        self.mark_interrupted_runs()

    @classmethod
    def open(cls, path: str | os.PathLike[str], lock_wait_s: float = LOCK_WAIT_S) -> RunStore:
        """The store at ``path``; a damaged or locked database is refused with a sentence that says so."""
        db = open_database(path, lock_wait_s)
        try:
            return cls(db)
        except sqlite3.DatabaseError as exc:
            # The first read of the runs table is where scrambled pages usually show.
            db.conn.close()
            raise store_fault(Path(path), exc) or exc from None
        except BaseException:  # a Ctrl-C or SIGTERM: closed, so the database is left as it was (no log beside it)
            db.conn.close()
            raise

    def set_lock_wait(self, seconds: float) -> None:
        """How long the next statements wait for another program's lock before they give up."""
        set_lock_wait(self._conn, seconds)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction; everything inside commits together or not at all. Refused with
        :class:`~.faults.DatabaseGoneError` once the file was deleted or replaced: SQLite would go on
        writing into the deleted file (or share the log of another one), where no one finds it."""
        gone = self.db.gone()
        if gone is not None:
            raise DatabaseGoneError(gone)
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            if self.committing is not None:
                self.committing()
        except BaseException:
            rollback(self._conn)
            raise
        self._conn.execute("COMMIT")

    # -- runs ----------------------------------------------------------------------------

    def start_run(self, title: str, source: str = "live", server: str | None = None, *,
                  started_at: datetime | None = None, uid: str | None = None,
                  status: str = "running", origin: str | None = None) -> int:
        """Create a run and return its id. A ``running`` run is owned by this process."""
        if source not in SOURCES:
            raise ValueError(f"unknown run source {source!r}")
        if status not in RUN_STATUSES:
            raise ValueError(f"unknown run status {status!r}")
        with self.transaction():
            return self.insert_run(title, source, server, started_at or utc_now(), uid, status, origin)

    def insert_run(self, title: str, source: str, server: str | None, started_at: datetime | None,
                   uid: str | None, status: str, origin: str | None,
                   finished_at: datetime | None = None, note: str = "") -> int:
        """Insert a run inside an open transaction (for importers); return its id."""
        cursor = self._conn.execute(
            "INSERT INTO runs (uid, title, source, server, status, started_at, finished_at, owner_pid, origin, note)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (uid or uuid.uuid4().hex, title, source, server, status, to_stored_time(started_at),
             to_stored_time(finished_at) or None, os.getpid() if status == "running" else None, origin, note))
        return int(cursor.lastrowid)

    def finish_run(self, run_id: int, status: str, finished_at: datetime | None = None) -> None:
        if status not in RUN_STATUSES or status == "running":
            raise ValueError(f"a run cannot finish as {status!r}")
        with self.transaction():
            updated = self.mark_finished(run_id, status, finished_at)
        if not updated:
            raise UnknownRunError(Message(N_("There is no run {id}."), {"id": run_id}))

    def mark_finished(self, run_id: int, status: str, finished_at: datetime | None = None) -> bool:
        """Finish a run inside an open transaction; False when there is no such run."""
        return bool(self._conn.execute(
            "UPDATE runs SET status = ?, finished_at = ?, owner_pid = NULL WHERE id = ?",
            (status, to_stored_time(finished_at or utc_now()), run_id)).rowcount)

    def mark_interrupted_runs(self) -> int:
        """Runs left ``running`` by a process that no longer exists become ``interrupted``."""
        rows = self._conn.execute("SELECT id, owner_pid FROM runs WHERE status = 'running'").fetchall()
        dead = [run_id for run_id, pid in rows if not pid_alive(pid)]
        if not dead:
            return 0
        try:
            with self.transaction():
                self._conn.executemany(
                    "UPDATE runs SET status = 'interrupted', owner_pid = NULL WHERE id = ? AND status = 'running'",
                    [(run_id,) for run_id in dead])
        except sqlite3.OperationalError as exc:
            if not (is_lock(exc) or is_read_only(exc)):
                raise
            return 0  # housekeeping: another program holds the lock (the next opening does it), or read-only
        return len(dead)

    def get_run(self, run_id: int) -> RunRecord:
        row = self._conn.execute(
            f"SELECT {_RUN_COLUMNS}, (SELECT COUNT(*) FROM steps WHERE run_id = runs.id) FROM runs WHERE id = ?",
            (run_id,)).fetchone()
        if row is None:
            raise UnknownRunError(Message(N_("There is no run {id}."), {"id": run_id}))
        return _run(row)

    def find_run_by_uid(self, uid: str) -> RunRecord | None:
        row = self._conn.execute(f"SELECT {_RUN_COLUMNS}, NULL FROM runs WHERE uid = ?", (uid,)).fetchone()
        return _run(row) if row else None

    def list_runs(self, *, outcome: str | None = None, server: str | None = None,
                  limit: int | None = 50, run_ids: Sequence[int] | None = None,
                  made_here: bool = False, plumbing_traces: bool | None = None) -> list[RunRecord]:
        """Newest first. ``outcome`` filters by the run's status; ``made_here`` leaves imported runs out;
        ``plumbing_traces``: ``False`` leaves the plumbing traces out (:mod:`.plumbing_traces`), ``True`` lists
        them alone, ``None`` does not ask."""
        where, params = _run_filter(outcome, server, made_here, run_ids, plumbing_traces)
        sql = f"SELECT {_RUN_COLUMNS}, NULL FROM runs{where} ORDER BY started_at DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            params.append(limit)
        return [_run(row) for row in self._conn.execute(sql, params)]

    def count_runs(self, *, outcome: str | None = None, server: str | None = None, made_here: bool = False,
                   plumbing_traces: bool | None = None) -> int:
        """How many runs :meth:`list_runs` would list without its limit."""
        where, params = _run_filter(outcome, server, made_here, None, plumbing_traces)
        return self._conn.execute(f"SELECT COUNT(*) FROM runs{where}", params).fetchone()[0]

    def count_listed_and_plumbing(self, *, outcome: str | None = None, server: str | None = None,
                                  made_here: bool = False) -> tuple[int, int]:
        """How many runs :meth:`list_runs` would list without its limit, leaving the plumbing traces out, and how
        many plumbing traces it leaves out, in one query (``runs list``'s): only the plumbing traces are counted by
        asking each run whether it is one; the others are the rest of all runs, counted from an index. Two counts
        asked each run twice (25,000 runs: about half the time)."""
        where, params = _run_filter(outcome, server, made_here)
        plumbing_where, _same = _run_filter(outcome, server, made_here, plumbing_traces=True)
        total, plumbing = self._conn.execute(f"SELECT COUNT(*), (SELECT COUNT(*) FROM runs{plumbing_where})"
                                             f" FROM runs{where}", params * 2).fetchone()
        return total - plumbing, plumbing

    # -- steps ---------------------------------------------------------------------------

    def append_step(self, run_id: int, step: RunStep, started_at: datetime | None = None) -> int:
        """Store one step and its legs in one transaction; return the step's id."""
        stamp = to_stored_time(started_at)
        sequence = self._next_sequence.get(run_id)
        with self.transaction():
            if sequence is None:
                sequence = self.next_sequence(run_id)
            try:
                step_id = self.insert_step(run_id, sequence, step, stamp)
            except sqlite3.IntegrityError:
                # Another writer appended to this run meanwhile: take the next free place.
                sequence = self.next_sequence(run_id)
                step_id = self.insert_step(run_id, sequence, step, stamp)
        self._next_sequence[run_id] = sequence + 1
        return step_id

    def append_steps(self, run_id: int, steps: Sequence[tuple[RunStep, datetime | None]]) -> list[int]:
        """Store several steps (each with its legs) in one transaction: all of them or none."""
        with self.transaction():
            sequence = self.next_sequence(run_id)
            ids = [self.insert_step(run_id, sequence + offset, step, to_stored_time(moment))
                   for offset, (step, moment) in enumerate(steps)]
        self._next_sequence[run_id] = sequence + len(ids)
        return ids

    def next_sequence(self, run_id: int) -> int:
        """The place after the run's last step (read inside the transaction that writes it)."""
        return self._conn.execute(
            "SELECT COALESCE(MAX(sequence), 0) + 1 FROM steps WHERE run_id = ?", (run_id,)).fetchone()[0]

    def insert_step(self, run_id: int, sequence: int, step: RunStep | StoredPayload, started_at: str) -> int:
        """Insert inside an open transaction (for importers that write many steps at once)."""
        kind, round_, duration_ms, outcome, payload, legs = step_row(step)
        cursor = self._conn.execute(_INSERT_STEP, (run_id, sequence, kind, round_, duration_ms, started_at, outcome,
                                                   payload, *payload_mentions(kind, payload)))
        step_id = int(cursor.lastrowid)
        if legs:
            self._insert_legs(step_id, legs)
        return step_id

    def insert_step_rows(self, rows: Sequence[tuple[int, int, str, StepRow]]) -> None:
        """Insert ``(run_id, sequence, started_at, step_row(step))`` rows inside an open transaction,
        as :meth:`insert_step` would one by one (steps without legs in one statement)."""
        plain: list[tuple[Any, ...]] = []
        for run_id, sequence, started_at, (kind, round_, duration_ms, outcome, payload, legs) in rows:
            values = (run_id, sequence, kind, round_, duration_ms, started_at, outcome, payload,
                      *payload_mentions(kind, payload))
            if not legs:
                plain.append(values)
                continue
            if plain:
                self._conn.executemany(_INSERT_STEP, plain)
                plain = []
            self._insert_legs(int(self._conn.execute(_INSERT_STEP, values).lastrowid), legs)
        if plain:
            self._conn.executemany(_INSERT_STEP, plain)

    def _insert_legs(self, step_id: int, legs: Sequence[tuple[Any, ...]]) -> None:
        self._conn.executemany(
            "INSERT INTO legs (step_id, position, method, granted_s, elapsed_ms, http_status, outcome, exchange)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [(step_id, position, *leg) for position, leg in enumerate(legs)])

    def has_rounds(self, run_id: int) -> bool:
        """Does any step of this run belong to a round above 0? (A single operation has no rounds.)"""
        row = self._conn.execute("SELECT 1 FROM steps WHERE run_id = ? AND round > 0 LIMIT 1", (run_id,)).fetchone()
        return row is not None

    def count_steps(self, run_id: int) -> int:
        return self._conn.execute("SELECT COUNT(*) FROM steps WHERE run_id = ?", (run_id,)).fetchone()[0]

    def steps_page(self, run_id: int, after: PageMark | None = None, limit: int = 200,
                   outcome: str | None = None) -> list[StoredStep]:
        """One page of the timeline, ordered by time then sequence; never the whole run.

        ``after`` is the :attr:`StoredStep.mark` of the last step of the previous page."""
        where = ["run_id = ?"]
        params: list[Any] = [run_id]
        if after is not None:
            where.append("(started_at, sequence) > (?, ?)")
            params.extend(after)
        if outcome is not None:
            where.append("outcome = ?")
            params.append(outcome)
        rows = self._conn.execute(
            "SELECT id, run_id, sequence, started_at, outcome, payload FROM steps WHERE "
            + " AND ".join(where) + " ORDER BY started_at, sequence LIMIT ?", (*params, limit)).fetchall()
        legs = self._legs_for([row[0] for row in rows])
        return [_stored_step(row, legs.get(row[0], ())) for row in rows]

    def step_at(self, run_id: int, sequence: int) -> StoredStep | None:
        """Step ``sequence`` of a run (legs included); ``None`` when the run has no such step."""
        row = self._conn.execute("SELECT id, run_id, sequence, started_at, outcome, payload FROM steps"
                                 " WHERE run_id = ? AND sequence = ?", (run_id, sequence)).fetchone()
        return None if row is None else _stored_step(row, self._legs_for([row[0]]).get(row[0], ()))

    def steps_by_id(self, step_ids: Sequence[int]) -> dict[int, StoredStep]:
        """These steps (legs included) by id; a few hundred ids at a time keep memory bounded."""
        found: dict[int, StoredStep] = {}
        for start in range(0, len(step_ids), 500):
            chunk = list(step_ids[start:start + 500])
            rows = self._conn.execute("SELECT id, run_id, sequence, started_at, outcome, payload FROM steps"
                                      f" WHERE id IN ({','.join('?' * len(chunk))})", chunk).fetchall()
            legs = self._legs_for([row[0] for row in rows])
            found.update((row[0], _stored_step(row, legs.get(row[0], ()))) for row in rows)
        return found

    def iter_steps(self, run_id: int, page_size: int = 500, outcome: str | None = None) -> Iterator[StoredStep]:
        """Every step of a run, page by page (bounded memory)."""
        mark: PageMark | None = None
        while True:
            page = self.steps_page(run_id, mark, page_size, outcome)
            yield from page
            if len(page) < page_size:
                return
            mark = page[-1].mark

    def _legs_for(self, step_ids: list[int]) -> dict[int, tuple[Leg, ...]]:
        if not step_ids:
            return {}
        found: dict[int, list[Leg]] = {}
        for start in range(0, len(step_ids), 500):
            chunk = step_ids[start:start + 500]
            for step_id, method, granted, elapsed, status, outcome, exchange in self._conn.execute(
                    "SELECT step_id, method, granted_s, elapsed_ms, http_status, outcome, exchange FROM legs"
                    f" WHERE step_id IN ({','.join('?' * len(chunk))}) ORDER BY step_id, position", chunk):
                found.setdefault(step_id, []).append(Leg(method, granted, elapsed, status, outcome,
                                                         stored_exchange(exchange)))
        return {step_id: tuple(legs) for step_id, legs in found.items()}


def stored_exchange(text: object) -> dict[str, Any] | None:
    """A leg's stored exchange read back; ``None`` for none, or for a damaged one (left out)."""
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


_RUN_COLUMNS = "id, uid, title, source, server, status, started_at, finished_at, origin, note"


def _run_filter(outcome: str | None, server: str | None, made_here: bool,
                run_ids: Sequence[int] | None = None, plumbing_traces: bool | None = None) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause (``""`` for none) and its values that choose the runs :meth:`RunStore.list_runs` lists."""
    where: list[str] = []
    params: list[Any] = []
    if outcome:
        where.append("status = ?")
        params.append(outcome)
    if server:
        where.append("server = ?")
        params.append(server)
    if made_here:
        where.append("source != 'imported'")
    if run_ids is not None:
        where.append(f"id IN ({','.join('?' * len(run_ids))})" if run_ids else "0")
        params.extend(run_ids)
    if plumbing_traces is not None:  # asked last: the cheaper conditions choose the runs first
        where.append(PLUMBING_TRACE if plumbing_traces else NOT_PLUMBING_TRACE)
    return (" WHERE " + " AND ".join(where) if where else ""), params


def _run(row: Sequence[Any]) -> RunRecord:
    return RunRecord(id=row[0], uid=row[1], title=row[2], source=row[3], server=row[4], status=row[5],
                     started_at=from_stored_time(row[6]), finished_at=from_stored_time(row[7]),
                     origin=row[8], note=row[9] or "", step_count=row[10])


class _NotAnObject(ValueError):
    """A stored payload that is not a JSON object; ``sentence`` says so."""

    def __init__(self, sentence: Message) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence


def _stored_step(row: Sequence[Any], legs: tuple[Leg, ...]) -> StoredStep:
    step_id, run_id, sequence, started_at, outcome, payload_text = row
    try:
        payload = json.loads(payload_text)
        if not isinstance(payload, dict):
            raise _NotAnObject(Message(N_("the payload is not a JSON object")))
        if legs:
            payload["legs"] = [leg.to_dict() for leg in legs]
        step = RunStep.from_payload(payload)
    except (ValueError, TypeError, RecursionError) as exc:
        # One damaged row (a hand edit, a disk fault) must not make the whole timeline
        # unreadable: it is shown as what it is; an export refuses it (see `damage`).
        # The reason is the parser's English words, or ours: the step's own sentence (said in the
        # reader's language when it is whole, within the 200 characters kept) or the JSON object's.
        reason = exc.sentence if isinstance(exc, _NotAnObject) else kept_sentence(
            getattr(exc, "sentence", None), str(exc)[:200])
        sentence = Message(N_("Step {sequence} of run {run} is damaged in the database: {reason}"),
                           {"sequence": sequence, "run": run_id, "reason": reason})
        damage = str(sentence)
        step = RunStep(kind=StepKind.REQUEST, round=0, duration_ms=0, content=damage)
        return StoredStep(step_id, run_id, sequence, from_stored_time(started_at), "", step,
                          (started_at, sequence), damage, sentence)
    return StoredStep(step_id, run_id, sequence, from_stored_time(started_at), outcome, step,
                      (started_at, sequence))
