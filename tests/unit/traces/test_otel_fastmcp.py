"""FastMCP's own spans, read faithfully (tests/fixtures/otel/fastmcp.jsonl, recorded by make_traces.py
from FastMCP 4.x's client and server): its client span ``tools/call NAME`` wraps the ``mcp`` SDK's
``MCP send tools/call NAME`` of the same call, whose server side is FastMCP's ``tools/call NAME``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.traces.foreign import LEFT_FIRST_NS
from tests.unit.traces.test_otel_agents import agent_steps, said_in_german, tool_steps


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def calls(store: RunStore, name: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each call of the tool as (FastMCP's wrapping client step, the SDK's client step under it)."""
    steps = tool_steps(agent_steps(store, "fastmcp.jsonl"), name)
    by_span = {step["raw"]["otlp"]["spanId"]: step for step in steps}
    pairs = [(by_span[step["raw"]["otlp"]["parentSpanId"]], step) for step in steps
             if step["raw"]["otlp"]["parentSpanId"] in by_span]
    assert pairs and all(outer["raw"]["otlp"]["scope"]["name"] == "fastmcp" for outer, _ in pairs)
    return pairs


def test_the_wrapping_client_step_of_a_cancelled_call_does_not_claim_ok(store: RunStore) -> None:
    """The agent cancelled the second ``slow`` call: neither FastMCP's span nor the SDK's records
    anything (both leave the status unset). The SDK's side ended before its server's, so its step
    reads "no outcome recorded"; FastMCP's span over it read "ok" as if the call had succeeded."""
    outer, inner = calls(store, "slow")[-1]
    otlp = inner["raw"]["otlp"]
    assert outer["raw"]["otlp"]["status"]["code"] == 0 and otlp["status"]["code"] == 0
    assert int(otlp["server"]["endTimeUnixNano"]) - int(otlp["endTimeUnixNano"]) > LEFT_FIRST_NS
    assert inner["outcome"] == "" and "toolOutcome" not in inner
    assert outer["outcome"] == "" and "toolOutcome" not in outer and "toolIsError" not in outer
    said = (f"no outcome recorded: the span ended without an error, and the call it wraps (span {otlp['spanId']}) "
            "has no outcome recorded either")
    assert outer["toolResult"] == said
    assert outer["raw"]["otlp"]["outcomeNote"]["text"] == said
    assert outer["raw"]["otlp"]["outcomeNote"]["params"] == {"span": otlp["spanId"]}


def test_calls_whose_wrapping_span_says_how_they_ended_keep_its_words(store: RunStore) -> None:
    ((lookup_outer, lookup_inner),) = calls(store, "lookup")
    assert lookup_outer["outcome"] == lookup_inner["outcome"] == "ok"
    assert "outcomeNote" not in lookup_outer["raw"]["otlp"]
    ((fail_outer, fail_inner),) = calls(store, "fail")
    assert fail_outer["outcome"] == fail_inner["outcome"] == "failed"
    assert fail_outer["toolResult"].startswith("failed: Error calling tool 'fail': upstream 503 for Oslo")
    timed_out, inner = calls(store, "slow")[0]
    assert timed_out["outcome"] == inner["outcome"] == "failed"
    assert timed_out["toolResult"] == ("mcp.shared.exceptions.MCPError: Request 'tools/call' timed out "
                                       "(JSON-RPC error -32001)")
    assert all("outcomeNote" not in step["raw"]["otlp"] for step in (fail_outer, timed_out))


def test_the_note_is_a_sentence_a_reader_translates(store: RunStore) -> None:
    outer, inner = calls(store, "slow")[-1]
    german = said_in_german(outer["raw"]["otlp"]["outcomeNote"])
    span = inner["raw"]["otlp"]["spanId"]
    assert german == ("kein Ergebnis erfasst: der Span endete ohne Fehler, und auch der Aufruf, "
                      f"den er umschließt (Span {span}), hat keines erfasst")


def test_fastmcp_4_2_marks_its_time_out_by_the_json_rpc_code_and_speaks_the_stateless_era(store: RunStore) -> None:
    """FastMCP 4.2.3 (recorded 2026-12-05) writes ``error.type`` and ``rpc.response.status_code`` ``-32001`` on
    its client span of the call it gave up on (earlier 4.x wrote ``MCPError``), ``jsonrpc.request.id`` on its
    server spans and ``mcp.protocol.version`` 2026-07-28; the time-out is named and the code said in words."""
    timed_out, inner = calls(store, "slow")[0]
    attributes = timed_out["raw"]["otlp"]["attributes"]
    assert attributes["error.type"] == "-32001" and attributes["rpc.response.status_code"] == "-32001"
    assert timed_out["raw"]["otlp"]["timedOut"] is True
    # Said once: the exception's message names the time-out, the code is said beside it (the time-out's words
    # of the code, "the request timed out (JSON-RPC error -32001)", said it a second time under it).
    assert timed_out["toolResult"].count("timed out") == 1 and "-32001" in timed_out["toolResult"]
    server = inner["raw"]["otlp"]["server"]
    assert server["attributes"]["mcp.protocol.version"] == "2026-07-28"
    assert server["attributes"]["jsonrpc.request.id"] == inner["raw"]["otlp"]["attributes"]["jsonrpc.request.id"]


def test_a_time_out_by_its_code_is_said_once_whatever_the_error_says() -> None:
    """The -32001 of a span whose error does not say it timed out names the time-out beside the error; of a span
    with no error at all, the code's words say it alone."""
    from inspector.traces.conventions import Meaning
    from inspector.traces.outcomes import ending

    attributes = {"error.type": "-32001"}
    aborted = ending(Meaning(kind="tool"), 2, "", attributes, {"type": "MCPError", "message": "Request aborted"})
    assert [str(note) for note in aborted.notes] == ["timed out: MCPError: Request aborted (JSON-RPC error -32001)"]
    bare = ending(Meaning(kind="tool"), 2, "", attributes, None)
    assert [str(note) for note in bare.notes] == ["the request timed out (JSON-RPC error -32001)"]
    assert aborted.timed_out and bare.timed_out
