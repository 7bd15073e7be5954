"""A server that dies in the middle of a call, read faithfully (tests/fixtures/otel/mcp_sdk_crash.jsonl, recorded by
make_traces.py with the ``mcp`` SDK's own spans): the client's span of the crashed call fails with the SDK's
``-32000`` ("SSE stream ended without a response"); the server's span of it never ended and was never sent, while
its spans of the calls before were (its processor sent them every 100 ms)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.store import RunStore
from tests.unit.traces.test_otel_agents import agent_steps, said_in_german, tool_steps

CRASH = "mcp_sdk_crash.jsonl"


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def test_the_crashed_call_failed_as_a_closed_connection_not_a_time_out(store: RunStore) -> None:
    (crashed,) = tool_steps(agent_steps(store, CRASH), "crash")
    otlp = crashed["raw"]["otlp"]
    assert otlp["status"] == {"code": 2, "message": "SSE stream ended without a response"}
    assert otlp["attributes"]["error.type"] == "-32000"
    assert crashed["outcome"] == "failed" and crashed["toolIsError"] is True
    assert crashed["toolResult"] == ("failed: SSE stream ended without a response\n"
                                     "the connection closed before an answer (JSON-RPC error -32000)")
    assert "timedOut" not in otlp, "the client did not wait out its 3 s: the connection closed"
    closed = otlp["notes"][-1]
    assert said_in_german(closed) == "die Verbindung schloss sich vor einer Antwort (JSON-RPC-Fehler -32000)"


def test_no_server_side_is_made_up_for_the_call_the_server_died_in(store: RunStore) -> None:
    steps = agent_steps(store, CRASH)
    (crashed,) = tool_steps(steps, "crash")
    assert "server" not in crashed["raw"]["otlp"] and "disagreement" not in crashed["raw"]["otlp"]
    # the call before the crash has its server side: the spans sent before the crash are read as ever
    (lookup,) = tool_steps(steps, "lookup")
    assert lookup["outcome"] == "ok"
    assert lookup["raw"]["otlp"]["server"]["name"] == "tools/call lookup"
    assert lookup["raw"]["otlp"]["server"]["service"] == "weather-mcp-server"


def test_the_run_says_which_of_its_calls_failed(store: RunStore) -> None:
    agent_steps(store, CRASH)
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    assert run.status == "failed" and run.server == "weather-mcp-server"
    outcomes = [(step.payload.get("toolName"), step.outcome) for step in store.iter_steps(run.id)
                if step.payload["kind"] == "tool"]
    assert outcomes == [("lookup", "ok"), ("crash", "failed")]
