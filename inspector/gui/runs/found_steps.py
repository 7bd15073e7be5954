"""What Find asks of a run's stored steps, and the read that answers it: on the GUI thread for a short
run, on a reader thread for a long one (:class:`.find_in_run.FindInRun`): a run of 10,001 joined client
and server steps has 29 MB of payloads to read at each Find (0.3-0.5 s)."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.store import RunStore
from inspector.store.browse import StepFilter, find_in_timeline, find_step_ids


@dataclass(frozen=True)
class FindQuestion:
    """Find's text in a run's steps as the timeline filters them; the steps ``also`` found by their shown
    words (said in the window's language: not said again in SQL); ``tree``: the timeline is a span tree,
    answered with the steps' ids (else with their rows in the filtered timeline)."""

    run_id: int
    text: str
    filter: StepFilter
    also: tuple[int, ...]
    tree: bool


def read_found(store: RunStore, question: FindQuestion) -> list[int]:
    """The steps that hold the text, in time order: their ids (a span tree), or their rows."""
    read = find_step_ids if question.tree else find_in_timeline
    return read(store, question.run_id, question.text, question.filter, also=question.also, say=False)


__all__ = ["FindQuestion", "read_found"]
