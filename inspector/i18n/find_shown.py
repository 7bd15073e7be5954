"""What a step shows in words that its payload does not store, for Find: its Outcome ("failed",
"not recorded", "failed: timed out") and the band over a call whose two sides disagree ("The two sides
disagree: …"), in the current language.

The Outcome is said by :func:`inspector.i18n.words.stored_outcome_text` from the step's kind, its stored
outcome and its ending (:func:`inspector.runs.ending.stored_ending`); Find asks that function what it
says of a step of each ending (:data:`ENDING_EXAMPLES`) rather than keeping words of its own, so the
words Find finds are the words the column shows, in any language and after any change of them. The
store turns the endings found into SQL (:mod:`inspector.store.find_outcomes`).

Which words: those shown in the current language, any part of them ("Zeitüber" finds a time-out in
German), and the English ones too, as the command line and an English screenshot say them ("timed
out", "not recorded", "disagree" find the same steps in a German window), but only as whole words
(:func:`english_words_hold`): "out" finds a time-out, "ou" or "tim" do not, so a German word that
happens to be a piece of an English one ("ecor", "ime") finds nothing it does not show.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache, partial
from typing import Any

from inspector.runs.ending import TIMED_OUT_MARK, UNRECORDED
from inspector.runs.leg import Leg

from . import DEFAULT_LANGUAGE, _, current_language, in_english
from .folding import fold
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


def english_words_hold(folded: str, english: str) -> bool:
    """Whether ``folded`` (a case-folded needle) is whole words of ``english``: it begins and ends at the
    edge of a word where it begins or ends with a letter or digit ("timed out", "out", "failed:", not "imed")."""
    if not folded:
        return False
    before = r"(?<!\w)" if re.match(r"\w", folded[0]) else ""
    after = r"(?!\w)" if re.match(r"\w", folded[-1]) else ""
    return re.search(before + re.escape(folded) + after, fold(english)) is not None


def shown_words_hold(needle: str, say: Callable[[], str]) -> bool:
    """Whether ``needle`` is in the words ``say`` says in the current language (any part of them), or
    is whole words of what it says in English (the rule of this module's docstring)."""
    folded = fold(needle.strip())
    if not folded:
        return False
    if folded in fold(say()):
        return True
    return current_language() != DEFAULT_LANGUAGE and english_words_hold(folded, _said_in_english(say))


@cache
def _said_in_english(say: Callable[[], str]) -> str:
    """What ``say`` says in English (the same in every session: said once, the language switched for a
    moment only then)."""
    with in_english():
        return say()


def _ending_words() -> dict[str, Callable[[], str]]:
    """How the Outcome of a tool call of each ending is said (of a stored outcome of another word too)."""
    said: dict[str, Callable[[], str]] = {ending: partial(stored_outcome_text, "tool", *example)
                                          for ending, example in ENDING_EXAMPLES.items()}
    said.update({outcome: partial(stored_outcome_text, "tool", outcome)
                 for outcome in OUTCOMES if outcome not in ENDING_EXAMPLES})
    return said


@cache
def _english_ending_words() -> tuple[tuple[str, str], ...]:
    """Each ending and its Outcome in English (the same in every session: said once)."""
    with in_english():
        return tuple((ending, say()) for ending, say in _ending_words().items())


def outcome_endings_holding(needle: str) -> tuple[str, ...]:
    """The endings of a tool call whose Outcome, as the timeline shows it in the current language, holds
    ``needle`` (any case), or whose English Outcome it is whole words of: "failed" all three kinds of
    failed, "timed out" (or "Zeitüberschreitung") the call that timed out, "not recorded" (or "nicht
    erfasst") the call whose source recorded no outcome; a stored outcome of another word (a run's
    "running", "interrupted") by itself."""
    folded = fold(needle.strip())
    if not folded:
        return ()
    english = dict(_english_ending_words()) if current_language() != DEFAULT_LANGUAGE else {}
    return tuple(ending for ending, say in _ending_words().items()
                 if folded in fold(say()) or english_words_hold(folded, english.get(ending, "")))


#: A placeholder in a sentence.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def disagreement_band_holds(needle: str) -> bool:
    """Whether ``needle`` (any case) is in the words the band over a call whose two sides disagree says
    before its sentence ("The two sides disagree", "Die beiden Seiten widersprechen sich")."""
    return shown_words_hold(needle, _band_words)


def _band_words() -> str:
    """The band's own words, the pieces between its placeholders a line each."""
    return "\n".join(_PLACEHOLDER.split(_("The two sides disagree: {sentence}")))


__all__ = ["ENDING_EXAMPLES", "disagreement_band_holds", "english_words_hold", "outcome_endings_holding",
           "shown_words_hold"]
