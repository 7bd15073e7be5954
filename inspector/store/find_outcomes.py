"""What Find looks for in a step's Outcome and in its disagreement band: the SQL conditions on a step's
row (its ``kind``, ``outcome`` and ``id``, and its payload) for the endings whose words hold the
needle (:mod:`inspector.i18n.find_shown`).

A step's ending is its stored outcome, except for a failed one: its legs tell whether a leg was never
sent ("refused") or ran into its grant ("timed_out"), and a step from a trace keeps the importer's
finding that it timed out; the rule is :func:`inspector.runs.ending.stored_ending`'s, said in SQL.
Only a needle an Outcome word holds adds a condition, and only a kind of failure reads the legs (of a
failed step), so Find costs what it did for any other text.
"""

from __future__ import annotations

from inspector.i18n.find_shown import disagreement_band_holds, outcome_endings_holding
from inspector.runs.ending import GRANT_REACHED_TOLERANCE_S, TIMED_OUT_MARK, UNRECORDED
from inspector.runs.leg import Leg

#: A failed step with a leg the budget never let go.
_REFUSED = f"EXISTS (SELECT 1 FROM legs WHERE legs.step_id = {{step}} AND legs.outcome = '{Leg.NOT_SENT}')"
#: A failed step with a failed leg that used its whole grant, or one the importer found timed out.
_TIMED_OUT = (f"(json_type({{payload}}, '$.raw.otlp.{TIMED_OUT_MARK}') = 'true' OR EXISTS (SELECT 1 FROM legs "
              f"WHERE legs.step_id = {{step}} AND legs.outcome = '{Leg.FAILED}' AND legs.granted_s IS NOT NULL "
              f"AND legs.elapsed_ms >= (legs.granted_s - {GRANT_REACHED_TOLERANCE_S}) * 1000))")
_FAILURES = ("failed", "timed_out", "refused")


def outcome_condition(needle: str, *, step: str = "steps", payload: str = "p") -> tuple[str, list[str]]:
    """The SQL condition that a step's Outcome (or its disagreement band) shows ``needle``, and its
    values; ``("", [])`` when neither holds it. ``step`` names the table (or alias) of the step's row,
    with its ``id``, ``kind`` and ``outcome`` (qualified: the legs it reads have an ``id`` too), ``payload``
    its payload."""
    kind, outcome = f"{step}.kind", f"{step}.outcome"
    endings = outcome_endings_holding(needle)
    parts: list[str] = []
    values: list[str] = []
    failures = [ending for ending in endings if ending in _FAILURES]
    if len(failures) == len(_FAILURES):
        parts.append(f"{outcome} = 'failed'")
    elif failures:
        refused, timed_out = _REFUSED.format(step=f"{step}.id"), _TIMED_OUT.format(step=f"{step}.id", payload=payload)
        said = {"refused": refused, "timed_out": f"NOT {refused} AND {timed_out}",
                "failed": f"NOT {refused} AND NOT {timed_out}"}
        parts.append(f"({outcome} = 'failed' AND (" + " OR ".join(f"({said[ending]})" for ending in failures) + "))")
    if UNRECORDED in endings:
        parts.append(f"({kind} = 'tool' AND {outcome} = '')")
    others = [ending for ending in endings if ending not in _FAILURES and ending != UNRECORDED]
    if others:
        parts.append(f"{outcome} IN ({', '.join('?' * len(others))})")
        values.extend(others)
    if disagreement_band_holds(needle):
        # The band shows over a call whose importer kept how its sides disagree, in a sentence.
        parts.append(f"(json_type({payload}, '$.raw.otlp.disagreement') = 'object' AND "
                     f"json_extract({payload}, '$.raw.otlp.disagreement.text') <> '')")
    return " OR ".join(parts), values


__all__ = ["outcome_condition"]
