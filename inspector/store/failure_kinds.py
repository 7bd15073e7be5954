"""How the failed tool calls of some runs ended, where their stored steps tell it: the kind of failure all of
a run's failed calls share ("timed_out", "refused"), which the run's status names beside it ("failed (the tool
call timed out)"), as each step's Outcome cell names it ("failed: timed out").

By the one rule of :func:`inspector.runs.ending.stored_ending`, asked of a page of runs at once in SQL (a
run of thousands of failed calls hands Python one row): a call with a leg never sent was not sent ("refused");
else one with a failed leg that used its whole grant, or one the importer found timed out (its payload's
``raw.otlp.timedOut`` is ``true``), timed out. A call of any other failure names no kind, and a run whose
failed calls ended in different ways names none either. The legs and the payload are what an export keeps and
an import gives back, so a run reads the same before and after."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from inspector.runs import Leg
from inspector.runs.ending import GRANT_REACHED_TOLERANCE_S, TIMED_OUT_MARK

from .run_store import RunStore

#: Runs asked for in one query.
CHUNK = 500

#: Of some runs' failed tool steps: how many, how many had a leg never sent, and how many of the others
#: timed out (a failed leg that ran into its grant, or the importer's mark), a run's in one row.
_KINDS = """
WITH failed AS (
    SELECT steps.run_id,
           EXISTS (SELECT 1 FROM legs WHERE legs.step_id = steps.id AND legs.outcome = :not_sent) AS not_sent,
           EXISTS (SELECT 1 FROM legs WHERE legs.step_id = steps.id AND legs.outcome = :failed
                   AND legs.granted_s IS NOT NULL AND legs.elapsed_ms IS NOT NULL
                   AND legs.elapsed_ms / 1000.0 >= legs.granted_s - :tolerance)
           OR COALESCE(json_type({payload}, '$.raw.otlp.{mark}') = 'true', 0) AS timed_out
    FROM steps WHERE steps.run_id IN ({runs}) AND steps.kind = 'tool' AND steps.outcome = 'failed')
SELECT run_id, COUNT(*), SUM(not_sent), SUM(timed_out AND NOT not_sent) FROM failed GROUP BY run_id
"""


def failure_kinds(store: RunStore, run_ids: Sequence[int]) -> dict[int, str]:
    """The kind of failure every failed tool call of each of ``run_ids`` shares, where their stored steps
    tell it ("timed_out", "refused"); a run whose failed calls name no kind, or different ones, is absent."""
    kinds: dict[int, str] = {}
    ids = list(run_ids)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start:start + CHUNK]
        names = {f"run{index}": run_id for index, run_id in enumerate(chunk)}
        for run_id, failed, not_sent, timed_out in _ended(store, names):
            if failed and not_sent == failed:
                kinds[run_id] = "refused"
            elif failed and timed_out == failed:
                kinds[run_id] = "timed_out"
    return kinds


def _ended(store: RunStore, names: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """:data:`_KINDS` of the runs ``names`` binds: the payloads read as they are, or, if one is not JSON
    SQLite reads (nested deeper than it parses), each checked first."""
    values = {**names, "not_sent": Leg.NOT_SENT, "failed": Leg.FAILED, "tolerance": GRANT_REACHED_TOLERANCE_S}
    runs = ",".join(f":{name}" for name in names)
    try:
        return store.db.conn.execute(_KINDS.format(payload="steps.payload", mark=TIMED_OUT_MARK, runs=runs),
                                     values).fetchall()
    except sqlite3.OperationalError:
        checked = "CASE WHEN json_valid(steps.payload) THEN steps.payload ELSE '{}' END"
        return store.db.conn.execute(_KINDS.format(payload=checked, mark=TIMED_OUT_MARK, runs=runs),
                                     values).fetchall()


__all__ = ["failure_kinds"]
