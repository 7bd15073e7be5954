"""A failed run the model got over: how many of its tool calls failed, when its model still answered.

A run with a failed call is a failed run (seed ADR-191), also when the model carried on and gave its
answer (the ``flaky-server`` scenario). Every place that shows such a run's status says why beside
it, with these counts: the Play tab, the Runs tab's list and its heading over the timeline, ``runs
show``, ``runs list`` and ``scenario``.

A failed run read from a trace says why in the same shape where its trace tells it: how many of its
tool calls failed (:func:`run_reason`; ``runs list`` and the window's Runs list ask for a page of runs
at once, :func:`page_reasons`, with a query for the page, not one per run). A tool span that wraps
another of the same tool (FastMCP's ``tools/call`` over its ``MCP send``) is one call, counted once:
the outer span, which the importer gave the inner call's ending. Under a tool span of another tool, the
call is one of its own (the importer left the outer its own outcome), counted too. A plumbing span between
them (OpenLIT's over the ``mcp`` SDK's call) and a server side joined to a call's step (Splunk's server span,
FastMCP's under it) stand for the call above them (:func:`_bridged`).

Any other failed run whose tool calls failed (a call in the Workbench or ``run-inspector call``, a scenario
or an agent's run that stopped at its failure) says why in the same words, from its stored steps: read from
the trace it was exported to, it reads the same. Where every failed call ended the same known way (timed out,
not sent: :func:`inspector.store.failure_kinds.failure_kinds`, as each step's Outcome cell says it), the reason
names it: "failed (the tool call timed out)".

An ok run whose tool calls (counted so) include some with no outcome recorded says how many, in the same
shape: "ok (the tool call has no outcome recorded)" (kind :data:`UNRECORDED`): a trace's call whose client
stopped waiting and recorded no error (an agent's run its caller cancelled) leaves the run ok.

A cancelled call is never a failed one, and is said apart where a reason is said: "failed (2 of 4 tool calls
failed, 1 cancelled)"; so is a failed run's call with no outcome recorded, in its Outcome cell's words: "failed
(2 of 9 tool calls failed, 6 not recorded)" (the mcp SDK's client records nothing of a call it stopped waiting
for: "2 of 9 tool calls failed" alone read as if the other 7 had worked); an ok run some of whose calls were
cancelled says so: "ok (1 of 3 tool calls cancelled)". A failed run none of whose calls failed, and a cancelled
run, say no reason (their cancelled calls are not why)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .checked_payloads import read_payloads
from .failure_kinds import failure_kinds
from .run_store import RunRecord, RunStore

#: The kind of an ok run's reason: some of its tool calls have no outcome recorded (an imported trace's
#: call its client stopped waiting for, and recorded no error: a cancel, or a client that gave up).
UNRECORDED = "unrecorded"


@dataclass(frozen=True, slots=True)
class Recovery:
    """``failed`` of the run's ``calls`` tool calls failed, and (``answered``) the model still gave its
    answer; a run that stopped at its failure says only the counts (``answered`` false). ``kind``: how
    every failed call ended, where its stored steps tell it ("timed_out", "refused"), else ``None``.
    ``cancelled``: how many of the calls were cancelled (never counted as failed; said apart);
    ``unrecorded``: how many of a failed run's calls have no outcome recorded (said apart too)."""

    failed: int
    calls: int
    answered: bool = True
    kind: str | None = None
    cancelled: int = 0
    unrecorded: int = 0

    def said(self) -> tuple[int, int, bool, str | None, int, int]:
        """What :func:`inspector.i18n.recovery.recovery_text` takes."""
        return self.failed, self.calls, self.answered, self.kind, self.cancelled, self.unrecorded


