"""A failed run the model got over: how many of its tool calls failed, when its model still answered.

A run with a failed call is a failed run (seed ADR-191), also when the model carried on and gave its
answer (the ``flaky-server`` scenario). Every place that shows such a run's status says why beside
it, with these counts: the Play tab, the Runs tab's heading over the timeline, ``runs show`` and
``scenario``."""

from __future__ import annotations

from dataclasses import dataclass

from .run_store import RunRecord, RunStore


@dataclass(frozen=True, slots=True)
class Recovery:
    """``failed`` of the run's ``calls`` tool calls failed, and the model still gave its answer."""

    failed: int
    calls: int


#: The run's last step: a model's step that asked for no tool call and did not fail is its answer.
_LAST_STEP = """
    SELECT kind,
           CASE WHEN json_valid(payload) THEN json_extract(payload, '$.finishReason') END,
           CASE WHEN json_valid(payload) THEN json_array_length(payload, '$.requestedToolCalls') END
    FROM steps WHERE run_id = ? ORDER BY sequence DESC LIMIT 1
"""
_CALLS = "SELECT COUNT(*), COALESCE(SUM(outcome = 'failed'), 0) FROM steps WHERE run_id = ? AND kind = 'tool'"


def recovery_of(store: RunStore, run: RunRecord) -> Recovery | None:
    """The failed calls of ``run`` when it is failed and its model still answered; ``None`` otherwise
    (a run that is not failed, one that stopped at its failure, one with no model)."""
    if run.status != "failed":
        return None
    conn = store.db.conn
    last = conn.execute(_LAST_STEP, (run.id,)).fetchone()
    if last is None or last[0] != "llm" or last[1] == "error" or last[2]:
        return None
    calls, failed = conn.execute(_CALLS, (run.id,)).fetchone()
    return Recovery(failed, calls) if failed else None


__all__ = ["Recovery", "recovery_of"]
