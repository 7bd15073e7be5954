"""What a reader sees of a step's stored sentences, for Find.

A step stores our sentences in English (an imported step's "timed out: …", "no outcome recorded: …",
a cancel's sentence), each beside its template (``wording``; the trace importer's notes in
``raw.otlp``); the window says them in the reader's language (the Details column, the Result tab,
the band on how the two sides disagree), and the Details column says a cancelled call's note, which
is not stored, in the reader's language (:func:`cancel_notes_holding`). Find looks in the stored text as it is
(:mod:`inspector.store.find_text`) and, in another language than English, also in these sentences
as the reader sees them: :func:`said_holds`, called by SQLite only for a step whose payload keeps a
template and that the stored text did not already match.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from . import translated_texts
from .details import TRANSLATED_DETAILS, disagreement_said, stored_text_said
from .find_shown import shown_words_hold
from .folding import fold

#: The parts of a step's payload its sentences are said from, as ``json_extract`` paths, in the order
#: :func:`said_holds` reads them.
SAID_PATHS = ("$.toolResult", "$.content", "$.wording", "$.raw.otlp.notes", "$.raw.otlp.server.notes",
              "$.raw.otlp.disagreement", "$.raw.otlp.outcomeNote")


#: A placeholder in a translation, and a word of a needle worth looking for among a translation's words.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"\w{3,}")


def may_be_said(needle: str) -> bool:
    """Whether ``needle`` may be in one of our sentences as the reader sees them and not in its stored
    English: it is in a translation of the current catalogue (between its placeholders), or one of its
    words (three letters or more) is a word of one ("Zeitüberschreitung: TimeoutError"). False in
    English (no catalogue), and for most text a server wrote, so Find then costs what it did."""
    folded = fold(needle.strip())
    if not folded:
        return False
    fragments, words = _said_words(translated_texts())
    return any(folded in fragment for fragment in fragments) or not words.isdisjoint(_WORD.findall(folded))


@lru_cache(maxsize=4)
def _said_words(texts: tuple[str, ...]) -> tuple[tuple[str, ...], frozenset[str]]:
    fragments = tuple(fragment for text in texts for fragment in _PLACEHOLDER.split(fold(text)) if fragment)
    return fragments, frozenset(word for fragment in fragments for word in _WORD.findall(fragment))


def cancel_notes_holding(needle: str) -> tuple[bool, ...]:
    """Which of the Details column's notes on a cancelled call hold ``needle`` as the reader sees them
    (in any language, and in English as whole words: the notes are not stored): ``True`` for "cancelled
    in flight (…)", ``False`` for "cancelled before the request was sent", the value of the step's
    ``cancelledInFlight``."""
    notes = ((True, TRANSLATED_DETAILS.cancelled_in_flight), (False, TRANSLATED_DETAILS.cancelled_before_send))
    return tuple(in_flight for in_flight, say in notes if shown_words_hold(needle, say))


def said_holds(parts: Any, needle: Any) -> int:
    """1 when the step's sentences as the reader sees them hold ``needle`` (already case-folded),
    else 0; ``parts`` is the JSON array of the payload's :data:`SAID_PATHS` (``json_extract`` with
    several paths)."""
    if not isinstance(needle, str) or not needle:
        return 0
    return int(any(needle in fold(text) for text in sentences_said(parts)))


def sentences_said(parts: Any) -> list[str]:
    """A step's sentences as the reader sees them (none: ``[]``), from the JSON array of its payload's
    :data:`SAID_PATHS`."""
    if not isinstance(parts, str):
        return []
    try:
        result, content, wording, notes, server_notes, disagreement, together = json.loads(parts)
    except (ValueError, TypeError, RecursionError):
        return []
    otlp = {"notes": notes, "server": {"notes": server_notes}, "disagreement": disagreement, "outcomeNote": together}
    payload = {"toolResult": result, "content": content, "wording": wording, "raw": {"otlp": otlp}}
    try:
        said = [stored_text_said(text, payload) for text in (result, content) if isinstance(text, str)]
        said.append(disagreement_said(payload))
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):  # a note of a shape we do not say
        return []
    return [text for text in said if isinstance(text, str) and text]


__all__ = ["SAID_PATHS", "cancel_notes_holding", "may_be_said", "said_holds", "sentences_said"]