#: Of some runs (a JSON array of their ids), those whose last step is a model's answer (a model's step that
#: asked for no tool call and did not fail), with how many tool calls each made, how many failed, were cancelled
#: and have no outcome recorded (a trace's agent that answered after calls its client recorded nothing of): a
#: page of runs in one query, each run's last step found by its (run, sequence) index.
_ANSWERED = """
WITH listed(run_id) AS (SELECT value FROM json_each(?)),
last AS (
    SELECT listed.run_id, steps.kind,
           CASE WHEN json_valid(steps.payload) THEN json_extract(steps.payload, '$.finishReason') END AS finish,
           CASE WHEN json_valid(steps.payload)
                THEN json_array_length(steps.payload, '$.requestedToolCalls') END AS asked
    FROM listed JOIN steps ON steps.id = (
        SELECT id FROM steps WHERE steps.run_id = listed.run_id ORDER BY sequence DESC LIMIT 1))
SELECT last.run_id, COUNT(*), COALESCE(SUM(tools.outcome = 'failed'), 0), COALESCE(SUM(tools.outcome = 'cancelled'), 0),
       COALESCE(SUM(tools.outcome = ''), 0)
FROM last JOIN steps AS tools ON tools.run_id = last.run_id AND tools.kind = 'tool'
WHERE last.kind = 'llm' AND last.finish IS NOT 'error' AND NOT COALESCE(last.asked, 0)
GROUP BY last.run_id
"""


def recovery_of(store: RunStore, run: RunRecord) -> Recovery | None:
    """The failed calls of ``run`` when it is failed and its model still answered; ``None`` otherwise
    (a run that is not failed, one that stopped at its failure, one with no model)."""
    return _answered(store, [run.id]).get(run.id) if run.status == "failed" else None


def _answered(store: RunStore, run_ids: Sequence[int]) -> dict[int, Recovery]:
    """:func:`recovery_of` of each of these runs (failed ones) that its model got over."""
    if not run_ids:
        return {}
    rows = store.db.conn.execute(_ANSWERED, (json.dumps(list(run_ids)),)).fetchall()
    return {run_id: Recovery(failed, calls, cancelled=cancelled, unrecorded=unrecorded)
            for run_id, calls, failed, cancelled, unrecorded in rows if failed}


