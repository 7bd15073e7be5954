"""Importing a trace file into the run store: all of it, or nothing.

Accepted: our trace format (``docs/trace-format.md``), a bare JSON list of step payloads (as the
reference stores them), and OTLP JSON (one object, a list of objects, or JSON Lines as the
OpenTelemetry collector's file exporter writes them).

Nothing is written before the whole file has been checked. Pass 1 streams the file, checks
everything and plans the runs, keeping the checked steps in memory up to :data:`CACHE_BUDGET`
(as the rows the store writes, compressed a batch at a time: a tenth of what the steps take);
then one transaction writes them. A file too big for that budget is streamed a second time to
write (memory stays bounded either way); a file that changes between the two reads is refused
(its hash is compared) and the transaction rolled back.

This module holds that orchestration only: the files are read by :mod:`inspector.traces.reader`
(which knows nothing of the database), the runs written by :mod:`inspector.store`.
"""

from __future__ import annotations

import gc
import marshal
import os
import sqlite3
import stat
import zlib
from collections import deque
from collections.abc import Callable, Iterator, MutableMapping, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason
from inspector.mcp.address_query import address_to_keep
from inspector.runs.times import normal_stored_time
from inspector.store import RunStore, StepRow, StoreError, step_row
from inspector.store.bulk_runs import BATCH as RUN_BATCH
from inspector.store.bulk_runs import NewRun, drop_first_rows, first_rows_left, insert_runs, stored_uids
from inspector.store.faults import database_file, is_lock, is_read_only
from inspector.store.notes import noted_steps
from inspector.traces.format import (
    WHOLE_FILE,
    Path,
    RunHeader,
    TraceImportError,
    TraceProblem,
    TraceStep,
    place,
    said,
)
from inspector.traces.json_stream import BadJson, locate_bad_json
from inspector.traces.progress import PROGRESS_INTERVAL_S, ProgressMeter
from inspector.traces.reader import CACHE_BUDGET, PlannedRun, TracePlan, read_file, reader_for
from inspector.traces.sniff import FileKind, sniff

from .joining import Joins
from .notes_again import NotesAgain, row_note, step_note
from .spill import SpillArea

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

__all__ = ["CACHE_BUDGET", "ImportReport", "Progress", "TraceImportError", "import_trace"]

Progress = Callable[[int, int], None]
"""``progress(done, total)`` with ``total`` twice the file size: reading counts the bytes read,
writing the same share of the file per step written. It may raise (e.g. to cancel): the
import then stops and writes nothing."""


REPORTED_UIDS = 1000
"""At most this many uids are kept in :attr:`ImportReport.imported_uids` and ``already_present``
(a file may hold a million runs); the counts are always complete."""


@dataclass(frozen=True)
class ImportReport:
    """What an import did. ``file_format`` is ``trace``, ``payloads`` or ``otlp``.

    ``run_ids`` are the new runs' ids (a ``range`` when they are consecutive, as they are when
    one transaction writes them); ``imported_uids`` and ``already_present`` hold the first
    :data:`REPORTED_UIDS` uids of each kind, ``runs_imported`` and ``runs_already_present`` count all.
    """

    file_format: str
    run_ids: Sequence[int]
    imported_uids: tuple[str, ...]
    already_present: tuple[str, ...]
    steps_imported: int
    present_count: int | None = field(default=None, compare=False)
    #: The runs of ours that spans of another tool joined (a server's spans of their trace), by uid.
    joined_uids: tuple[str, ...] = ()
    #: Spans left out because their trace had a span with their id already: the same as that span (the
    #: file holds it twice), and different from it (an id used twice; the first span is kept).
    spans_repeated: int = 0
    spans_clashing: int = 0
    #: Notes of the file added to runs that were here already (on the run or its steps), the first
    #: :data:`~inspector.transfer.notes_again.NAMED_RUNS` of those runs' ids and how many there are,
    #: and the notes of the file not taken because their run or step has another note here (kept).
    notes_added: int = 0
    noted_run_ids: tuple[int, ...] = ()
    noted_runs: int = 0
    notes_kept: int = 0
    #: Notes of the file that the runs here have already (the same text on the same run or step).
    notes_same: int = 0
    #: Notes of the file not added because the stored run has no such step (the file's run holds more
    #: steps, or another step at its place), the first of those steps as (run id, step number), and why
    #: it took nothing (``"absent"``, ``"other"``: another step, ``"unreadable"``; see
    #: :data:`~inspector.transfer.notes_again.STEP_ABSENT`).
    notes_stepless: int = 0
    first_stepless: tuple[int, int] | None = None
    first_stepless_why: str = ""
    #: Notes the new runs brought (on the runs and their steps): whoever imports a file is told its notes came.
    notes_brought: int = 0

    @property
    def runs_imported(self) -> int:
        """How many runs were added."""
        return len(self.run_ids)

    @property
    def runs_already_present(self) -> int:
        """How many runs of the file were already stored (and were skipped)."""
        return len(self.already_present) if self.present_count is None else self.present_count


