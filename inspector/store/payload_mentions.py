"""What a step's payload mentions, kept beside it: the columns the partial indexes of notes and plumbing select on.

The index of the steps with a note (``steps_with_note``) and that of the plumbing steps (``steps_plumbing``) chose
their rows by the payload's text, ``instr(payload, '"note":')`` and ``instr(payload, '"plumbing"')``, which SQLite
evaluated over every payload written: 0.66 billion instructions (6.7%) of an import's thread of 20,000 spans, a
byte compare at each place of each 1.6 to 2 KB payload. Since schema version 17 the same two tests are columns of
the step, ``mentions_note`` and ``mentions_plumbing`` (1 or 0), which the indexes select on:

- the writer of a new step (:meth:`RunStore.insert_step`, :meth:`RunStore.insert_step_rows`) sets them from the
  payload's text it holds (:func:`payload_mentions`: Python's search of a string, a fraction of SQLite's cost);
- a payload or kind changed afterwards (a note written or removed, a step written over by a joined call, an
  upgrade's marks) sets them again through the trigger ``steps_mentions``, by the same tests in SQL;
- the upgrade to version 17 (:func:`mention_in_columns`) sets them from every stored payload once, by the old
  indexes' tests, in the upgrade's one transaction, and makes the indexes anew on the columns.

A column says what the text mentions, as the index's test did: a step whose payload merely holds the words is
selected too, and the readers check its note or its mark (as before).
"""

from __future__ import annotations

import sqlite3

__all__ = ["NOTE_WORDS", "PLUMBING_WORDS", "mention_in_columns", "payload_mentions"]

#: The text a payload holds when it has a note (compact JSON, as every writer of a payload makes it).
NOTE_WORDS = '"note":'
#: The text a payload holds when its span (or its server side) is marked plumbing.
PLUMBING_WORDS = '"plumbing"'

#: The columns set again whenever a step's payload or kind is written over, by the tests :func:`payload_mentions`
#: makes.
_TRIGGER = (
    "CREATE TRIGGER IF NOT EXISTS steps_mentions AFTER UPDATE OF kind, payload ON steps BEGIN"
    f" UPDATE steps SET mentions_note = instr(NEW.payload, '{NOTE_WORDS}') > 0,"
    f" mentions_plumbing = NEW.kind = 'request' AND instr(NEW.payload, '{PLUMBING_WORDS}') > 0"
    " WHERE id = NEW.id; END")
#: The steps' columns, filled from the stored payloads, and the indexes on them in place of those on the text.
#: (A database set back to an older version has them already: made anew, nothing is asked twice.)
_FILL = (
    f"UPDATE steps SET mentions_note = 1 WHERE instr(payload, '{NOTE_WORDS}') > 0",
    f"UPDATE steps SET mentions_plumbing = 1 WHERE kind = 'request' AND instr(payload, '{PLUMBING_WORDS}') > 0",
    "DROP INDEX IF EXISTS steps_with_note",
    "DROP INDEX IF EXISTS steps_plumbing",
    "CREATE INDEX steps_with_note ON steps (run_id) WHERE mentions_note = 1",
    "CREATE INDEX steps_plumbing ON steps (run_id) WHERE mentions_plumbing = 1"
    " AND (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.raw.otlp.plumbing') END) IS 1",
    _TRIGGER)


def payload_mentions(kind: str, payload: str) -> tuple[bool, bool]:
    """Whether a step's payload (its JSON text) mentions a note, and whether a request step's mentions plumbing."""
    return NOTE_WORDS in payload, kind == "request" and PLUMBING_WORDS in payload


def mention_in_columns(conn: sqlite3.Connection) -> None:
    """Schema version 17: the columns added and filled from every stored payload, the two indexes made on them and
    the trigger that keeps them (run inside the upgrade's transaction)."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(steps)")}
    for column in ("mentions_note", "mentions_plumbing"):
        if column not in columns:
            conn.execute(f"ALTER TABLE steps ADD COLUMN {column} INTEGER NOT NULL DEFAULT 0")
    for statement in _FILL:
        conn.execute(statement)
