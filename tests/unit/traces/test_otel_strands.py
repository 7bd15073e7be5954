"""AWS Strands Agents read faithfully (tests/fixtures/otel/strands.jsonl and strands_latest.jsonl, recorded by
make_traces.py with ``strands-agents`` 1.62 and its ``MCPClient`` (``mcp`` 2.1) calling the ``mcp`` 2.3 server:
``lookup`` ok, ``fail`` with the tool's error, ``slow`` timed out by the MCP client, ``slow`` cancelled by the agent's
caller; each a run of the agent, a trace of its own). ``strands.jsonl`` is Strands' default (the arguments and the
answer in span events), ``strands_latest.jsonl`` its latest GenAI conventions (``OTEL_SEMCONV_STABILITY_OPT_IN``: span
attributes), ``strands_mlflow.jsonl`` the default traced by MLflow 3.18 (``mlflow.strands.autolog()``, exported by
MLflow's own OTLP exporter: the same spans with MLflow's attributes beside Strands', less the ``mcp`` SDK's span of the
cancelled call, which ends after the agent's run and which MLflow drops)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.traces.conventions import parse_json_text
from inspector.traces.strands_spans import strands_parts
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES

STRANDS_SCOPE = "strands.telemetry.tracer"
STRANDS_TRACES = ["strands.jsonl", "strands_latest.jsonl", "strands_mlflow.jsonl"]


def agent_runs(store: RunStore, trace: Path) -> list[tuple[Any, list[dict[str, Any]]]]:
    """The agent's runs, oldest first, each with its steps in the timeline's order (and their outcomes)."""
    import_trace(store, trace)
    runs = sorted((run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"),
                  key=lambda run: run.id)
    return [(run, [dict(step.payload, outcome=step.outcome) for step in store.iter_steps(run.id)]) for run in runs]


def strands_tool(steps: list[dict[str, Any]]) -> dict[str, Any]:
    (step,) = [step for step in steps
               if step["kind"] == "tool" and step["raw"]["otlp"]["scope"]["name"] == STRANDS_SCOPE]
    return step


@pytest.mark.parametrize("fixture", STRANDS_TRACES)
def test_strands_tool_spans_are_tool_steps_with_their_arguments_and_answers(empty_store: RunStore,
                                                                            fixture: str) -> None:
    """Strands' ``execute_tool`` spans carry the call's arguments and answer in events by default (before, those
    steps had neither), or in the latest conventions' attributes, the answer as Strands' own content list
    (``[{"text": "…"}]``, read as its text; before, that JSON)."""
    (lookup_run, lookup), (fail_run, fail), (slow_run, slow), (cancelled_run, cancelled) = [
        (run, strands_tool(steps)) for run, steps in agent_runs(empty_store, FIXTURES / fixture)]
    assert lookup["raw"]["otlp"]["convention"] == "strands"
    assert (lookup["toolName"], lookup["toolArguments"], lookup["toolResult"], lookup["outcome"]) == (
        "lookup", {"city": "Berlin"}, "Berlin: 21 °C, clear", "ok")
    assert (fail["toolArguments"], fail["outcome"]) == ({"city": "Oslo"}, "failed")
    # the answer Strands handed its model is its status message again: said once, not twice
    assert fail["toolResult"] == "failed: Error executing tool fail"
    assert slow["toolArguments"] == {"seconds": 0.8} and slow["raw"]["otlp"]["timedOut"] is True
    assert slow["toolResult"] == "Tool execution failed: Request 'tools/call' timed out"
    assert cancelled["toolArguments"] == {"seconds": 0.8} and cancelled["outcome"] == ""
    assert [run.status for run in (lookup_run, fail_run, slow_run)] == ["ok", "failed", "failed"]


@pytest.mark.parametrize("fixture", STRANDS_TRACES)
def test_a_run_its_caller_cancelled_reads_cancelled(empty_store: RunStore, fixture: str) -> None:
    """Strands marks the agent's span of a cancelled run with ``strands.cancellation.type`` (status unset):
    the run read "ok (the tool call has no outcome recorded)", now "cancelled", its root step saying why."""
    *_, (run, steps) = agent_runs(empty_store, FIXTURES / fixture)
    assert run.status == "cancelled"
    (root,) = [step for step in steps if step["raw"]["otlp"]["name"] == "invoke_agent support-agent"]
    assert root["content"] == "invoke_agent support-agent\ncancelled (strands.cancellation.type CancelledError)"


@pytest.mark.parametrize("fixture", STRANDS_TRACES)
def test_each_call_joins_its_server_side_under_the_strands_span(empty_store: RunStore, fixture: str) -> None:
    """The ``mcp`` SDK's client span of each call hangs under Strands' ``execute_tool`` span and is joined to the
    server's span (the trace context travels in ``_meta``); each step names its own service."""
    runs = agent_runs(empty_store, FIXTURES / fixture)
    for _run, steps in runs if fixture != "strands_mlflow.jsonl" else runs[:-1]:
        tool = strands_tool(steps)
        (call,) = [step for step in steps if step["raw"]["otlp"].get("side") == "client"
                   and step["raw"]["otlp"]["name"].startswith("MCP send tools/call")]
        assert call["raw"]["otlp"]["parentSpanId"] == tool["raw"]["otlp"]["spanId"]
        assert call["raw"]["otlp"]["server"]["service"] == "weather-mcp-server"
        assert {step["raw"]["otlp"]["service"] for step in steps} == {"support-agent"}


