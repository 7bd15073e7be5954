"""How an operation ended, as its legs tell it: the one rule the window's bar and ``runs show`` say it by.

A stored step keeps its outcome (ok, failed, cancelled) but not the kind of its failure; its legs
tell the two kinds the bar draws apart: a leg never sent (the budget was used up: "not sent") and a
failed leg that used its whole grant (it ran into its deadline: "timed out"). Live, the error's kind
says so directly. A step imported from a trace has no legs: the importer's finding that the call
timed out is kept in its payload (``raw.otlp.timedOut``, :func:`payload_timed_out`).
:func:`ending_outcome` turns an ending back into the outcome and the kind of failure that
:func:`inspector.i18n.words.outcome_text` says ("failed: timed out").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .leg import Leg

#: A finished leg this close to its grant (seconds) is taken to have run into it.
GRANT_REACHED_TOLERANCE_S = 0.05
#: A tool call whose source recorded no outcome (a span that said nothing of how it ended).
UNRECORDED = "unrecorded"
#: How an operation can end: its outcomes, and the two kinds of failure its legs tell.
ENDINGS = ("ok", "failed", "timed_out", "refused", "cancelled", UNRECORDED)
#: The key under a step's ``raw.otlp`` where the importer says a failed call timed out (``true``;
#: absent otherwise, and in steps imported before it was kept: they read "failed").
TIMED_OUT_MARK = "timedOut"


def leg_timed_out(outcome: str | None, granted_s: float | None, elapsed_s: float | None,
                  error_kind: str | None = None) -> bool:
    """Whether a leg timed out: its error's kind says so, or (a stored leg keeps none) it failed
    having used its whole grant."""
    if error_kind is not None:
        return error_kind == "timed_out"
    return (outcome == Leg.FAILED and granted_s is not None and elapsed_s is not None
            and elapsed_s >= granted_s - GRANT_REACHED_TOLERANCE_S)


def ending_of(status: str, *, not_sent: bool, timed_out: bool, error_kind: str | None = None) -> str:
    """The ending of an operation of ``status`` (ok/failed/cancelled/unrecorded), given whether a leg
    was never sent and whether one timed out (one of :data:`ENDINGS`)."""
    if status == "cancelled":
        return "cancelled"
    if status in ("ok", UNRECORDED):
        return status
    if error_kind == "exhausted_budget" or not_sent:
        return "refused"
    if error_kind == "timed_out" or timed_out:
        return "timed_out"
    return "failed"


def stored_ending(status: str, legs: Sequence[Leg], payload: Mapping[str, Any] | None = None) -> str:
    """The ending of a stored step of ``status`` from its stored legs (as the bar replays it), or, for
    a step imported from a trace, from what the importer kept in its ``payload`` (:func:`payload_timed_out`)."""
    return ending_of(status, not_sent=any(leg.outcome == Leg.NOT_SENT for leg in legs),
                     timed_out=any(_stored_leg_timed_out(leg) for leg in legs) or payload_timed_out(payload))


def payload_timed_out(payload: Mapping[str, Any] | None) -> bool:
    """Whether the importer found a step's call timed out: ``raw.otlp.timedOut`` is ``true`` (a span's
    exception, ``error.type`` or message named a time-out)."""
    raw = payload.get("raw") if isinstance(payload, Mapping) else None
    otlp = raw.get("otlp") if isinstance(raw, Mapping) else None
    return isinstance(otlp, Mapping) and otlp.get(TIMED_OUT_MARK) is True


def _stored_leg_timed_out(leg: Leg) -> bool:
    return leg_timed_out(leg.outcome, leg.granted_s, None if leg.elapsed_ms is None else leg.elapsed_ms / 1000)


def stored_failure(outcome: str | None, legs: Sequence[Leg] = (),
                   payload: Mapping[str, Any] | None = None) -> str | None:
    """The kind of failure of a stored failed step its legs, or the importer's finding, tell ("timed_out",
    "refused"), by :func:`stored_ending`; ``None`` for any other step (and a failure of no known kind)."""
    if outcome == "failed" and (legs or payload_timed_out(payload)):
        return ending_outcome(stored_ending(outcome, legs, payload))[1]
    return None


def ending_outcome(ending: str, reason: str | None = None) -> tuple[str, str | None]:
    """The outcome of an ending and, for a failure, its kind (timed out and refused are kinds of failed;
    ``reason``: the kind of a plain failure, when known)."""
    if ending in ("timed_out", "refused"):
        return "failed", ending
    return ending, reason if ending == "failed" else None


__all__ = ["ENDINGS", "GRANT_REACHED_TOLERANCE_S", "TIMED_OUT_MARK", "UNRECORDED", "ending_of", "ending_outcome",
           "leg_timed_out", "payload_timed_out", "stored_ending"]
