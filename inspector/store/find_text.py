"""What Find looks for in a step's stored payload, and how: the SQL condition and its values.

The payload is stored as JSON text. A step's name, result, content, finish reason and note are read
with ``json_extract``, which gives a string unescaped; its arguments (an object) and what a step from
a trace kept of its span (attributes, events, links: :data:`SPAN_TEXT`) are read as JSON text, where
a quote in a value is ``\\"`` and a backslash ``\\\\``. So a value copied from the Attributes table
(``{"city": "Berlin"}``, ``C:\\temp``) is also looked for as JSON writes it.

Case: SQLite's ``lower`` folds ASCII letters only. A needle of ASCII letters is compared with it (in
C, fast: Find runs over every step of a run); a needle with other letters (``Österreich``) with both
sides folded by Python's ``casefold``, so that it is found at all, in any case.
"""

from __future__ import annotations

import json
import sqlite3

#: Paths of the payload read as plain text.
_PLAIN = ("$.toolName", "$.toolResult", "$.content", "$.finishReason", "$.note")
#: What Find reads of a step from a trace: the attributes (keys and values) of its span, resource and
#: scope, its events (names and attributes) and links, and the same of its server side, as one JSON
#: text (``json_extract`` with several paths gives an array of them; absent parts are ``null``).
SPAN_TEXT = ", ".join(f"'$.raw.otlp.{part}'" for part in (
    "attributes", "resource", "scope", "events", "links",
    "server.attributes", "server.resource", "server.scope", "server.events", "server.links"))
#: The SQL function that folds the case of any letter (registered on the connection when needed).
FOLD_FUNCTION = "run_inspector_fold"


def _fold(value: object) -> object:
    return value.casefold() if isinstance(value, str) else value


def find_condition(conn: sqlite3.Connection, text: str, payload: str = "p") -> tuple[str, list[str]]:
    """The SQL condition that a step's payload (the column or alias ``payload``) holds ``text``, and the
    values for its placeholders, in order; ``("0", [])`` for a blank ``text``."""
    needle = text.strip()
    if not needle:
        return "0", []
    if needle.isascii():
        fold, needle = "lower", needle.lower()
    else:
        conn.create_function(FOLD_FUNCTION, 1, _fold, deterministic=True)
        fold, needle = FOLD_FUNCTION, needle.casefold()
    escaped = json.dumps(needle, ensure_ascii=False)[1:-1]
    json_needles = [needle] if escaped == needle else [needle, escaped]

    def holds(expression: str, needles: list[str]) -> str:
        return "(" + " OR ".join(f"instr({fold}({expression}), ?) > 0" for _ in needles) + ")"

    parts = [holds(f"COALESCE(json_extract({payload}, '{path}'), '')", [needle]) for path in _PLAIN]
    parts.append(holds(f"COALESCE(json_extract({payload}, '$.toolArguments'), '')", json_needles))
    parts.append(f"(json_type({payload}, '$.raw.otlp') = 'object' AND "
                 f"{holds(f'json_extract({payload}, {SPAN_TEXT})', json_needles)})")
    return "(" + "\n OR ".join(parts) + ")", [needle] * len(_PLAIN) + json_needles * 2


__all__ = ["FOLD_FUNCTION", "SPAN_TEXT", "find_condition"]
