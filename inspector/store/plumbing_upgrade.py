"""Schema version 14: the plumbing marks a step imported before its rule was written would have had.

The importer marks a span that is an instrumentation's plumbing ``raw.otlp.plumbing`` (and a joined call's server
side ``raw.otlp.server.plumbing``); a run whose every step is so marked is a plumbing trace, which ``runs list`` and
the window's Runs list leave out (:mod:`.plumbing_traces`). The rule grew with them (a session's set-up and its
notifications outside a request, Logfire's warning), and a step imported before keeps the marks of its time, which
importing the file again does not change (its runs are there already): openlit.jsonl imported so listed 9 runs
where a fresh import lists 2.

This step asks the importer's own rule of the span every request step keeps
(:func:`inspector.traces.plumbing_mark.missing_marks`: the reading and the rule an import asks of a span, of
what the step kept of it; not a copy), and adds the mark where the rule gives it and the step has none: a ``true`` at
the end of the span's object, written by SQLite's ``json_set`` as a note is (a payload is compact JSON, which it
writes back byte for byte). Nothing else of a payload or of any other table changes, and it runs in the upgrade's
one transaction: a failure leaves the database as it was. The parts of the rule written since such steps were
imported mark request spans alone (a session's set-up, a notification, a log), so only request steps are read:
those whose payload names a kept span (``"otlp"``) and is JSON to SQLite, which writes the mark. 103,680 steps
(58,080 request steps) took 3 s at a load of 9 on 2 cores (benchmarks/plumbing_upgrade.py).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from orjson import JSONDecodeError
from orjson import loads as _orjson_loads

__all__ = ["mark_plumbing_steps"]

#: The request steps whose payload names a kept span and is JSON (their id, payload), by a scan of the table.
_CANDIDATES = ("SELECT id, payload FROM steps WHERE kind = 'request' AND instr(payload, '\"otlp\"') > 0"
               " AND json_valid(payload)")
#: The marks a step gets: its own span's, its server side's (``$.raw.otlp`` and ``$.raw.otlp.server``).
_MARK = "UPDATE steps SET payload = json_set(payload, ?, json('true')) WHERE id IN (SELECT value FROM json_each(?))"
_OWN, _SERVER = "$.raw.otlp.plumbing", "$.raw.otlp.server.plumbing"
_BATCH = 2_000


def mark_plumbing_steps(conn: sqlite3.Connection) -> None:
    """Mark plumbing, as an import now would, every request step's span (and its server side) the rule finds
    plumbing that has no mark: run inside the upgrade's transaction."""
    from inspector.traces.plumbing_mark import missing_marks  # the importer's rule: loaded to upgrade only

    own: list[int] = []
    server: list[int] = []
    for step_id, otlp in _kept_spans(conn):
        marks_own, marks_server = missing_marks(otlp)
        if marks_own:
            own.append(step_id)
        if marks_server:
            server.append(step_id)
    for path, step_ids in ((_OWN, own), (_SERVER, server)):
        for start in range(0, len(step_ids), _BATCH):
            conn.execute(_MARK, (path, json.dumps(step_ids[start:start + _BATCH])))


def _kept_spans(conn: sqlite3.Connection) -> Iterator[tuple[int, Mapping[str, Any]]]:
    """Each candidate step's id and kept span (``raw.otlp``, an object), read in batches."""
    cursor = conn.execute(_CANDIDATES)
    while rows := cursor.fetchmany(_BATCH):
        for step_id, payload in rows:
            raw = _parsed(payload)
            raw = raw.get("raw") if isinstance(raw, dict) else None
            otlp = raw.get("otlp") if isinstance(raw, dict) else None
            if isinstance(otlp, dict):
                yield step_id, otlp


def _parsed(payload: str, parse: Callable[[str], Any] = _orjson_loads) -> Any:
    """The payload's value (``None`` for text that is no JSON to Python): orjson's parse, or the standard library's
    where orjson refuses (an integer beyond 64 bits, nesting deeper than it reads)."""
    try:
        return parse(payload)
    except JSONDecodeError:
        try:
            return json.loads(payload)
        except (ValueError, RecursionError):
            return None