def import_trace(store: RunStore, path: str | FilePath, progress: Progress | None = None) -> ImportReport:
    """Import the runs of the file at ``path``; runs whose uid is already stored are skipped.

    Imported runs get source ``imported`` and ``origin`` = the file name, and keep their uid,
    title, server, status and times (a run still ``running`` in the file becomes
    ``interrupted``: no process here is writing it). Raises :class:`TraceImportError`, naming
    the place in the file, for anything wrong; the database is then unchanged. A problem inside the
    file is said of its name; a file refused whole (not a regular file, or one that cannot be read) of
    its path as given, as such a file is known by its path (``/dev/null``, not "null").
    """
    source = FilePath(path)
    name = source.name or str(source)  # "." and "/" have no name of their own
    given = os.fspath(path)
    try:
        try:
            report = _import(store, source, given, progress, exact=False)
        except BadJson as bad:
            if not bad.overflow:
                raise
            # A whole number beyond 64 bits (a live call's argument may be one): the file again, read exactly,
            # which the quick parser cannot (nothing was written: the check of the whole file comes first).
            report = _import(store, source, given, progress, exact=True)
    except TraceProblem as problem:
        if problem.path is None:  # the file's as a whole (its note for a step stored here already)
            raise TraceImportError(name, said(WHOLE_FILE), problem.sentence) from None
        location = place(problem.path)
        if problem.line:
            location = said(N_("line {line}: {place}"), line=problem.line, place=location)
        raise TraceImportError(name, location, problem.sentence) from None
    except BadJson as bad:
        raise TraceImportError(name, *locate_bad_json(source, bad)) from None
    except OSError as error:
        raise TraceImportError(given, said(WHOLE_FILE), said(N_("cannot be read ({reason})"),
                                                                  reason=os_reason(error))) from None
    except sqlite3.Error as error:
        raise _not_written(store, name, error) from None
    return report


def _import(store: RunStore, source: FilePath, given: str, progress: Progress | None, *, exact: bool) -> ImportReport:
    """:func:`import_trace`'s work; ``exact``: numbers read so (see :func:`.json_stream.event_parser`)."""
    with _without_cyclic_gc(), SpillArea() as area:
        total = _regular_file_size(source, given)
        meter = ProgressMeter(progress, 2 * total, PROGRESS_INTERVAL_S)
        kind = sniff(source, exact)
        # CACHE_BUDGET read here, so a test or benchmark can set it
        with closing(_CheckingPlan(CACHE_BUDGET, area.table)) as plan:
            reader = reader_for(kind, plan, checking=True, title=source.stem, new_table=area.table,
                                stored_payloads=True)
            first_hash = read_file(source, kind, reader, meter, total)
            report = _write(store, source, kind, plan, first_hash, meter, area, total)
            if reader.repeats is not None:
                report = replace(report, spans_repeated=reader.repeats.repeated,
                                 spans_clashing=reader.repeats.clashing)
    return report


