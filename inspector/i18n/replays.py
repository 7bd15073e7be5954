"""The words for replays (``inspector.runs.replaying``): the same in the window and on the command line."""

from __future__ import annotations

from collections.abc import Sequence

from . import _
from .formatting import format_duration
from .words import no_outcome_word, outcome_word

#: Two durations closer than this (ms), or than a fifth of the longer, read "about as fast".
ALIKE_MS = 100.0


def replay_of_text(run_id: int | None, step: int) -> str:
    """What a replay's step says of the step it replays (``run_id``: ``None`` when that run is not here)."""
    if run_id is None:
        return _("replay of step {step} of a run not stored here").format(step=step)
    return _("replay of step {step} of run {run}").format(step=step, run=run_id)


def replayed_as_text(replays: Sequence[tuple[int, str]]) -> str:
    """What a replayed step says of its replays: each run with its status, oldest first."""
    runs = ", ".join(_("run {run} ({status})").format(run=run_id, status=outcome_word(status)) if status
                     else _("run {run}").format(run=run_id)  # a replay's step with no outcome: no "()"
                     for run_id, status in replays)
    return _("replayed as {runs}").format(runs=runs)


def replay_verdict(outcome_before: str, outcome_now: str, same_result: bool, before_ms: float, now_ms: float) -> str:
    """How a replay compares with the step it replays, in a sentence (the window's Result tab and
    ``replay`` say the same): "Replay: the same outcome, a different result, slower by 1.2 s.".
    Speed is compared only between two steps that ended alike: a replay that failed at once (its
    server unreachable, say) was not "faster" than the call that worked."""
    parts = []
    if outcome_before != outcome_now:
        parts.append(_("{original} before, {replay} now").format(
            original=outcome_word(outcome_before) if outcome_before else no_outcome_word(),
            replay=outcome_word(outcome_now) if outcome_now else no_outcome_word()))
        parts.append(_("the same result") if same_result else _("a different result"))
        return _("Replay: {parts}.").format(parts=", ".join(parts))
    parts.append(_("the same outcome"))
    parts.append(_("the same result") if same_result else _("a different result"))
    gap = now_ms - before_ms
    if abs(gap) > ALIKE_MS and abs(gap) > max(before_ms, now_ms) / 5:
        words = _("slower by {duration}") if gap > 0 else _("faster by {duration}")
        parts.append(words.format(duration=format_duration(abs(gap) / 1000)))
    else:
        parts.append(_("about as fast"))
    return _("Replay: {parts}.").format(parts=", ".join(parts))
