"""A chain of tool spans of one tool, each wrapping the next (a stranger's file may make it thousands
long), the innermost failed: each outer step names the call it wraps once and the innermost cause,
so a step's payload does not grow with the chain (it held every inner step's sentence again, each
with its words and its template's values: 100 spans stored 19 MB, 200 spans 144 MB, and from about 250
the import stopped on its own recursion), nor with the cause's length past its first wrapper. The chain
is written innermost first and outermost first (then each tool span waits in the importer's tables for
the step under it, and before, each was made inside the one made before it: 200 deep was too deep)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import said_in_german

TRACE = "ab" * 16
T0 = 1_796_421_870_000_000_000
CAUSE = "failed: upstream 503"
ORDERS = ["innermost-first", "outermost-first"]


def span_id(depth: int) -> str:
    return f"{depth + 1:016x}"


def chain_file(to: Path, length: int, order: str, message: str = "upstream 503") -> Path:
    """``length`` client spans ``tools/call echo`` (``mcp.method.name`` tools/call, ``gen_ai.tool.name``
    echo), each the parent of the next; the innermost ends with an error (``message``), the others
    recorded none."""
    spans = []
    for depth in range(length):
        attributes: list[dict[str, Any]] = [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
                                            {"key": "gen_ai.tool.name", "value": {"stringValue": "echo"}}]
        span: dict[str, Any] = {"traceId": TRACE, "spanId": span_id(depth), "name": "tools/call echo", "kind": 3,
                                "startTimeUnixNano": str(T0 + depth * 1000),
                                "endTimeUnixNano": str(T0 + 10**9 - depth * 1000), "attributes": attributes,
                                "status": {}}
        if depth:
            span["parentSpanId"] = span_id(depth - 1)
        if depth == length - 1:
            span["status"] = {"code": 2, "message": message}
            attributes.append({"key": "error.type", "value": {"stringValue": "tool_error"}})
        spans.append(span)
    if order == "innermost-first":
        spans.reverse()
    document = {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name",
                                                                 "value": {"stringValue": "agent"}}]},
                                   "scopeSpans": [{"scope": {"name": "chain"}, "spans": spans}]}]}
    to.write_text(json.dumps(document) + "\n", encoding="utf-8")
    return to


def imported(tmp_path: Path, length: int, order: str, message: str = "upstream 503") -> tuple[RunStore, int]:
    """The chain imported into a fresh database file, and the length of its largest stored payload."""
    store = RunStore.open(str(tmp_path / f"chain-{length}-{order}.db"))
    import_trace(store, chain_file(tmp_path / f"chain-{length}-{order}.jsonl", length, order, message))
    (steps, failed, largest), = store.db.conn.execute(
        "SELECT COUNT(*), SUM(outcome = 'failed'), MAX(length(payload)) FROM steps").fetchall()
    assert steps == failed == length
    return store, largest


@pytest.mark.parametrize("order", ORDERS)
def test_a_2000_long_chain_stores_no_payload_over_2_kb(tmp_path: Path, order: str) -> None:
    """Before: a RecursionError (and 2.1 MB for the largest payload of a chain of 200)."""
    store, largest = imported(tmp_path, 2000, order)
    try:
        assert largest < 2048
        (total,), = store.db.conn.execute("SELECT SUM(length(payload)) FROM steps").fetchall()
        assert total < 2000 * 2048
    finally:
        store.close()


@pytest.mark.parametrize("order", ORDERS)
def test_a_chain_twice_as_long_has_payloads_no_larger_but_for_its_numbers(tmp_path: Path, order: str) -> None:
    """50 and 100 deep (short enough for the import before the fix to finish): the largest payload of
    the longer chain is larger only by the digits of its step numbers, not by 50 more sentences."""
    sizes = []
    for length in (50, 100):
        store, largest = imported(tmp_path, length, order)
        store.close()
        sizes.append(largest)
    assert sizes[1] <= sizes[0] + 16


@pytest.mark.parametrize("order", ORDERS)
def test_each_outer_step_names_the_call_it_wraps_and_the_innermost_cause(tmp_path: Path, order: str) -> None:
    store, _ = imported(tmp_path, 3, order)
    try:
        (run,) = store.list_runs(limit=None)
        steps = {step.payload["raw"]["otlp"]["spanId"]: step for step in store.iter_steps(run.id)}
    finally:
        store.close()
    inner, middle, outer = (steps[span_id(depth)] for depth in (2, 1, 0))
    assert inner.payload["toolResult"] == CAUSE + "\nthe tool reported an error (error.type tool_error)"
    for step, wraps in ((middle, inner), (outer, middle)):
        said = (f"failed in the call it wraps (step {wraps.sequence}, span {wraps.payload['raw']['otlp']['spanId']}): "
                f"{CAUSE}; this span recorded no error of its own")
        assert step.outcome == "failed" and step.payload["toolIsError"] is True
        assert step.payload["toolResult"] == said
        assert step.payload["raw"]["otlp"]["outcomeNote"]["text"] == said
    note = outer.payload["raw"]["otlp"]["outcomeNote"]
    assert note["params"]["what"]["text"] == CAUSE
    assert said_in_german(note) == (
        f"fehlgeschlagen im Aufruf, den er umschließt (Schritt {middle.sequence}, Span {span_id(1)}): "
        f"{said_in_german(note['params']['what'])}; dieser Span zeichnete selbst keinen Fehler auf")


@pytest.mark.parametrize("order", ORDERS)
def test_a_long_cause_is_said_whole_by_its_call_and_first_wrapper_and_clipped_above(tmp_path: Path,
                                                                                   order: str) -> None:
    """The innermost span's error text is 100,000 characters: its step and the step wrapping it say it
    whole (as any wrapper of a call does); the steps above say its first 299 and an ellipsis. Before, each
    of the 200 steps said it whole, several times over: 100 MB from a file of 170 KB."""
    long = "upstream 503: " + "x" * 99_986
    store, largest = imported(tmp_path, 200, order, long)
    try:
        sizes = [size for (size,) in store.db.conn.execute("SELECT length(payload) FROM steps ORDER BY 1 DESC")]
        (run,) = store.list_runs(limit=None)
        steps = {step.payload["raw"]["otlp"]["spanId"]: step for step in store.iter_steps(run.id)}
    finally:
        store.close()
    assert len(sizes) == 200 and sizes[1] > 100_000 > 4096 > sizes[2]
    first, second = steps[span_id(198)], steps[span_id(197)]
    assert f"failed: {long}; this span recorded no error of its own" in first.payload["toolResult"]
    clipped = "failed: " + long[:299] + "…"
    said = f"failed in the call it wraps (step {first.sequence}, span {span_id(198)}): {clipped}"
    assert second.payload["toolResult"] == said + "; this span recorded no error of its own"
    assert second.payload["raw"]["otlp"]["outcomeNote"]["params"]["what"]["text"] == clipped
