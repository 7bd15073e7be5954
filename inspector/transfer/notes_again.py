"""The notes a file brings for runs stored here already (a second export after a note was written).

Such a run is not imported again, and nothing of it changes but this: a note of the file (on the run,
or on one of its steps) whose run or step has no note here is added. A run or a step holds one note
(``inspector.store.notes``); notes carry no time of their own, so a note is matched by its run or
step (a step by its sequence and start time) and its text. A note here is never changed or removed:
when the file's differs (the engineer edited it, or wrote another), the one here is kept and counted.
A note of a step that is not stored here (the file holds more steps, or another step at its place) has
nothing to be added to: it is counted, and the first such step named with why (:data:`STEP_ABSENT`,
:data:`STEP_OTHER`, :data:`STEP_UNREADABLE`), so that the import says what is true of it.

When every run of the file is here already, the notes are first only compared (nothing is
opened for writing: the same file again changes nothing and needs no lock); only when one is to
be added does the import's transaction write them, reading the file again. They are written as
the steps pass by (memory stays bounded
however many notes a file holds: at most one per stored run and step is added). A note added is
bounded as a note written here is (:data:`~inspector.store.notes.MAX_NOTE_CHARS`): a run's note longer
is refused by the reader, a step's (its payload may hold 5,000,000 characters, as a foreign trace's
error can) when it would be added; the whole file is refused then, and nothing written.
"""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping
from typing import Any

from inspector.i18n import N_
from inspector.i18n.messages import Count
from inspector.runs.step import StoredPayload
from inspector.store import RunStore
from inspector.store.notes import MAX_NOTE_CHARS
from inspector.traces.format import TraceProblem, said

#: At most this many run ids are kept to be named (the counts are always complete).
NAMED_RUNS = 1000

#: Why a note of the file found no stored step to be added to: the stored run has no step with its
#: number; it has one, but another (started at another time); it has it, but its payload is not readable.
STEP_ABSENT, STEP_OTHER, STEP_UNREADABLE = "absent", "other", "unreadable"


def step_note(step: Any) -> str:
    """The note of a step read from a file ("" when it has none)."""
    payload = step.payload if type(step) is StoredPayload else None
    note = payload.get("note") if payload is not None else getattr(step, "note", None)
    return note if isinstance(note, str) else ""


def row_note(payload_text: str) -> str:
    """The note in a kept step row's payload text ("" when it has none)."""
    if '"note":' not in payload_text:
        return ""
    try:
        payload = json.loads(payload_text)
    except ValueError:
        return ""
    note = payload.get("note") if isinstance(payload, dict) else None
    return note if isinstance(note, str) else ""


def _takes(here: str, note: str) -> bool:
    """Whether a note here (``""``: none) gives way to the file's ``note``: it has none, or the file's
    goes on from it (it loses nothing)."""
    return not here or (len(note) > len(here) and note.startswith(here))


class NotesAgain:
    """Adds the file's notes to the stored runs it names (inside the import's transaction)."""

    def __init__(self, store: RunStore, new_table: Callable[[], MutableMapping[Any, Any]], *,
                 writing: bool = True) -> None:
        self._store = store
        self._writing = writing  # False: only count what would be added (no transaction is open)
        self._ids = new_table()  # file key → the stored run's id, for present runs with notes in the file
        self.added = 0
        self.kept = 0  # notes of the file not taken: the run or step has another note here
        self.same = 0  # notes of the file the run or step has already
        self.stepless = 0  # notes of the file on a step the stored run does not have (nothing to add them to)
        self.first_stepless: tuple[int, int] | None = None  # (run id, step number) of the first
        self.first_stepless_why = ""  # why the first found nothing to be added to (STEP_ABSENT, ...)
        self.run_count = 0
        self._named: list[int] = []
        self._noted = new_table()  # the ids of the runs given a note

    @property
    def run_ids(self) -> tuple[int, ...]:
        """The first :data:`NAMED_RUNS` runs that were given a note, in the order they were."""
        return tuple(self._named)

    def __contains__(self, key: Any) -> bool:
        """Whether ``key`` is a stored run whose steps may take notes of the file."""
        return key in self._ids

    def run(self, key: Any, uid: str, note: str) -> None:
        """A stored run the file holds too (with a note on it or on one of its steps): add ``note``."""
        row = self._store.db.execute("SELECT id, note FROM runs WHERE uid = ?", (uid,)).fetchone()
        if row is None:
            return
        run_id, here = int(row[0]), row[1] or ""
        self._ids[key] = run_id
        if note and _takes(here, note):
            if self._writing:
                self._store.db.execute("UPDATE runs SET note = ? WHERE id = ?", (note, run_id))
            self._added(run_id)
        elif note:
            self._known(here, note)

    def step(self, key: Any, sequence: int, started_at: str, note: str) -> None:
        """A step of the file: add its ``note`` to the stored step at its place, if that has none."""
        if not note:
            return
        run_id = self._ids.get(key)
        if run_id is None:
            return
        row = self._store.db.execute(
            "SELECT id, started_at, CASE WHEN json_valid(payload) THEN json_type(payload) = 'object' ELSE 0 END,"
            " CASE WHEN json_valid(payload) THEN json_extract(payload, '$.note') END"
            " FROM steps WHERE run_id = ? AND sequence = ?", (run_id, sequence)).fetchone()
        if row is None or row[1] != started_at or not row[2]:  # not the same step here: nothing to add it to
            why = STEP_ABSENT if row is None else STEP_OTHER if row[1] != started_at else STEP_UNREADABLE
            self._stepless(run_id, sequence, why)
            return
        here = row[3] if isinstance(row[3], str) else ""
        if _takes(here, note):
            if len(note) > MAX_NOTE_CHARS:  # a note someone wrote is bounded so (a new run's steps keep theirs)
                raise TraceProblem(None, said(N_("has a note of {count} characters for step {step} of run {id} here; "
                                                 "a note added to a step stored here may have at most {limit}"),
                                              step=sequence, id=run_id, count=Count(len(note)),
                                              limit=Count(MAX_NOTE_CHARS)))
            if self._writing:
                self._store.db.execute("UPDATE steps SET payload = json_set(payload, '$.note', ?) WHERE id = ?",
                                       (note, row[0]))
            self._added(run_id)
        else:
            self._known(here, note)

    def _stepless(self, run_id: int, sequence: int, why: str) -> None:
        self.stepless += 1
        if self.first_stepless is None:
            self.first_stepless = (run_id, sequence)
            self.first_stepless_why = why

    def _known(self, here: str, note: str) -> None:
        if here == note:
            self.same += 1
        else:
            self.kept += 1

    def _added(self, run_id: int) -> None:
        self.added += 1
        if run_id not in self._noted:
            self._noted[run_id] = True
            self.run_count += 1
            if len(self._named) < NAMED_RUNS:
                self._named.append(run_id)