def _not_written(store: RunStore, name: str, error: sqlite3.Error) -> StoreError:
    """The sentence for runs the database did not take: which file, why, and (for a lock, the
    usual cause, and a file that can only be read) what to do."""
    path = database_file(store.db.conn)
    if is_lock(error):
        return StoreError(Message(N_(
            "The runs of {name} could not be written: the run database {path} stayed locked by another program "
            "(for example a sqlite3 shell, or another tool holding a transaction open). Nothing was imported. "
            "Close that program, or wait until it is done, and try again."), {"name": name, "path": path}))
    if is_read_only(error):
        return StoreError(Message(N_(
            "The runs of {name} could not be written: the run database {path} can only be read (the file, its "
            "folder or its disk is read-only). Nothing was imported. Make it writable, and import the file again."),
            {"name": name, "path": path}))
    return StoreError(Message(N_("The runs of {name} could not be written to the run database {path} ({reason}). "
                                 "Nothing was imported."), {"name": name, "path": path, "reason": error}))


def _regular_file_size(source: FilePath, given: str) -> int:
    """The size of ``source``, which must be a regular file: a named pipe with no writer would
    make the import wait forever, a device could be read forever. What else it is, is said of the
    file (as a file that cannot be read is), not of a place inside it, and of its path ``given`` as
    it was given: such a file is known by its path (``/dev/null``, ``/dev/fd/63`` of a shell's
    ``<(...)``), its last part ("null", "63") says nothing."""
    found = source.stat()
    if not stat.S_ISREG(found.st_mode):
        if stat.S_ISDIR(found.st_mode):
            problem = said(N_("is a folder, not a regular file; save the trace to a file and import that"))
        elif stat.S_ISFIFO(found.st_mode):
            problem = said(N_("is a named pipe, not a regular file; save the trace to a file and import that"))
        elif stat.S_ISSOCK(found.st_mode):
            problem = said(N_("is a socket, not a regular file; save the trace to a file and import that"))
        else:
            problem = said(N_("is a device, not a regular file; save the trace to a file and import that"))
        raise TraceImportError(given, said(WHOLE_FILE), problem)
    return found.st_size


