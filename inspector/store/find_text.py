"""What Find looks for in a step's stored payload, and how: the SQL condition and its values.

The payload is stored as JSON text. A step's name, result, content, finish reason and note are read
with ``json_extract``, which gives a string unescaped; its arguments (an object) and what a step from
a trace kept of its span (attributes, events, links: :data:`SPAN_TEXT`) are read as JSON text, where
a quote in a value is ``\\"`` and a backslash ``\\\\``. So a value copied from the Attributes table
(``{"city": "Berlin"}``, ``C:\\temp``) is also looked for as JSON writes it.

Case: SQLite's ``lower`` folds ASCII letters only. A needle of ASCII letters is compared with it (in
C, fast: Find runs over every step of a run); a needle with other letters (``Österreich``) with both
sides folded by :func:`fold` (Python's ``casefold``, accents composed), so that it is found at all, in any
case. An ASCII needle is also compared folded in a step whose payload holds a character that the fold makes ASCII
letters of ("STRASSE" finds "Straße", "istanbul" "İSTANBUL", "file" a PDF's "ﬁle"), as the window's Find compares
the words it shows.

Language: the payload keeps our sentences in English; a reader of another language sees them in
theirs, so Find also looks for the needle in those sentences as they are said
(:mod:`inspector.i18n.find_said`): "Zeitüberschreitung" finds the step that stores "timed out: …".
"""

from __future__ import annotations

import json
import sqlite3

from inspector.i18n.find_said import SAID_PATHS, cancel_notes_holding, may_be_said, said_holds
from inspector.i18n.folding import fold

from .find_outcomes import outcome_condition

#: Paths of the payload read as plain text.
_PLAIN = ("$.toolName", "$.toolResult", "$.content", "$.finishReason", "$.note")
#: What Find reads of a step from a trace: the attributes (keys and values) of its span, resource and
#: scope, its events (names and attributes) and links, and the same of its server side, as one JSON
#: text (``json_extract`` with several paths gives an array of them; absent parts are ``null``).
SPAN_TEXT = ", ".join(f"'$.raw.otlp.{part}'" for part in (
    "attributes", "resource", "scope", "events", "links",
    "server.attributes", "server.resource", "server.scope", "server.events", "server.links"))
#: The SQL function that folds the case of any letter (registered on the connection when needed).
#: The longest text a search looks for (the Runs list's and ``runs list --search``'s, Find's): SQLite refuses a LIKE
#: pattern of over 50,000 bytes ("LIKE or GLOB pattern too complex"), and a character takes up to 4 of them, one
#: escaped (``%``, ``_``, ``\``) 2.
MAX_SEARCH_CHARS = 10_000
FOLD_FUNCTION = "run_inspector_fold"
#: The SQL function that says whether a step's sentences of ours, said in the reader's language, hold
#: the needle (:func:`inspector.i18n.find_said.said_holds`; registered when the needle may be in one).
SAID_FUNCTION = "run_inspector_said_holds"
_SAID_PARTS = ", ".join(f"'{path}'" for path in SAID_PATHS)


def _fold(value: object) -> object:
    return fold(value) if isinstance(value, str) else value


#: The characters other than ASCII's that :func:`fold` makes (partly) ASCII ones, every one of Unicode's: ß and ẞ
#: "ss", İ "i", the ligatures "ff", "fi", "fl", "ffi", "ffl", "st" (a PDF's text), the long s "s", the Kelvin sign
#: "k", "ŉ" "ʼn", "ẚ" "aʾ", the Greek question mark ";" and varia "`". An ASCII needle may be in a text so.
_FOLDED_TO_ASCII = "\u00df\u1e9e\u0130\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06\u017f\u212a\u0149\u1e9a\u037e\u1fef"


def _spelled_otherwise(needle: str) -> tuple[str, ...]:
    """How a text may hold the ASCII ``needle`` (folded) otherwise: the characters (:data:`_FOLDED_TO_ASCII`) whose
    fold a match of it may take letters of, themselves and JSON's escapes of them."""
    return tuple(spelling for character in _FOLDED_TO_ASCII if _overlaps(needle, fold(character))
                 for spelling in dict.fromkeys((character, f"\\u{ord(character):04x}", f"\\u{ord(character):04X}")))


