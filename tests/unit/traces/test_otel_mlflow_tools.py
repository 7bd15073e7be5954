"""MLflow's own tool spans read (tests/fixtures/otel/mlflow_tools.jsonl, recorded by make_traces.py with
``mlflow-skinny`` 3.18: an agent's plain tool functions under ``@mlflow.trace(span_type="TOOL")``, each calling the
``mcp`` 2.3 server's tool with the ``mcp`` SDK's client, under an ``AGENT`` span; exported by MLflow's own OTLP
exporter). ``lookup`` answers; ``fail``'s tool answers with ``isError`` and the function raises; ``slow``'s call
times out and the function raises. Before, the three were ``request`` steps (no tool, no arguments, no answer) and
the run said "failed" with no call counted."""

from __future__ import annotations

from typing import Any

from inspector.store import RunStore
from inspector.store.recovery import run_reason
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES


def agent_steps(store: RunStore) -> tuple[Any, dict[str, dict[str, Any]]]:
    import_trace(store, FIXTURES / "mlflow_tools.jsonl")
    [run] = [run for run in store.list_runs(limit=None) if run.title == "support-agent"]
    steps = {step.payload["raw"]["otlp"]["name"]: dict(step.payload, outcome=step.outcome)
             for step in store.iter_steps(run.id)}
    return run, steps


def test_mlflow_tool_spans_are_tool_steps_with_arguments_and_answers(empty_store: RunStore) -> None:
    run, steps = agent_steps(empty_store)
    lookup, fail, slow, agent = steps["lookup"], steps["fail"], steps["slow"], steps["support-agent"]
    assert lookup["raw"]["otlp"]["convention"] == "mlflow"
    assert (lookup["kind"], lookup["toolName"], lookup["toolArguments"], lookup["toolResult"], lookup["outcome"]) == (
        "tool", "lookup", {"city": "Berlin"}, "Berlin: 21 °C, clear", "ok")
    assert (fail["kind"], fail["toolArguments"], fail["outcome"]) == ("tool", {"city": "Berlin"}, "failed")
    assert fail["toolResult"].startswith("failed: RuntimeError: Error executing tool fail")
    assert (slow["toolArguments"], slow["outcome"], slow["raw"]["otlp"]["timedOut"]) == ({"seconds": 0.8}, "failed",
                                                                                         True)
    assert agent["kind"] == "request"  # an AGENT span is no tool call
    assert run.status == "failed"
    reason = run_reason(empty_store, run)
    assert reason is not None and reason.said()[:2] == (2, 3), "2 of 3 tool calls failed"


def test_mlflow_beside_another_convention_reads_as_that_one(empty_store: RunStore) -> None:
    """MLflow tracing Strands (strands_mlflow.jsonl): its attributes beside Strands' and the SDK's, read as theirs."""
    import_trace(empty_store, FIXTURES / "strands_mlflow.jsonl")
    conventions = {step.payload["raw"]["otlp"].get("convention") for run in empty_store.list_runs(limit=None)
                   for step in empty_store.iter_steps(run.id)}
    assert "mlflow" not in conventions and {"strands", "mcp"} <= conventions
