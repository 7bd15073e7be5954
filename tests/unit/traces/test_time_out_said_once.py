"""A call that timed out says the time-out once: an exception whose type or message says it (the mcp SDK's
``McpError: Timed out while waiting for response …``, ``TimeoutError``) is said as it is, type and message
kept, not after a "timed out: " that says it again; an error that does not say it still gets "timed out: ".
Real fixtures (tests/fixtures/otel/, Logfire's and Traceloop's spans of the mcp SDK) and single spans."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.traces.conventions import Meaning
from inspector.traces.outcomes import ending
from tests.unit.traces.test_otel_agents import agent_steps, said_in_german, tool_steps

MCP_TIME_OUT = ("mcp.shared.exceptions.McpError: Timed out while waiting for response to ClientRequest. "
                "Waited 0.5 seconds.")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


@pytest.mark.parametrize("fixture", ["logfire.jsonl", "traceloop.jsonl"])
def test_the_sdk_time_out_is_said_once_with_its_exception(store: RunStore, fixture: str) -> None:
    given_up = tool_steps(agent_steps(store, fixture), "slow")[0]
    assert given_up["outcome"] == "failed" and given_up["raw"]["otlp"]["timedOut"] is True
    assert given_up["toolResult"].splitlines()[0] == MCP_TIME_OUT  # was "timed out: " + MCP_TIME_OUT
    (note,) = given_up["raw"]["otlp"]["notes"]
    assert note["text"] == MCP_TIME_OUT and said_in_german(note) == MCP_TIME_OUT


def test_only_an_error_that_does_not_say_it_is_named_a_time_out_before_it() -> None:
    tool = Meaning(kind="tool")
    read_timeout = ending(tool, 2, "", {}, {"type": "httpx.ReadTimeout", "message": "read operation ended"})
    assert [str(note) for note in read_timeout.notes] == ["httpx.ReadTimeout: read operation ended"]
    by_type = ending(tool, 2, "upstream gave no answer", {"error.type": "timeout"}, None)
    assert [str(note) for note in by_type.notes] == ["timed out: upstream gave no answer",
                                                     "failed with error.type timeout"]
    assert read_timeout.timed_out and by_type.timed_out


def test_a_time_out_known_only_from_error_type_is_said_once_by_its_value() -> None:
    # No exception, no message: "timed out: TimeoutError" and "failed with error.type TimeoutError" said it twice.
    tool = Meaning(kind="tool")
    for error_type in ("TimeoutError", "timeout"):
        bare = ending(tool, 2, "", {"error.type": error_type}, None)
        assert [str(note) for note in bare.notes] == [f"timed out (error.type {error_type})"]
        assert bare.timed_out and bare.outcome == "failed" and bare.error == error_type
    # The time-out's JSON-RPC code alone keeps its own words.
    coded = ending(tool, 2, "", {"error.type": "-32001"}, None)
    assert [str(note) for note in coded.notes] == ["the request timed out (JSON-RPC error -32001)"]
