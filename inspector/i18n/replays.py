"""The words for replays (``inspector.runs.replaying``): the same in the window and on the command line."""

from __future__ import annotations

from collections.abc import Sequence

from . import _
from .words import outcome_word


def replay_of_text(run_id: int | None, step: int) -> str:
    """What a replay's step says of the step it replays (``run_id``: ``None`` when that run is not here)."""
    if run_id is None:
        return _("replay of step {step} of a run not stored here").format(step=step)
    return _("replay of step {step} of run {run}").format(step=step, run=run_id)


def replayed_as_text(replays: Sequence[tuple[int, str]]) -> str:
    """What a replayed step says of its replays: each run with its status, oldest first."""
    runs = ", ".join(_("run {run} ({status})").format(run=run_id, status=outcome_word(status))
                     for run_id, status in replays)
    return _("replayed as {runs}").format(runs=runs)