@contextmanager
def _without_cyclic_gc() -> Iterator[None]:
    """Pause the cycle collector: an import makes hundreds of thousands of objects, none of
    them in a cycle, and each collection would walk every one kept so far (about 10% of the
    time of a large import). Reference counting still frees everything as usual."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _write(store: RunStore, source: FilePath, kind: FileKind, plan: _CheckingPlan, first_hash: str,
           meter: ProgressMeter, area: SpillArea, size: int) -> ImportReport:
    present = _Kept()
    joins = Joins(store, plan)
    joins.find()
    notes = False  # does a run that is here already have a note in the file?
    for batch in _new_runs(plan, joins):
        found, _left = _stored(store, batch)
        for key, run in batch:
            if run.header.uid in found:
                present.add(run.header.uid)
                notes = notes or bool(run.header.note) or key in plan.noted
    if not joins.joining and present.count == len(plan.runs):
        if notes:  # the notes are compared first: the same file again writes nothing
            checked = _compare_notes(store, source, kind, plan, joins, first_hash, meter, area, size)
            if not checked.added:
                meter.done()
                return ImportReport(kind.name, (), (), present.first, 0, present.count, notes_kept=checked.kept,
                                    notes_same=checked.same, notes_stepless=checked.stepless,
                                    first_stepless=checked.first_stepless,
                                    first_stepless_why=checked.first_stepless_why)
            plan.rows = None  # taken by the comparison: the writing below reads the file again
        else:  # Nothing new: the database is not even opened for writing.
            meter.done()
            return ImportReport(kind.name, (), (), present.first, 0, present.count)
    with store.transaction():
        run_ids = area.table()  # file key → new run id (a million runs need not be in memory)
        present, imported, ids = _Kept(), _Kept(), _Ids()
        again = NotesAgain(store, area.table)
        brought, noted_new = 0, []  # the notes of the new runs; the new runs with a noted step
        for batch in _new_runs(plan, joins):  # (their steps of runs that join a run of ours: below)
            found, left = _stored(store, batch)  # imported meanwhile elsewhere?
            drop_first_rows(store.db, sorted(left))
            new = [(key, run.header) for key, run in batch if run.header.uid not in found]
            for key, run in batch:
                if run.header.uid in found:
                    present.add(run.header.uid)
                    if run.header.note or key in plan.noted:
                        again.run(key, run.header.uid, run.header.note)
            made = insert_runs(store.db, [_new_run(header, source.name) for _, header in new])
            for (key, header), run_id in zip(new, made, strict=True):
                run_ids[key] = run_id
                ids.add(run_id)
                imported.add(header.uid)
                brought += bool(header.note)
                if key in plan.noted:
                    noted_new.append(run_id)
        joins.resolve(run_ids)
        writer = _Writer(store, run_ids, joins, again)
        if plan.rows is not None:
            # Every step was kept when it was checked: write them without reading the file again.
            rows = plan.rows
            share = meter.total // 2 / max(rows.count, 1)  # writing is the second half of the work
            batch: list[tuple[int, int, str, StepRow]] = []
            last_key: Any = _NO_KEY
            run_id: int | None = None
            for key, sequence, started_at, row in rows.take():
                if key != last_key:
                    last_key, run_id = key, run_ids.get(key)
                if run_id is None:  # a run already present: only a note of its steps may be added
                    if key in again:
                        again.step(key, sequence, started_at, row_note(row[4]))
                    continue
                placed = joins.place(key, sequence, started_at, row)
                if placed is None:  # a span stored in the run it joins already
                    continue
                batch.append((run_id, placed, started_at, row))
                if len(batch) == _WRITE_BATCH:
                    store.insert_step_rows(batch)
                    writer.count += len(batch)
                    batch = []
                    meter.advance(int(_WRITE_BATCH * share))
            store.insert_step_rows(batch)
            writer.count += len(batch)
        elif (ids.count or joins.joined_uids or notes) and read_file(
                source, kind, reader_for(kind, writer, checking=False, new_table=area.table, stored_payloads=True),
                meter, size) != first_hash:
            raise _changed_meanwhile()
        brought += noted_steps(store, noted_new)
        meter.done()  # before the commit: a callback that cancels now still writes nothing
    return ImportReport(kind.name, ids.ids(), imported.first, present.first, writer.count, present.count,
                        tuple(joins.joined_uids), notes_added=again.added, noted_run_ids=again.run_ids,
                        noted_runs=again.run_count, notes_kept=again.kept, notes_same=again.same,
                        notes_stepless=again.stepless, first_stepless=again.first_stepless,
                        first_stepless_why=again.first_stepless_why, notes_brought=brought)


def _stored(store: RunStore, batch: list[tuple[Any, PlannedRun]]) -> tuple[set[str], set[str]]:
    """Of a batch's runs, the uids stored here already, and apart from them those whose stored run is only
    a call's first row left behind (:func:`~inspector.store.bulk_runs.first_rows_left`), which the file's
    finished run replaces: its side file then brings the call back whole, not "here already"."""
    found = stored_uids(store.db, [run.header.uid for _, run in batch])
    finished = [run.header.uid for _, run in batch
                if run.header.uid in found and run.header.status not in ("running", "interrupted")]
    left = first_rows_left(store.db, finished)
    return found - left, left


def _compare_notes(store: RunStore, source: FilePath, kind: FileKind, plan: _CheckingPlan, joins: Joins,
                   first_hash: str, meter: ProgressMeter, area: SpillArea, size: int) -> NotesAgain:
    """The notes the file would add to the runs here already, counted without writing (and so
    without the write lock another program may hold); the steps kept in ``plan.rows`` are taken."""
    checked = NotesAgain(store, area.table, writing=False)
    for batch in _new_runs(plan, joins):
        for key, run in batch:
            if run.header.note or key in plan.noted:
                checked.run(key, run.header.uid, run.header.note)
    if plan.rows is not None:
        for key, sequence, started_at, row in plan.rows.take():
            if key in checked:
                checked.step(key, sequence, started_at, row_note(row[4]))
    else:
        sink = _Writer(store, area.table(), joins, checked)  # no run of its own: each step only compared
        if read_file(source, kind, reader_for(kind, sink, checking=False, new_table=area.table, stored_payloads=True),
                     meter, size) != first_hash:  # (the meter: a cancel is heard meanwhile)
            raise _changed_meanwhile()
    return checked


def _changed_meanwhile() -> TraceProblem:
    """The file read again is not the file read first: a problem of the whole file, said of it
    ("Cannot import a.json: it changed while it was being imported; try again.")."""
    return TraceProblem(None, said(N_("changed while it was being imported; try again")))


def _new_runs(plan: TracePlan, joins: Joins) -> Iterator[list[tuple[Any, PlannedRun]]]:
    """The planned runs that do not join a run of ours, in file order, a batch at a time."""
    batch: list[tuple[Any, PlannedRun]] = []
    for key, run in plan.runs.items():
        if key in joins.joining:
            continue
        batch.append((key, run))
        if len(batch) == RUN_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _new_run(header: RunHeader, origin: str) -> NewRun:
    """The run to insert for ``header``: a run still "running" in the file has no process here to finish it. Its
    server as this program keeps one: no password, query or fragment of an address a stranger's file gives."""
    return NewRun(header.uid, header.title, "imported", header.server and address_to_keep(header.server),
                  "interrupted" if header.status == "running" else header.status,
                  normal_stored_time(header.started_at), normal_stored_time(header.finished_at), origin, header.note)


