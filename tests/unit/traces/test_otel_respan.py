"""Respan's MCP plugin read faithfully (tests/fixtures/otel/respan.jsonl, recorded by make_traces.py with
``respan-instrumentation-mcp`` 0.1.1 on an ``mcp`` 1.30 agent: ``lookup`` ok, ``fail`` with ``isError``, ``slow`` timed
out by the client, ``slow`` cancelled by the agent). Its spans carry Traceloop's entity attributes with a kind of
Respan's own (``respan.entity.log_type``); they read as request steps, with no tool, arguments or outcome."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES
from tests.unit.traces.test_otlp_foreign_roundtrip import exported, spans_of


def tool_steps(empty_store: RunStore) -> list[dict[str, Any]]:
    import_trace(empty_store, FIXTURES / "respan.jsonl")
    (run,) = empty_store.list_runs(limit=None)
    return [dict(step.payload, outcome=step.outcome) for step in empty_store.iter_steps(run.id)
            if step.payload["kind"] == "tool"]


def test_respan_tool_spans_are_tool_steps_with_arguments_results_and_honest_outcomes(empty_store: RunStore) -> None:
    lookup, fail, timed_out, cancelled = tool_steps(empty_store)
    assert [step["raw"]["otlp"]["name"] for step in (lookup, fail)] == ["mcp.tool.lookup", "mcp.tool.fail"]
    assert (lookup["toolName"], lookup["toolArguments"], lookup["outcome"]) == ("lookup", {"city": "Berlin"}, "ok")
    # the answer is the whole CallToolResult: its content as blocks, not that JSON
    assert lookup["toolResult"] == "Berlin: 21 °C, clear" and lookup["contentBlocks"] == [{"type": "text", "size": 21}]
    assert fail["raw"]["otlp"]["status"]["code"] == 0  # only the answer's isError says it
    assert (fail["outcome"], fail["toolIsError"]) == ("failed", True)
    assert fail["toolResult"] == ("the tool reported an error (isError in its answer)\n"
                                  "Error executing tool fail: upstream 503 for Oslo")
    assert timed_out["outcome"] == "failed" and timed_out["raw"]["otlp"]["timedOut"] is True
    assert cancelled["outcome"] == "" and cancelled["toolResult"].startswith("no outcome recorded")


def test_respan_trace_comes_back_with_its_ids(empty_store: RunStore, tmp_path: Path) -> None:
    original = spans_of(FIXTURES / "respan.jsonl")
    import_trace(empty_store, FIXTURES / "respan.jsonl")
    again = spans_of(exported(empty_store, tmp_path, "again.json"))
    assert set(again) == set(original)
    for span_id, was in original.items():
        before, after = was["span"], again[span_id]["span"]
        assert (after.trace_id, after.parent_id, after.name, after.kind) == (
            before.trace_id, before.parent_id, before.name, before.kind)
        assert after.attributes == before.attributes and again[span_id]["scope"] == was["scope"]