def strands_spans_only(tmp_path: Path, name: str, keep: Any = lambda span: True) -> Path:
    """strands.jsonl's Strands spans alone (no MCP call under a tool span) that ``keep`` keeps, written to ``name``
    (``keep`` may change a span it keeps)."""
    kept = []
    for line in (FIXTURES / "strands.jsonl").read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for resource in record["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                scope["spans"] = [span for span in scope["spans"] if scope["scope"]["name"] == STRANDS_SCOPE
                                  and keep(span)]
            resource["scopeSpans"] = [scope for scope in resource["scopeSpans"] if scope["spans"]]
        record["resourceSpans"] = [resource for resource in record["resourceSpans"] if resource["scopeSpans"]]
        if record["resourceSpans"]:
            kept.append(json.dumps(record))
    path = tmp_path / name
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def abandoned_tool_span(tmp_path: Path) -> Path:
    """The cancelled run's trace of strands.jsonl without the MCP call under its tool span: Strands' span alone."""
    records = [json.loads(line) for line in (FIXTURES / "strands.jsonl").read_text(encoding="utf-8").splitlines()]
    cancelled_trace = next(span["traceId"] for record in records for resource in record["resourceSpans"]
                           for scope in resource["scopeSpans"] for span in scope["spans"]
                           if any(item["key"] == "strands.cancellation.type" for item in span["attributes"]))
    return strands_spans_only(tmp_path, "abandoned.jsonl", lambda span: span["traceId"] == cancelled_trace)


@pytest.mark.parametrize("trace", ["cut", "mlflow"])
def test_a_strands_tool_span_that_ended_ok_without_an_answer_records_no_outcome(empty_store: RunStore,
                                                                                 tmp_path: Path, trace: str) -> None:
    """Strands ends a tool's span with status OK and no ``gen_ai.tool.status`` when the call was interrupted or
    abandoned (its run cancelled): without the MCP call under it (cut out of strands.jsonl, or dropped by MLflow),
    that span read "ok"."""
    if trace == "cut":
        ((_run, steps),) = agent_runs(empty_store, abandoned_tool_span(tmp_path))
    else:
        *_, (_run, steps) = agent_runs(empty_store, FIXTURES / "strands_mlflow.jsonl")
        assert not [step for step in steps if step["raw"]["otlp"].get("side") == "client"]
    tool = strands_tool(steps)
    assert tool["raw"]["otlp"]["status"]["code"] == 1 and "gen_ai.tool.status" not in tool["raw"]["otlp"]["attributes"]
    assert tool["outcome"] == "" and "toolOutcome" not in tool
    assert tool["toolResult"].startswith("no outcome recorded: the span's status said ok, but it holds no answer")


def test_strands_content_items_are_read_as_their_text_and_anything_else_as_written() -> None:
    events = [{"name": "gen_ai.tool.message", "timeUnixNano": 1, "attributes": {"content": '{"q": 1}'}},
              {"name": "gen_ai.choice", "timeUnixNano": 2,
               "attributes": {"message": '[{"text": "two rows"}, {"json": {"rows": [1, 2]}}]'}}]
    parts = strands_parts({"gen_ai.tool.status": "success"}, events, parse_json_text)
    assert parts == {"arguments": {"q": 1}, "result": 'two rows\n{"rows":[1,2]}', "answered": True}
    picture = '[{"image": {"format": "png", "source": {"bytes": "..."}}}]'
    assert strands_parts({"gen_ai.tool.call.result": picture}, [], parse_json_text)["result"] == picture
    # the latest conventions' attributes come before the events
    both = strands_parts({"gen_ai.tool.call.arguments": '{"q": 2}', "gen_ai.tool.call.result": '[{"text": "a"}]'},
                         events, parse_json_text)
    assert (both["arguments"], both["result"], both["answered"]) == ({"q": 2}, "a", False)


def _status_ok_on_failed_calls(tmp_path: Path) -> Path:
    """strands.jsonl's Strands spans alone (tools of the agent's own, no MCP call under them), as a Strands release
    that ends a tool's span with status OK whatever the tool answered writes them (its ``_end_span`` sets ERROR
    only for an exception it is handed): the failed calls' spans say so only in ``gen_ai.tool.status`` (``error``)
    and their answers."""
    def status_ok(span: dict[str, Any]) -> bool:
        if span["name"].startswith("execute_tool") and span.get("status", {}).get("code") == 2:
            span["status"] = {"code": 1}
        return True

    return strands_spans_only(tmp_path, "status_ok.jsonl", status_ok)


def test_a_strands_tool_that_answered_with_an_error_under_status_ok_failed(empty_store: RunStore,
                                                                            tmp_path: Path) -> None:
    """A tool span with status OK and ``gen_ai.tool.status`` ``error`` read "ok", and its run too: the call failed
    (its answer the error, said once), the one that timed out says so, and their runs failed."""
    _lookup, (fail_run, fail_steps), (slow_run, slow_steps), _cancelled = agent_runs(
        empty_store, _status_ok_on_failed_calls(tmp_path))
    fail, slow = strands_tool(fail_steps), strands_tool(slow_steps)
    assert fail["raw"]["otlp"]["status"]["code"] == 1
    assert (fail["outcome"], fail_run.status) == ("failed", "failed")
    assert fail["toolResult"] == "the tool answered with an error (gen_ai.tool.status error)\nError executing tool fail"
    assert (slow["outcome"], slow_run.status) == ("failed", "failed") and slow["raw"]["otlp"]["timedOut"] is True