def _holds_any(expression: str, spellings: tuple[str, ...]) -> str:
    """The SQL condition that the text ``expression`` holds one of ``spellings`` (:func:`_spelled_otherwise`), a
    scan in C each: the letters looked for only in a text with a letter other than ASCII's, their escapes only in
    one with an escape (most texts have neither: one or two scans)."""
    letters = [f"instr({expression}, '{spelling}') > 0" for spelling in spellings if "\\" not in spelling]
    escapes = [f"instr({expression}, '{spelling}') > 0" for spelling in spellings if "\\" in spelling]
    held = [f"(length(CAST({expression} AS BLOB)) != length({expression}) AND ({' OR '.join(letters)}))"] * bool(
        letters) + [f"(instr({expression}, '\\u') > 0 AND ({' OR '.join(escapes)}))"] * bool(escapes)
    return "(" + " OR ".join(held) + ")"


def _overlaps(needle: str, folded: str) -> bool:
    """Whether ``needle`` found in a folded text may take some of the letters of ``folded`` there: it holds them,
    they hold it, it ends with their start or starts with their end ("se" in "ße" folded, "xf" in "xﬁ")."""
    return folded in needle or needle in folded or any(
        needle.endswith(folded[:cut]) or needle.startswith(folded[cut:]) for cut in range(1, len(folded)))


def _stored_text_holds(payload: str, fold: str, needle: str) -> tuple[list[str], list[str]]:
    """The conditions that the payload's stored texts (compared after ``fold``) hold ``needle``, one
    per part, and the values of their placeholders."""
    escaped = json.dumps(needle, ensure_ascii=False)[1:-1]
    json_needles = [needle] if escaped == needle else [needle, escaped]

    def holds(expression: str, needles: list[str]) -> str:
        return "(" + " OR ".join(f"instr({fold}({expression}), ?) > 0" for _ in needles) + ")"

    parts = [holds(f"COALESCE(json_extract({payload}, '{path}'), '')", [needle]) for path in _PLAIN]
    parts.append(holds(f"COALESCE(json_extract({payload}, '$.toolArguments'), '')", json_needles))
    parts.append(f"(json_type({payload}, '$.raw.otlp') = 'object' AND "
                 f"{holds(f'json_extract({payload}, {SPAN_TEXT})', json_needles)})")
    return parts, [needle] * len(_PLAIN) + json_needles * 2


def _as_stored(needle: str) -> bool:
    """Whether ``needle`` (ASCII, folded) is in a payload's JSON text wherever a stored text holds it:
    no character JSON escapes, no "ss" (which finds an ß too)."""
    return needle.isascii() and needle.isprintable() and '"' not in needle and "\\" not in needle \
        and "ss" not in needle


def find_condition(conn: sqlite3.Connection, text: str, payload: str = "p",
                   step: str = "steps", say: bool = True, raw: str | None = None) -> tuple[str, list[str]]:
    """The SQL condition that a step's payload (the column or alias ``payload``) holds ``text``, or its
    Outcome or disagreement band shows it (:mod:`.find_outcomes`; ``step``: the table or alias of the
    step's row), and the values for its placeholders, in order; ``("0", [])`` for a blank ``text``.
    ``say=False``: our sentences as the reader sees them are not said here (the window says them once
    a run and a language, with the rest of the steps' shown words: 0.1 ms a step of a trace, each Find).
    ``raw``: the payload's stored text, looked in first (``LIKE``, no copy, no parse) where a stored text
    holding the needle must hold it as written: the search of every run's steps (25,000 runs) reads
    the JSON of only the steps that may hold it."""
    needle = text.strip()
    if not needle:
        return "0", []
    if needle.isascii():
        folding, needle = "lower", needle.lower()
    else:
        conn.create_function(FOLD_FUNCTION, 1, _fold, deterministic=True)
        folding, needle = FOLD_FUNCTION, fold(needle)
    parts, values = _stored_text_holds(payload, folding, needle)
    if raw is not None and _as_stored(needle):
        like = needle.replace("%", "\\%").replace("_", "\\_")
        parts, values = [f"({raw} LIKE ? ESCAPE '\\' AND ({' OR '.join(parts)}))"], [f"%{like}%", *values]
    shown, shown_values = outcome_condition(needle, step=step, payload=payload)
    if shown:  # the words of the Outcome column and the band on the sides, which the payload does not store
        parts.append(f"({shown})")
        values.extend(shown_values)
    spellings = _spelled_otherwise(needle) if folding == "lower" else ()
    if spellings:
        # "strasse" in "Straße", "istanbul" in "İSTANBUL": casefold makes ß "ss" and İ "i", lower() keeps
        # them. Folded by Python, but only in a step whose payload has one at all (a scan in C), so an ASCII
        # needle stays fast.
        conn.create_function(FOLD_FUNCTION, 1, _fold, deterministic=True)
        folded, folded_values = _stored_text_holds(payload, FOLD_FUNCTION, needle)
        # (looked for in the stored text as it is where there is one: ``payload`` may be an expression that
        # checks the JSON each time it is read)
        parts.append(f"({_holds_any(raw or payload, spellings)} AND ({' OR '.join(folded)}))")
        values.extend(folded_values)
    if say and may_be_said(needle):
        # Our sentences as the reader sees them (not in English; only for a needle a translation may
        # hold): asked last, and only of a step that keeps a template, so a step the stored text
        # matched, or one without a sentence of ours, costs no Python call.
        conn.create_function(SAID_FUNCTION, 2, said_holds)
        parts.append(f"(instr({payload}, '\"template\"') > 0 AND "
                     f"{SAID_FUNCTION}(json_extract({payload}, {_SAID_PARTS}), ?))")
        values.append(fold(text.strip()))
    cancels = cancel_notes_holding(needle)
    if cancels:  # the Details column's note on a cancelled call (as step_details says it)
        parts.append(f"(json_extract({payload}, '$.kind') = 'tool' AND json_extract({payload}, '$.toolOutcome') = "
                     f"'cancelled' AND json_type({payload}, '$.toolIsError') IN ('true', 'false') AND "
                     f"json_type({payload}, '$.cancelledInFlight') IN ({', '.join(['?'] * len(cancels))}))")
        values.extend("true" if in_flight else "false" for in_flight in cancels)
    return "(" + "\n OR ".join(parts) + ")", values