_WRITE_BATCH = 1000
_NO_KEY = object()
_ROW_BATCH = 256
"""Checked steps compressed together: the resource and scope a trace's spans repeat compress well."""
_ROW_OVERHEAD = 160
"""What an uncompressed kept row costs besides its payload (its tuple, numbers and times)."""


class _CheckedRows:
    """The rows of the checked steps, in file order: ``(key, sequence, started_at, step_row)``,
    marshalled and compressed :data:`_ROW_BATCH` at a time (our own bytes, read back only here).

    A thread of its own compresses a batch while the next is checked, and unpacks the next while
    one is written: zlib works with the interpreter lock released, so on a second core the
    importing thread does not wait for it. A batch being compressed counts at its full size against the budget until
    its compressed size is known. :meth:`close` ends the thread."""

    def __init__(self, budget: int) -> None:
        self.count = 0
        self._budget = budget
        self._batches: list[Future[bytes] | None] = []
        self._packing: deque[tuple[Future[bytes], int]] = deque()  # compressing, with its full size
        self._packer: ThreadPoolExecutor | None = None
        self._pending: list[tuple[Any, int, str, StepRow]] = []
        self._used = 0
        self._pending_size = 0

    def add(self, key: Any, sequence: int, started_at: str, row: StepRow) -> bool:
        """Keep one more row; False when the rows no longer fit the budget (then drop them)."""
        self._pending.append((key, sequence, started_at, row))
        self.count += 1
        self._pending_size += len(row[4]) + _ROW_OVERHEAD
        if len(self._pending) >= _ROW_BATCH:
            self._seal()
        return self._used + self._pending_size <= self._budget

    def _seal(self) -> None:
        data = marshal.dumps(self._pending)
        if self._packer is None:
            from concurrent.futures import ThreadPoolExecutor  # a file of 256 steps or more only

            self._packer = ThreadPoolExecutor(1, thread_name_prefix="import-rows")
        packed = self._packer.submit(zlib.compress, data, 1)
        self._batches.append(packed)
        self._packing.append((packed, len(data)))
        self._used += len(data) + 64
        self._pending, self._pending_size = [], 0
        packing = self._packing
        while packing and packing[0][0].done():
            done, size = packing.popleft()
            self._used += len(done.result()) - size

    def take(self) -> Iterator[tuple[Any, int, str, StepRow]]:
        """The rows in order, each batch freed once it is unpacked (the next unpacks meanwhile)."""
        batches = self._batches
        unpacking = self._unpack(0)
        for index in range(len(batches)):
            data = unpacking.result() if unpacking is not None else b""
            unpacking = self._unpack(index + 1)
            yield from marshal.loads(data)
        yield from self._pending
        self._pending = []
        self.close()

    def _unpack(self, index: int) -> Future[bytes] | None:
        if index >= len(self._batches) or self._packer is None:
            return None
        packed, self._batches[index] = self._batches[index], None
        assert packed is not None
        return self._packer.submit(_unpacked, packed)

    def close(self) -> None:
        """End the thread (and what it has not begun)."""
        if self._packer is not None:
            self._packer.shutdown(wait=True, cancel_futures=True)
            self._packer = None
        self._batches, self._packing = [], deque()


