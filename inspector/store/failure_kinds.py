"""How the failed tool calls of some runs ended, where their stored steps tell it: the kind of failure all of
a run's failed calls share ("timed_out", "refused"), which the run's status names beside it ("failed (the tool
call timed out)"), as each step's Outcome cell names it ("failed: timed out").

By the one rule of :func:`inspector.runs.ending.stored_ending`, asked of a page of runs at once in SQL (a
run of thousands of failed calls hands Python one row): a call with a leg never sent was not sent ("refused");
else one with a failed leg that used its whole grant, or one the importer found timed out (its payload's
``raw.otlp.timedOut`` is ``true``), timed out. A call of any other failure names no kind, and a run whose
failed calls ended in different ways names none either. A tool span that failed over the call it wraps (of
the same tool) is that call: its kind is the wrapped step's, so an agent's span that failed with its own
words over the SDK's call that timed out reads "the tool call timed out", as the inner step's Outcome says.
The legs and the payload are what an export keeps and an import gives back, so a run reads the same before
and after."""

from __future__ import annotations

from collections.abc import Sequence

from inspector.runs import Leg
from inspector.runs.ending import GRANT_REACHED_TOLERANCE_S, TIMED_OUT_MARK

from .checked_payloads import read_payloads
from .run_store import RunStore

#: Runs asked for in one query.
CHUNK = 500

#: Of some runs' failed tool steps: how many, how many had a leg never sent, and how many of the others
#: timed out (a failed leg that ran into its grant, or the importer's mark), a run's in one row. A failed step
#: of no known kind that wraps a failed call of its tool (a tool span over the client side of the same call,
#: as :func:`inspector.store.recovery.failed_calls` reads it: one call) is left out: the call's kind is its
#: inner step's (an agent's tool span that failed "Error running tool" over the SDK's call that timed out).
_KINDS = """
WITH failed AS (
    SELECT steps.run_id, steps.id,
           EXISTS (SELECT 1 FROM legs WHERE legs.step_id = steps.id AND legs.outcome = :not_sent) AS not_sent,
           EXISTS (SELECT 1 FROM legs WHERE legs.step_id = steps.id AND legs.outcome = :failed
                   AND legs.granted_s IS NOT NULL AND legs.elapsed_ms IS NOT NULL
                   AND legs.elapsed_ms / 1000.0 >= legs.granted_s - :tolerance)
           OR COALESCE(json_type({payload}, '$.raw.otlp.{mark}') = 'true', 0) AS timed_out,
           json_extract({payload}, '$.raw.otlp.spanId', '$.raw.otlp.parentSpanId', '$.toolName') AS marks
    FROM steps WHERE steps.run_id IN ({runs}) AND steps.kind = 'tool' AND steps.outcome = 'failed'),
spans AS (
    SELECT run_id, id, not_sent, timed_out, json_extract(marks, '$[0]') AS span,
           json_extract(marks, '$[1]') AS parent, json_extract(marks, '$[2]') AS tool
    FROM failed),
wrapping AS (
    SELECT DISTINCT outer_.id FROM spans AS outer_ JOIN spans AS inner_
        ON inner_.run_id = outer_.run_id AND inner_.parent = outer_.span AND inner_.id != outer_.id
    WHERE NOT outer_.not_sent AND NOT outer_.timed_out AND (outer_.tool IS NULL OR inner_.tool = outer_.tool))
SELECT run_id, COUNT(*), SUM(not_sent), SUM(timed_out AND NOT not_sent) FROM spans
WHERE id NOT IN wrapping GROUP BY run_id
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


def failures_in_run(store: RunStore, run_id: int) -> set[str]:
    """The kinds of failure the run's failed tool calls name, each once ("timed_out", "refused"): what their Outcome
    cells will say ("failed: timed out") before their rows are read."""
    kinds = set()
    for _run, _failed, not_sent, timed_out in _ended(store, {"run0": run_id}):
        kinds |= {kind for kind, count in (("refused", not_sent), ("timed_out", timed_out)) if count}
    return kinds


def _ended(store: RunStore, names: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """:data:`_KINDS` of the runs ``names`` binds: the payloads read as they are, or, if one is not JSON
    SQLite reads (nested deeper than it parses), each checked first."""
    values = {**names, "not_sent": Leg.NOT_SENT, "failed": Leg.FAILED, "tolerance": GRANT_REACHED_TOLERANCE_S}
    runs = ",".join(f":{name}" for name in names)
    return read_payloads(lambda payload: store.db.conn.execute(
        _KINDS.format(payload=payload, mark=TIMED_OUT_MARK, runs=runs), values).fetchall(), "steps.payload")


__all__ = ["failure_kinds", "failures_in_run"]