#: The tool steps of some runs, counted in SQL where their spans cannot change the count, listed where they
#: can. Only a call whose parent span is another tool call's span (*linked*) can be left out (a wrapper's
#: inner call), and only the calls whose span is a linked call's own or its parent's decide whether it is
#: (the tool each names, the cycles they go round in): those, and the linked calls, are listed in order
#: (run, span/parent/tool/server side/side as found, sequence, outcome) for :func:`_counted`; every other call
#: is counted as it is, a run's in one row (a run of 60,000 calls under an agent's span hands Python one row,
#: not 60,000). Each payload is parsed once. SQL matches the values as found (a number or an object too), so
#: it may list more calls than needed, never fewer; :func:`_spans` keeps only strings, as before. ``listed``
#: asks ``IN near`` where a NULL counts as no (``CASE WHEN``): asked for its value (``COALESCE(... IN near,
#: 0)``), SQLite tells a NULL from a no by scanning ``near`` at each call not in it (its columns may hold a
#: NULL): work of the square of the wrapped calls (20,000 took 93 s, now 0.8 s: benchmarks/README.md, 22).
#:
#: A call may also be under another through a *bridge* (:func:`_bridged`): a plumbing span (OpenLIT's ``mcp
#: transport/request`` between its ``mcp tools/call`` and the ``mcp`` SDK's call under it), or the server side
#: joined to a call's step (Splunk's server span, with FastMCP's server span under it). Every call of a run
#: with a call under a bridge is listed, with the run's plumbing spans (rows whose last column is
#: ``'plumbing'``); the plumbing steps are looked for only in runs with a call whose parent is no tool call's
#: span (an agent's span, or a bridge), and found by their text before they are parsed.
_TOOL_CALLS = """
WITH called AS (
    SELECT run_id, sequence, outcome,
           json_extract({payload}, '$.raw.otlp.spanId', '$.raw.otlp.parentSpanId', '$.toolName',
                        '$.raw.otlp.server.spanId', '$.raw.otlp.side') AS marks
    FROM steps WHERE run_id IN ({runs}) AND kind = 'tool'),
spans AS (
    SELECT run_id, sequence, outcome, marks, json_extract(marks, '$[0]') AS span, json_extract(marks, '$[1]') AS parent,
           json_extract(marks, '$[3]') AS server
    FROM called),
linked AS (
    SELECT run_id, span, parent FROM spans WHERE (run_id, parent) IN (SELECT run_id, span FROM spans)),
near AS (
    SELECT run_id, span FROM linked WHERE span IS NOT NULL UNION SELECT run_id, parent FROM linked),
unlinked AS (
    SELECT DISTINCT run_id FROM spans WHERE parent IS NOT NULL
        AND CASE WHEN (run_id, parent) IN (SELECT run_id, span FROM spans WHERE span IS NOT NULL) THEN 0 ELSE 1 END),
plumbing AS (
    SELECT run_id, json_extract({payload}, '$.raw.otlp.spanId', '$.raw.otlp.parentSpanId') AS marks
    FROM steps WHERE run_id IN unlinked AND kind = 'request' AND instr(payload, '"plumbing"') > 0
        AND json_extract({payload}, '$.raw.otlp.plumbing') IS 1),
bridges AS (
    SELECT run_id, span FROM (SELECT run_id, json_extract(marks, '$[0]') AS span FROM plumbing) WHERE span IS NOT NULL
    UNION SELECT run_id, server FROM spans WHERE server IS NOT NULL),
bridged AS (
    SELECT DISTINCT run_id FROM spans WHERE (run_id, parent) IN bridges),
sorted AS (
    SELECT run_id, sequence, outcome, marks,
           CASE WHEN run_id IN bridged OR (run_id, parent) IN near OR (run_id, span) IN near THEN 1 ELSE 0 END
           AS listed
    FROM spans)
SELECT run_id, NULL, COUNT(*), COALESCE(SUM(outcome = {counted}), 0), COALESCE(SUM(outcome = 'cancelled'), 0),
       COALESCE(SUM(outcome = ''), 0)
FROM sorted WHERE NOT listed GROUP BY run_id
UNION ALL
SELECT run_id, marks, sequence, outcome, NULL, NULL FROM (SELECT * FROM sorted WHERE listed ORDER BY run_id, sequence)
UNION ALL
SELECT run_id, marks, NULL, NULL, NULL, 'plumbing' FROM plumbing WHERE run_id IN bridged
"""
#: A tool step: its outcome, span, parent span and tool.
_Call = tuple[str, str | None, str | None, str | None]
#: A tool step as listed: its outcome, span, parent span, tool, its joined server side's span and its side.
_Listed = tuple[str, str | None, str | None, str | None, str | None, str | None]


#: The outcomes :func:`failed_calls` counts, as SQL (a constant: never a value from a file).
_COUNTED = {"failed": "'failed'", UNRECORDED: "''"}