def text_holds(conn: sqlite3.Connection, expression: str, text: str) -> tuple[str, list[str]]:
    """The SQL condition that the text ``expression`` holds ``text`` in any case, and its values: ``LIKE``
    (in C), which folds ASCII letters alone; where ``text`` has other letters ("ärger" for "Ärger"), an
    "ss" (which finds an ß) or an "i" (which finds an İ) a text that may hold it otherwise (one with other
    letters; with an ß or an İ) is folded by :func:`fold` too. A text of ASCII letters alone is folded by
    ``LIKE``: 25,000 such titles cost no Python call."""
    needle = text.strip()
    folded = fold(needle)
    spellings = _spelled_otherwise(folded) if needle.isascii() else ()
    if needle.isascii() and not spellings:
        return _like(expression, needle)
    conn.create_function(FOLD_FUNCTION, 1, _fold, deterministic=True)
    in_python = f"instr({FOLD_FUNCTION}({expression}), ?) > 0"
    if needle.isascii():  # "strasse", "istanbul": as LIKE finds it, or folded in a text with an ß or an İ
        others = _holds_any(expression, tuple(spelling for spelling in spellings
                                              if "\\" not in spelling))  # the letters themselves: a plain text
    else:  # a text with a letter other than ASCII's
        others = f"length(CAST({expression} AS BLOB)) != length({expression})"
    if not folded.isascii():  # only a text with such letters may hold it
        return f"(({others}) AND {in_python})", [folded]
    condition, values = _like(expression, folded)  # "straße" folded is "strasse": an ASCII text holds it so
    return f"({condition} OR (({others}) AND {in_python}))", [*values, folded]


def _like(expression: str, needle: str) -> tuple[str, list[str]]:
    """``expression LIKE`` ``needle`` anywhere, its wildcards and escape as typed, and its value."""
    like = needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"{expression} LIKE ? ESCAPE '\\'", [f"%{like}%"]


def steps_holding(conn: sqlite3.Connection, text: str) -> tuple[str, list[str]]:
    """The SQL condition that a run (``runs``) has a step Find would find ``text`` in, and its values:
    one read of the steps for the whole list (a set of run ids), not one per run."""
    condition, values = find_condition(conn, text, step="found", raw="found.payload")
    return ("runs.id IN (SELECT found.run_id FROM (SELECT id, run_id, kind, outcome, payload,"
            " CASE WHEN json_valid(payload) THEN payload ELSE '{}' END AS p FROM steps) AS found"
            f" WHERE {condition})"), values


__all__ = ["FOLD_FUNCTION", "MAX_SEARCH_CHARS", "SAID_FUNCTION", "SPAN_TEXT", "find_condition", "fold",
           "steps_holding", "text_holds"]
