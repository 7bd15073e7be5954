"""The agent's spans alone, as a customer sends them when the MCP server is someone else's: the ``mcp`` SDK's
client spans of tests/fixtures/otel/mcp_sdk.jsonl without the server's. The SDK leaves its client span's status
unset for a plain answer, an answer with ``isError``, a cancel by its caller and a closed connection alike (it sets
an error only for a JSON-RPC error answer and its own time-out): without the server side, such a span records no
outcome. It read "ok", also for the call the tool failed and the call the agent cancelled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES, agent_steps, said_in_german, tool_steps

NO_SERVER_SIDE = ("no outcome recorded: the mcp SDK's client span ended without an error, which it also does for an "
                  "error the tool reported, a cancel and a closed connection, and the trace holds no server side of "
                  "the call")


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def agent_only(tmp_path: Path) -> Path:
    """mcp_sdk.jsonl without the server's resource: the agent's lines as they were."""
    lines = []
    for line in (FIXTURES / "mcp_sdk.jsonl").read_text(encoding="utf-8").splitlines():
        request = json.loads(line)
        request["resourceSpans"] = [group for group in request["resourceSpans"] if not any(
            item["key"] == "service.name" and item["value"]["stringValue"] == "weather-mcp-server"
            for item in group["resource"]["attributes"])]
        if request["resourceSpans"]:
            lines.append(json.dumps(request))
    path = tmp_path / "agent_only.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def steps_of(store: RunStore, path: Path) -> list[dict]:
    import_trace(store, path)
    (run,) = store.list_runs(limit=None)
    return [dict(step.payload, outcome=step.outcome) for step in store.iter_steps(run.id)]


def test_a_call_of_the_sdk_without_its_server_side_records_no_outcome(store: RunStore, tmp_path: Path) -> None:
    steps = steps_of(store, agent_only(tmp_path))
    (lookup,), (failed,), (timed_out, cancelled) = (tool_steps(steps, name) for name in ("lookup", "fail", "slow"))
    for step in (lookup, failed, cancelled):
        otlp = step["raw"]["otlp"]
        assert otlp["status"]["code"] == 0 and "server" not in otlp and not otlp["attributes"].get("error.type")
        assert step["outcome"] == "" and "toolOutcome" not in step and "toolIsError" not in step
        assert step["toolResult"] == NO_SERVER_SIDE
        assert otlp["outcomeNote"]["text"] == NO_SERVER_SIDE
    # what the client span recorded itself still stands: its time-out
    assert timed_out["outcome"] == "failed" and timed_out["raw"]["otlp"]["timedOut"] is True


def test_the_sentence_is_said_in_german(store: RunStore, tmp_path: Path) -> None:
    (lookup,) = tool_steps(steps_of(store, agent_only(tmp_path)), "lookup")
    assert said_in_german(lookup["raw"]["otlp"]["outcomeNote"]) == (
        "kein Ergebnis erfasst: der Client-Span des mcp-SDK endete ohne Fehler, was er auch bei einem vom Tool "
        "gemeldeten Fehler, einem Abbruch und einer geschlossenen Verbindung tut, und der Trace enthält keine "
        "Serverseite des Aufrufs")


def test_with_its_server_side_the_call_reads_as_before(store: RunStore) -> None:
    steps = agent_steps(store, "mcp_sdk.jsonl")  # the whole file: the server's sides say how each call ended
    (lookup,), (failed,) = tool_steps(steps, "lookup"), tool_steps(steps, "fail")
    assert (lookup["outcome"], failed["outcome"]) == ("ok", "failed")
    assert "outcomeNote" not in lookup["raw"]["otlp"]


def test_the_run_of_the_agent_alone_names_no_server_rather_than_the_agent(store: RunStore, tmp_path: Path) -> None:
    """The mcp SDK's client spans name no ``server.address``: with no server side, the trace does not know its MCP
    server. The run's server was the service that recorded its root, the agent itself ("support-agent")."""
    import_trace(store, agent_only(tmp_path))
    (run,) = store.list_runs(limit=None)
    assert run.server is None
