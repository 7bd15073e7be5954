"""Plumbing traces: runs read from a trace whose every step is an instrumentation's plumbing.

A trace of session plumbing alone (OpenLIT's ``mcp session/init``, the ``mcp`` SDK's span of a notification received
outside any request, Logfire's "Found propagated trace context" warning: :mod:`inspector.traces.session_plumbing`)
is a run as every trace is: nothing of a file is dropped, and its export gives its spans back. But it is no agent's
run, and a session makes many (nine beside one agent's run with OpenLIT on ``mcp`` 2.x), so ``runs list`` leaves
them out unless ``--all`` asks for them, and says how many it left out.

A run is one when it was imported or received (``source = 'imported'``), has a step, and every step is a
``request`` whose payload marks it ``raw.otlp.plumbing``. The steps so marked are in the index ``steps_plumbing``
(schema version 13; since 17 it selects the request steps whose payload mentions plumbing by the column
``mentions_plumbing``, :mod:`.payload_mentions`; its condition :data:`PLUMBING_STEP` word for word, which lets SQLite
use it): a run is one when it has such a step and as many of them as steps. An agent's run has none, and is answered
by a look into the index, no payload read (25,000 runs of the fixtures' traces, 9,625 of them plumbing traces,
counted in 0.09 s at a load of 8 on 2 cores; reading each run's first payload took 0.3-0.4 s).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

__all__ = ["NOT_PLUMBING_TRACE", "PLUMBING_STEP", "PLUMBING_TRACE", "plumbing_traces_among",
           "without_plumbing_traces"]

#: SQL true for a step (of the table ``steps``, its columns unqualified) that is plumbing: the condition of the
#: index ``steps_plumbing``, word for word (a payload that is not JSON is no plumbing: kept, never hidden).
PLUMBING_STEP = ("mentions_plumbing = 1"
                 " AND (CASE WHEN json_valid(payload) THEN json_extract(payload, '$.raw.otlp.plumbing') END) IS 1")

#: SQL true for a run (the table ``runs``) that is a plumbing trace.
PLUMBING_TRACE = (
    f"(runs.source = 'imported' AND EXISTS (SELECT 1 FROM steps WHERE steps.run_id = runs.id AND {PLUMBING_STEP})"
    f" AND (SELECT COUNT(*) FROM steps WHERE steps.run_id = runs.id AND {PLUMBING_STEP})"
    " = (SELECT COUNT(*) FROM steps WHERE steps.run_id = runs.id))")
#: SQL true for every other run.
NOT_PLUMBING_TRACE = f"NOT {PLUMBING_TRACE}"


def plumbing_traces_among(conn: sqlite3.Connection, run_ids: Sequence[int]) -> set[int]:
    """Which of these runs are plumbing traces (the runs of an import, a range of ids, asked by their range)."""
    if not run_ids:
        return set()
    if isinstance(run_ids, range) and run_ids.step == 1:
        rows = conn.execute(f"SELECT runs.id FROM runs WHERE runs.id BETWEEN ? AND ? AND {PLUMBING_TRACE}",
                            (run_ids[0], run_ids[-1]))
    else:  # each id looked up by the key
        rows = conn.execute(f"SELECT runs.id FROM json_each(?) AS wanted JOIN runs ON runs.id = wanted.value"
                            f" WHERE {PLUMBING_TRACE}", [json.dumps(list(run_ids))])
    return {row[0] for row in rows}


def without_plumbing_traces(conn: sqlite3.Connection, run_ids: Sequence[int]) -> tuple[list[int], int]:
    """These runs (a search's list: ``runs list --search``, the window's Runs search) without the plumbing traces
    among them, in their order, and how many those were."""
    hidden = plumbing_traces_among(conn, run_ids)
    return [run_id for run_id in run_ids if run_id not in hidden], len(hidden)
