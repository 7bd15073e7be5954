"""Two stored runs compared (:mod:`inspector.runs.comparing` does the comparing; this reads the steps)."""

from __future__ import annotations

from inspector.runs.comparing import RunComparison, StepFacts, compare_steps, step_facts

from .run_store import RunStore


def run_step_facts(store: RunStore, run_id: int) -> list[StepFacts]:
    """The facts of every step of a run, in timeline order (read page by page; only facts are kept).

    :class:`~inspector.store.UnknownRunError` when there is no such run."""
    store.get_run(run_id)
    has_rounds = store.has_rounds(run_id)
    return [step_facts(stored.payload, stored.sequence, has_rounds=has_rounds, step_id=stored.id)
            for stored in store.iter_steps(run_id)]


def compare_stored_runs(store: RunStore, first_id: int, second_id: int) -> RunComparison:
    """The comparison of two stored runs: the second against the first."""
    return compare_steps(run_step_facts(store, first_id), run_step_facts(store, second_id))


__all__ = ["compare_stored_runs", "run_step_facts"]
