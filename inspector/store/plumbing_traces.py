"""Plumbing traces: runs read from a trace whose every step is an instrumentation's plumbing.

A trace of session plumbing alone (OpenLIT's ``mcp session/init``, the ``mcp`` SDK's span of a notification received
outside any request, Logfire's "Found propagated trace context" warning: :mod:`inspector.traces.session_plumbing`)
is a run as every trace is: nothing of a file is dropped, and its export gives its spans back. But it is no agent's
run, and a session makes many (nine beside one agent's run with OpenLIT on ``mcp`` 2.x), so ``runs list`` leaves
them out unless ``--all`` asks for them, and says how many it left out.

A run is one when it was imported or received (``source = 'imported'``), has a step, and every step is a
``request`` whose payload marks it ``raw.otlp.plumbing``. The question stops at a run's first step that is not:
an agent's run answers at once (its second or third step is a tool or a model call).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

__all__ = ["NOT_PLUMBING_TRACE", "PLUMBING_TRACE", "plumbing_traces_among"]

#: A step that is not plumbing (another kind, no mark, or a payload that is not JSON: kept, never hidden).
_NOT_PLUMBING_STEP = (
    "steps.kind != 'request' OR instr(steps.payload, '\"plumbing\"') = 0"
    " OR (CASE WHEN json_valid(steps.payload) THEN json_extract(steps.payload, '$.raw.otlp.plumbing') END) IS NOT 1")

#: SQL true for a run (the table ``runs``) that is a plumbing trace.
PLUMBING_TRACE = (
    "(runs.source = 'imported' AND EXISTS (SELECT 1 FROM steps WHERE steps.run_id = runs.id)"
    f" AND NOT EXISTS (SELECT 1 FROM steps WHERE steps.run_id = runs.id AND ({_NOT_PLUMBING_STEP})))")
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
