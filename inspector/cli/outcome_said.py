"""An operation's outcome at the terminal in the window's words: ``call``, ``tools``, ``ping`` and ``replay``
head their report with what the step's Outcome cell says of it ("failed: timed out", "failed: not sent",
"failed" for a tool error), by the one rule of :mod:`inspector.runs.ending`, and their error line names the
kind of failure in those words ("Error (timed out): …"); the error's stable code stays in ``--json``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from inspector.i18n import _
from inspector.i18n.words import failure_word, outcome_text
from inspector.runs.ending import ending_of, ending_outcome, leg_timed_out
from inspector.runs.leg import Leg


def report_outcome(report: Mapping[str, Any]) -> str:
    """The report's outcome as the window's Outcome cell says its step: a failure that timed out or was never
    sent says so after "failed", whether the error's kind or the legs tell it; any other outcome its word."""
    error = report.get("error") or {}
    legs = report.get("legs") or ()
    ending = ending_of(
        report["outcome"], error_kind=error.get("kind"),
        not_sent=any(leg.get("outcome") == Leg.NOT_SENT for leg in legs),
        timed_out=any(leg_timed_out(leg.get("outcome"), leg.get("granted_s"),
                                    None if leg.get("elapsed_ms") is None else leg["elapsed_ms"] / 1000)
                      for leg in legs))
    return outcome_text(*ending_outcome(ending))


def error_line(kind: str, message: str) -> str:
    """The error's line: its kind of failure in the window's words, then its sentence; a cancel, the user's
    own act, is never headed as a fault (ADR-191)."""
    if kind == "cancelled":
        return _("Cancelled: {message}").format(message=message)
    return _("Error ({kind}): {message}").format(kind=failure_word(kind), message=message)


__all__ = ["error_line", "report_outcome"]
