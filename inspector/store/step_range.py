"""A step number a run does not have, refused with the numbers it does have ("run 5 has steps 1 to 12")."""

from __future__ import annotations

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.runs.step import LARGEST_SEQUENCE

from .database import Database
from .errors import UnknownRunError


def in_range(sequence: int) -> bool:
    """Whether ``sequence`` can be a step's number at all (steps are numbered from 1)."""
    return 1 <= sequence <= LARGEST_SEQUENCE


def no_such_step(db: Database, run_id: int, sequence: int) -> UnknownRunError:
    """The refusal of step ``sequence`` of run ``run_id``, naming the steps the run has."""
    first, last = db.execute("SELECT min(sequence), max(sequence) FROM steps WHERE run_id = ?", (run_id,)).fetchone()
    params = {"run": run_id, "step": sequence, "first": first, "last": last}
    if first is None:
        return UnknownRunError(Message(N_("Run {run} has no step {step}: it has no steps."), params))
    if first == last:
        return UnknownRunError(Message(N_("Run {run} has no step {step}: it has only step {first}."), params))
    return UnknownRunError(Message(N_("Run {run} has no step {step}: it has steps {first} to {last}."), params))