def failed_calls(store: RunStore, run_ids: Sequence[int], outcome: str = "failed", *,
                 cancelled: bool = False) -> dict[int, Recovery]:
    """How many tool calls failed, of how many, in each of these runs (read from a trace or made here; one
    query a few hundred runs: a page of ``runs list`` costs no query per run); a run none of whose calls
    failed is left out. ``outcome``: :data:`UNRECORDED` counts the calls with no outcome recorded instead
    (kind :data:`UNRECORDED`). Each counts its cancelled calls too, and counting the failed ones, those with no
    outcome recorded; ``cancelled``: a run with cancelled calls and none counted is kept too (``failed`` 0)."""
    counted: dict[int, list[int]] = {}
    near: dict[int, list[_Listed]] = {}
    plumbing: dict[int, dict[str, str]] = {}
    ids = list(run_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        for run_id, marks, calls_or_sequence, failed_or_outcome, cancels, blanks in _tool_calls(
                store, chunk, _COUNTED[outcome]):
            if marks is None:  # the calls no span can leave out: how many, how many failed, cancelled, unrecorded
                total = counted.setdefault(run_id, [0, 0, 0, 0])
                total[0] += calls_or_sequence
                total[1] += failed_or_outcome
                total[2] += cancels
                total[3] += blanks
            elif blanks == "plumbing":  # a plumbing span of a run with a call under a bridge
                span, parent, _tool, _server, _side = _spans(marks, 2)
                if span is not None and parent is not None:
                    plumbing.setdefault(run_id, {}).setdefault(span, parent)
            else:  # a call near a linked one, in order
                near.setdefault(run_id, []).append((failed_or_outcome or "", *_spans(marks)))
    for run_id, steps in near.items():
        outer = _outer(_bridged(steps, plumbing.get(run_id, {})))
        total = counted.setdefault(run_id, [0, 0, 0, 0])
        total[0] += len(outer)
        total[1] += outer.count("failed" if outcome == "failed" else "")
        total[2] += outer.count("cancelled")
        total[3] += outer.count("")
    if outcome == UNRECORDED:  # those are what is counted: nothing to say apart
        return {run_id: Recovery(failed, calls, answered=False, kind=UNRECORDED, cancelled=cancels)
                for run_id, (calls, failed, cancels, _blanks) in counted.items() if failed or (cancelled and cancels)}
    return {run_id: Recovery(failed, calls, answered=False, cancelled=cancels, unrecorded=blanks)
            for run_id, (calls, failed, cancels, blanks) in counted.items() if failed or (cancelled and cancels)}


def _tool_calls(store: RunStore, run_ids: list[int], counted: str) -> list[tuple[Any, ...]]:
    """:data:`_TOOL_CALLS` of these runs: the payloads read as they are, or, if one is not JSON SQLite
    reads, each checked first."""
    runs = ",".join("?" * len(run_ids))
    return read_payloads(lambda payload: store.db.conn.execute(
        _TOOL_CALLS.format(payload=payload, runs=runs, counted=counted), run_ids).fetchall())


def _counted(steps: list[_Call], outcome: str = "failed") -> tuple[int, int]:
    """How many of these tool steps (a run's, in order) ended as ``outcome`` says (failed, or with none
    recorded) and how many are calls of their own."""
    outer = _outer(steps)
    return outer.count("failed" if outcome == "failed" else ""), len(outer)


def _outer(steps: list[_Call]) -> list[str]:
    """The outcomes of those of these tool steps (a run's, in order) that are calls of their own."""
    heads = _cycle_heads(steps)
    tools = {span: tool for _outcome, span, _parent, tool in steps if span is not None}
    # A call under a tool span of the same tool (or of none named) is that span's call: the outer one
    # is counted (the importer gave it the inner call's ending). Under a span of another tool (an
    # agent's tool that called an MCP tool) it is a call of its own, as the importer reads it: the
    # outer keeps its own outcome, so the inner's failure is counted here or nowhere. A span that
    # names itself as its parent, or one where a hostile file's parents go round in a cycle, is under
    # no other: one of each cycle is counted (the span tree shows one as a root).
    return [outcome for outcome, span, parent, tool in steps
            if parent is None or parent not in tools or parent == span or span in heads
            or (tools[parent] is not None and tools[parent] != tool)]


def _cycle_heads(steps: list[_Call]) -> set[str]:
    """One span of each cycle the parents of ``steps`` go round in (the first of it met; a span
    that is its own parent is no cycle here). Walked iteratively: a chain 100,000 spans long is fine."""
    parents: dict[str, str] = {}
    for _outcome, span, parent, _tool in steps:
        if span is not None and parent is not None and parent != span:
            parents.setdefault(span, parent)
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    heads: set[str] = set()
    for _outcome, start, _parent, _tool in steps:
        path: list[str] = []
        span = start
        while span is not None and span in parents and span not in state:
            state[span] = 1
            path.append(span)
            span = parents[span]
        if span is not None and state.get(span) == 1:
            heads.add(span)
        for walked in path:
            state[walked] = 2
    return heads


def _spans(marks: str | None, count: int = 5) -> tuple[str | None, str | None, str | None, str | None, str | None]:
    """A step's span, parent span, tool, joined server side's span and side (``None`` where its payload holds
    no string; ``count``: how many of them ``marks`` holds, the rest ``None``)."""
    try:
        read = json.loads(marks) if marks else None
    except (ValueError, TypeError):
        read = None
    if not isinstance(read, list) or len(read) != count:
        read = []
    values = [value if isinstance(value, str) else None for value in read] + [None] * (5 - len(read))
    return values[0], values[1], values[2], values[3], values[4]


def _bridged(steps: list[_Listed], plumbing: dict[str, str]) -> list[_Call]:
    """A run's listed tool steps with each parent as :func:`_outer` reads it: a call under a *bridge* is under
    the call the bridge stands for, and is that call (its tool read as that call's, whatever it names):

    - under plumbing spans (``plumbing``: span → parent), the span above them: OpenLIT's ``mcp transport/request``
      is the ``mcp`` SDK's ``send_request`` of the call it is under, so the SDK's call under it is OpenLIT's call;
    - a server side under the server side joined to a call's step, that step: Splunk's server span joins the
      call's client side, and FastMCP's server span under it is the same request, served (a call a tool's
      handler makes, a client side, stays a call of its own).

    A hostile file's plumbing that goes round in a cycle ends where it came round; each plumbing span walked
    remembers where the walk ended, so the calls under a chain thousands of spans long walk it once."""
    tools = {span: tool for _outcome, span, _parent, tool, _server, _side in steps if span is not None}
    joined = {server: span for _outcome, span, _parent, _tool, server, _side in steps
              if server is not None and span is not None}
    ends: dict[str, str] = {}
    read: list[_Call] = []
    for outcome, span, parent, tool, _server, side in steps:
        above = parent if parent is None or parent not in plumbing else _through(parent, plumbing, ends)
        if side == "server" and above in joined and joined[above] != span:
            above = joined[above]
        if above != parent and above in tools:
            read.append((outcome, span, above, tools[above]))
        else:
            read.append((outcome, span, parent, tool))
    return read


def _through(parent: str, plumbing: dict[str, str], ends: dict[str, str]) -> str:
    """The span above the plumbing spans ``parent`` starts (``plumbing``: span → parent), ``ends`` remembering
    each walk's end for every span it passed."""
    walked = [parent]
    seen = {parent}
    above = parent
    while (found := ends.get(above, plumbing.get(above))) is not None and found not in seen:
        seen.add(found)
        walked.append(found)
        above = found
    for span in walked[:-1]:
        ends[span] = above
    return above


def run_reason(store: RunStore, run: RunRecord) -> Recovery | None:
    """Why a failed run is failed, where that is known: a run the model got over (:func:`recovery_of`),
    or one whose tool calls failed, whatever its source (``None`` otherwise), with how they failed
    where its stored steps tell it."""
    return page_reasons(store, [run]).get(run.id)


def page_reasons(store: RunStore, runs: Sequence[RunRecord]) -> dict[int, Recovery]:
    """:func:`run_reason` of each of ``runs`` (a page of a list: ``runs list``, the window's Runs list)
    that has one, asked for the page at once: one query for the runs their model got over, one for the
    failed calls of the others, one for how the failed calls ended, one for the ok runs' calls with no
    outcome recorded or cancelled, none per run (each counts the cancelled calls as it goes)."""
    failed = [run for run in runs if run.status == "failed"]
    found = _answered(store, [run.id for run in failed])
    stopped = [run.id for run in failed if run.id not in found]
    found.update(failed_calls(store, stopped) if stopped else {})
    kinds = failure_kinds(store, list(found)) if found else {}
    reasons = {run_id: replace(reason, kind=kinds.get(run_id)) for run_id, reason in found.items()}
    ok = [run.id for run in runs if run.status == "ok"]
    reasons.update(failed_calls(store, ok, UNRECORDED, cancelled=True) if ok else {})
    return reasons


__all__ = ["UNRECORDED", "Recovery", "failed_calls", "page_reasons", "recovery_of", "run_reason"]
