"""Notes: what someone who reviewed a run or a step wrote about it (support staff's finding).

A run's note is a column of its row; a step's note is the key ``note`` of its payload, so that it
travels with the step into both export formats and back. Writing an empty note removes it.
"""

from __future__ import annotations

from inspector.i18n import N_
from inspector.i18n.messages import Count, Message

from .browse import SpanNodes
from .errors import StoreError, UnknownRunError
from .run_store import RunStore
from .step_range import in_range, no_such_step

#: The longest note kept (characters): a finding, not a file.
MAX_NOTE_CHARS = 20_000


class NoteTooLongError(StoreError):
    """A note longer than :data:`MAX_NOTE_CHARS`; nothing was written."""


def _checked(text: str) -> str:
    text = text.strip()
    if len(text) > MAX_NOTE_CHARS:
        raise NoteTooLongError(Message(N_("The note has {count} characters; at most {limit} are kept. Nothing was "
                                          "written: shorten it."),
                                       {"count": Count(len(text)), "limit": Count(MAX_NOTE_CHARS)}))
    return text


def write_run_note(store: RunStore, run_id: int, text: str) -> str:
    """Set the note of a run ("" removes it); return the note as kept."""
    note = _checked(text)
    with store.transaction():
        updated = store.db.execute("UPDATE runs SET note = ? WHERE id = ?", (note, run_id)).rowcount
    if not updated:
        raise UnknownRunError(Message(N_("There is no run {id}."), {"id": run_id}))
    return note


def write_step_note(store: RunStore, step_id: int, text: str) -> str:
    """Set the note of a step ("" removes it); return the note as kept. A step whose stored payload
    is not a JSON object (a damaged row) cannot take a note: that is said, nothing is written."""
    note = _checked(text)
    with store.transaction():
        row = store.db.execute("SELECT json_valid(payload) AND json_type(payload) = 'object' FROM steps WHERE id = ?",
                               (step_id,)).fetchone()
        if row is None:
            raise UnknownRunError(Message(N_("There is no step {id}."), {"id": step_id}))
        if not row[0]:
            raise StoreError(Message(N_("Step {id} is damaged (its stored payload is not a JSON object): it cannot "
                                        "take a note."), {"id": step_id}))
        if note:
            store.db.execute("UPDATE steps SET payload = json_set(payload, '$.note', ?) WHERE id = ?", (note, step_id))
        else:
            store.db.execute("UPDATE steps SET payload = json_remove(payload, '$.note') WHERE id = ?", (step_id,))
    return note


def step_note(store: RunStore, step_id: int) -> str:
    """The note of a step ("" when it has none, or its payload cannot be read)."""
    row = store.db.execute("SELECT CASE WHEN json_valid(payload) THEN json_extract(payload, '$.note') END"
                           " FROM steps WHERE id = ?", (step_id,)).fetchone()
    return row[0] if row and isinstance(row[0], str) else ""


#: The steps of a run that have a note (the index steps_with_note's condition; a damaged payload has none).
_NOTED_STEPS = ("SELECT id FROM steps WHERE run_id = ? AND mentions_note = 1"
                " AND CASE WHEN json_valid(payload) THEN json_extract(payload, '$.note') END != ''")


def noted_steps(store: RunStore, run_ids: list[int]) -> int:
    """How many steps of the runs ``run_ids`` have a note (a run at a time, through the index steps_with_note)."""
    count = f"SELECT count(*) FROM ({_NOTED_STEPS})"
    return sum(store.db.execute(count, (run_id,)).fetchone()[0] for run_id in run_ids)


def plumbing_notes(store: RunStore, run_id: int, nodes: SpanNodes) -> int:
    """How many of the plumbing steps of run ``run_id`` (its span tree's ``nodes``) have a note: steps
    hidden unless the plumbing is shown, whose notes (written with it shown, here or where the run was
    exported) would otherwise go unseen."""
    noted = {step_id for (step_id,) in store.db.execute(_NOTED_STEPS, (run_id,)).fetchall()}
    return sum(1 for step_id, plumbing in zip(nodes.step_ids, nodes.plumbing, strict=True)
               if plumbing and step_id in noted) if noted else 0


def step_id_of(store: RunStore, run_id: int, sequence: int) -> int:
    """The id of step ``sequence`` (as the timeline numbers it) of run ``run_id``."""
    row = None
    if in_range(sequence):
        row = store.db.execute("SELECT id FROM steps WHERE run_id = ? AND sequence = ?", (run_id, sequence)).fetchone()
    if row is None:
        raise no_such_step(store.db, run_id, sequence)
    return int(row[0])