def _unpacked(packed: Future[bytes]) -> bytes:
    return zlib.decompress(packed.result())


class _CheckingPlan(TracePlan):
    """The plan of pass 1 keeping each checked step as the row the store will write (``rows``,
    ``None`` once they outgrow the budget: pass 2 then reads the file again)."""

    def __init__(self, budget: int, new_table: Callable[[], MutableMapping[Any, Any]]) -> None:
        super().__init__(0, new_table)
        self.cache = None
        self.rows: _CheckedRows | None = _CheckedRows(budget)
        self.noted = new_table()  # the keys of the runs with a noted step

    def step(self, key: Any, step: TraceStep, path: Path, size: int = 0) -> None:
        super().step(key, step, path, size)
        if key not in self.noted and step_note(step.step):
            self.noted[key] = True
        rows = self.rows
        if rows is not None and not rows.add(key, step.sequence, step.started_at,
                                                  step_row(step.step, finite=True)):
            rows.close()
            self.rows = None

    def close(self) -> None:
        if self.rows is not None:
            self.rows.close()


class _Kept:
    """Counts uids and keeps the first :data:`REPORTED_UIDS` of them."""

    def __init__(self) -> None:
        self.count = 0
        self._first: list[str] = []

    def add(self, uid: str) -> None:
        self.count += 1
        if len(self._first) < REPORTED_UIDS:
            self._first.append(uid)

    @property
    def first(self) -> tuple[str, ...]:
        return tuple(self._first)


class _Ids:
    """Run ids as they are made: a range while consecutive (they are, in one transaction)."""

    def __init__(self) -> None:
        self.count = 0
        self._start = 0
        self._others: list[int] | None = None

    def add(self, run_id: int) -> None:
        if self._others is not None:
            self._others.append(run_id)
        elif self.count and run_id != self._start + self.count:
            self._others = [*range(self._start, self._start + self.count), run_id]
        elif not self.count:
            self._start = run_id
        self.count += 1

    def ids(self) -> Sequence[int]:
        if self._others is not None:
            return tuple(self._others)
        return range(self._start, self._start + self.count)


# -- writing what the check planned ------------------------------------------------------------------

class _Writer:
    """The writing sink: stores the steps of the runs being imported (inside the transaction)."""

    def __init__(self, store: RunStore, run_ids: MutableMapping[Any, int], joins: Joins, again: NotesAgain) -> None:
        self._store = store
        self._run_ids = run_ids
        self._joins = joins
        self._again = again
        self.count = 0

    def run(self, key: Any, header: RunHeader, path: Path) -> None:
        pass  # runs were created from pass 1's plan

    def step(self, key: Any, step: TraceStep, path: Path, size: int = 0) -> None:
        run_id = self._run_ids.get(key)
        if run_id is None:  # a run already present: only a note of its steps may be added
            self._again.step(key, step.sequence, step.started_at, step_note(step.step))
            return
        sequence: int | None = step.sequence
        if self._joins.joins(key):
            sequence = self._joins.place(key, step.sequence, step.started_at, step_row(step.step))
        if sequence is not None:
            self._store.insert_step(run_id, sequence, step.step, step.started_at)
            self.count += 1
