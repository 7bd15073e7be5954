"""What a step shows in words that its payload does not store, for Find: its Outcome ("failed",
"not recorded", "failed: timed out") and the band over a call whose two sides disagree ("The two sides
disagree: …"), in the current language.

The Outcome is said by :func:`inspector.i18n.words.stored_outcome_text` from the step's kind, its stored
outcome and its ending (:func:`inspector.runs.ending.stored_ending`); Find asks that function what it
says of a step of each ending (:data:`ENDING_EXAMPLES`) rather than keeping words of its own, so the
words Find finds are the words the column shows, in any language and after any change of them. The
store turns the endings found into SQL (:mod:`inspector.store.find_outcomes`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from inspector.runs.ending import TIMED_OUT_MARK, UNRECORDED
from inspector.runs.leg import Leg

from . import _
from .words import OUTCOMES, stored_outcome_text

#: A tool call of each ending, as a stored step keeps it: (stored outcome, legs, payload).
ENDING_EXAMPLES: Mapping[str, tuple[str, Sequence[Leg], Mapping[str, Any] | None]] = {
    "ok": ("ok", (), None),
    "cancelled": ("cancelled", (), None),
    "failed": ("failed", (), None),
    "timed_out": ("failed", (), {"raw": {"otlp": {TIMED_OUT_MARK: True}}}),
    "refused": ("failed", (Leg("tools/call", 1, None, None, Leg.NOT_SENT),), None),
    UNRECORDED: ("", (), None),
}


def outcome_endings_holding(needle: str) -> tuple[str, ...]:
    """The endings of a tool call whose Outcome, as the timeline shows it in the current language, holds
    ``needle`` (any case): "failed" all three kinds of failed, "timed out" (or "Zeitüberschreitung") the
    call that timed out, "not recorded" the call whose source recorded no outcome; a stored outcome of
    another word (a run's "running", "interrupted") by itself."""
    folded = needle.strip().casefold()
    if not folded:
        return ()
    found = [ending for ending, (outcome, legs, payload) in ENDING_EXAMPLES.items()
             if folded in stored_outcome_text("tool", outcome, legs, payload).casefold()]
    found += [outcome for outcome in OUTCOMES if outcome not in ENDING_EXAMPLES
              and folded in stored_outcome_text("tool", outcome).casefold()]
    return tuple(found)


#: A placeholder in a sentence.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def disagreement_band_holds(needle: str) -> bool:
    """Whether ``needle`` (any case) is in the words the band over a call whose two sides disagree says
    before its sentence ("The two sides disagree", "Die beiden Seiten widersprechen sich")."""
    folded = needle.strip().casefold()
    band = _("The two sides disagree: {sentence}").casefold()
    return bool(folded) and any(folded in fragment for fragment in _PLACEHOLDER.split(band))


__all__ = ["ENDING_EXAMPLES", "disagreement_band_holds", "outcome_endings_holding"]
