"""Real agents' traces read faithfully: the fixtures of tests/fixtures/otel/ were recorded from the
official mcp SDK (client and server spans) and Traceloop's instrumentation by make_traces.py."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def said_in_german(note: dict[str, Any]) -> str:
    """A sentence the importer kept with its template, said again in German (its English text checked
    to be what the template says)."""
    from inspector import i18n
    from inspector.i18n.messages import translate
    from inspector.traces.foreign import note_message

    assert str(note_message(note)) == note["text"]
    assert i18n.set_language("de") == "de", "the German catalogue is not compiled (tools/translations.py compile)"
    try:
        return translate(note_message(note))
    finally:
        i18n.set_language("en")


def agent_steps(store: RunStore, fixture: str) -> list[dict[str, Any]]:
    """The payloads (with their outcome) of the agent's run, in timeline order."""
    import_trace(store, FIXTURES / fixture)
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    return [dict(step.payload, outcome=step.outcome) for step in store.iter_steps(run.id)]


def sides_ms(otlp: dict[str, Any]) -> tuple[int, int]:
    """How long the client side took, and when the server side ended, both from the client's start."""
    start = int(otlp["startTimeUnixNano"])
    return (round((int(otlp["endTimeUnixNano"]) - start) / 1_000_000),
            round((int(otlp["server"]["endTimeUnixNano"]) - start) / 1_000_000))


def tool_steps(steps: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    return [step for step in steps if step["kind"] == "tool" and step["toolName"] == name]


# -- the mcp SDK's own spans ------------------------------------------------------------------------

def test_the_sdk_ok_call_is_one_ok_tool_step_with_both_sides(store: RunStore) -> None:
    steps = agent_steps(store, "mcp_sdk.jsonl")
    (lookup,) = tool_steps(steps, "lookup")
    otlp = lookup["raw"]["otlp"]
    assert lookup["outcome"] == "ok" and lookup["toolIsError"] is False
    assert otlp["name"] == "MCP send tools/call lookup" and otlp["side"] == "client"
    assert otlp["server"]["name"] == "tools/call lookup" and otlp["server"]["side"] == "server"
    assert otlp["server"]["parentSpanId"] == otlp["spanId"]
    # each side names its own service, from its own resource
    assert otlp["service"] == "support-agent" and otlp["server"]["service"] == "weather-mcp-server"
    assert "disagreement" not in otlp
    # no server span of a call is left as a step of its own
    assert not [step for step in steps if step["raw"]["otlp"].get("side") == "server"]


def test_the_sdk_call_the_client_gave_up_on_is_a_failed_time_out_with_the_disagreement(store: RunStore) -> None:
    steps = agent_steps(store, "mcp_sdk.jsonl")
    given_up, cancelled = tool_steps(steps, "slow")
    assert given_up["outcome"] == "failed"
    assert given_up["toolResult"].splitlines()[0] == "TimeoutError"  # its type says the time-out: said once
    sentence = given_up["raw"]["otlp"]["disagreement"]["text"]
    client_ms, server_ms = sides_ms(given_up["raw"]["otlp"])
    assert client_ms >= 500 and sentence == (f"the client gave up after {client_ms} ms (TimeoutError); "
                                             f"the server ended with no error recorded after {server_ms} ms")
    assert sentence in given_up["toolResult"]
    (event,) = given_up["raw"]["otlp"]["events"]
    assert event["name"] == "exception" and event["attributes"]["exception.type"] == "TimeoutError"
    assert "Traceback" in event["attributes"]["exception.stacktrace"]
    # The SDK records nothing when a call is cancelled, but its client side ended before its server side
    # with no error: no outcome is claimed, and the step says why (docs/trace-format.md).
    assert cancelled["outcome"] == "" and "toolOutcome" not in cancelled
    client_ms, server_ms = sides_ms(cancelled["raw"]["otlp"])
    assert cancelled["raw"]["otlp"]["disagreement"]["text"] == (
        f"the client stopped waiting after {client_ms} ms, {server_ms - client_ms} ms before the server's side "
        f"ended; the server ended with no error recorded after {server_ms} ms")
    assert "no outcome recorded: the client stopped waiting" in cancelled["toolResult"]
    assert "the trace does not say which" in cancelled["toolResult"]


def test_a_client_side_that_got_its_answer_a_moment_after_the_server_is_ok(store: RunStore) -> None:
    for name in ("lookup", "fail"):
        (step,) = tool_steps(agent_steps(store, "mcp_sdk.jsonl"), name)
        assert step["outcome"] in ("ok", "failed") and "stopped waiting" not in step["toolResult"]


def test_the_sdk_stateless_era_s_cancels_are_not_recorded_also_under_a_millisecond(store: RunStore) -> None:
    """``mcp`` 2.3's client in its default era (stateless, ``server/discover``): a cancel closes the request's
    stream and the server's work stops at once, its span ending about 1 ms after the client's. With a margin of
    1 ms, the cancel whose server side ended 0.94 ms after its client side read "ok" (the file holds it)."""
    steps = agent_steps(store, "mcp_sdk_stateless.jsonl")
    assert steps[1]["raw"]["otlp"]["name"] == "MCP send server/discover"
    given_up, *cancels = tool_steps(steps, "slow")
    assert given_up["outcome"] == "failed" and given_up["raw"]["otlp"]["timedOut"] is True
    margins = [(int(step["raw"]["otlp"]["server"]["endTimeUnixNano"]) - int(step["raw"]["otlp"]["endTimeUnixNano"]))
               / 1_000_000 for step in cancels]
    assert len(cancels) == 6 and 0 < min(margins) < 1 and max(margins) < 5
    for cancelled in cancels:
        assert cancelled["outcome"] == "" and "toolOutcome" not in cancelled
        assert cancelled["toolResult"].startswith("no outcome recorded: the client stopped waiting ")
    quickest = cancels[margins.index(min(margins))]
    note = quickest["raw"]["otlp"]["outcomeNote"]
    left = round(min(margins), 2)
    assert note["params"]["ms"] == left  # a fraction under 1 ms, never "0 ms"
    assert f"stopped waiting {left} ms before the server's side ended" in note["text"]
    assert f"hörte {str(left).replace('.', ',')} ms vor dem Ende der Serverseite auf zu warten" in said_in_german(note)
    # the calls answered in this era still read as they ended: their client sides ended after their server sides
    assert [tool_steps(steps, name)[0]["outcome"] for name in ("lookup", "fail")] == ["ok", "failed"]


def test_the_sdk_tool_error_is_failed_in_words_though_the_client_span_saw_none(store: RunStore) -> None:
    (fail,) = tool_steps(agent_steps(store, "mcp_sdk.jsonl"), "fail")
    assert fail["outcome"] == "failed"
    assert "the tool reported an error (error.type tool_error)" in fail["toolResult"]
    # The client received the isError answer (its span records nothing of answers): no disagreement.
    assert "disagreement" not in fail["raw"]["otlp"]
    assert fail["raw"]["otlp"]["server"]["attributes"]["error.type"] == "tool_error"


def test_resource_scope_and_requests_survive_into_the_stored_payload(store: RunStore) -> None:
    steps = agent_steps(store, "mcp_sdk.jsonl")
    (listing,) = [step for step in steps if step["raw"]["otlp"]["name"] == "MCP send tools/list"]
    otlp = listing["raw"]["otlp"]
    assert listing["kind"] == "request"
    assert otlp["resource"]["attributes"]["deployment.environment.name"] == "staging"
    assert otlp["resource"]["attributes"]["telemetry.sdk.name"] == "opentelemetry"
    assert otlp["scope"]["name"] == "mcp-python-sdk"
    assert otlp["server"]["resource"]["attributes"]["service.name"] == "weather-mcp-server"
    assert otlp["attributes"]["mcp.method.name"] == "tools/list"
    assert otlp["server"]["attributes"]["mcp.protocol.version"]
    root = steps[0]["raw"]["otlp"]
    assert root["scope"] == {"name": "support-agent", "version": "1.4.2", "attributes": {}}


# -- Traceloop's instrumentation ----------------------------------------------------------------------

def test_traceloop_tool_spans_are_tool_steps_with_arguments_and_result(store: RunStore) -> None:
    steps = agent_steps(store, "traceloop.jsonl")
    (lookup,) = tool_steps(steps, "lookup")
    assert lookup["outcome"] == "ok"
    assert lookup["toolArguments"] == {"city": "Berlin"}
    assert lookup["toolResult"] == "Berlin: 21 °C, clear"
    assert lookup["raw"]["otlp"]["convention"] == "traceloop"
    assert lookup["raw"]["otlp"]["server"]["name"] == "ResponseStreamWriter"  # the server's answer, as written
    (fail,) = tool_steps(steps, "fail")
    assert fail["outcome"] == "failed" and "upstream 503 for Oslo" in fail["toolResult"]
    assert "the tool reported an error (error.type tool_error)" in fail["toolResult"]


def test_traceloop_time_out_names_the_server_that_finished_ok(store: RunStore) -> None:
    given_up, cancelled = tool_steps(agent_steps(store, "traceloop.jsonl"), "slow")
    assert given_up["outcome"] == "failed"
    # The exception's message says the time-out: it is said as it is, once (not after "timed out: ").
    assert given_up["toolResult"].splitlines()[0] == ("mcp.shared.exceptions.McpError: Timed out while waiting for "
                                                      "response to ClientRequest. Waited 0.5 seconds.")
    sentence = given_up["raw"]["otlp"]["disagreement"]["text"]
    client_ms, server_ms = sides_ms(given_up["raw"]["otlp"])
    assert re.fullmatch(rf"the client gave up after {client_ms} ms \(mcp\.shared\.exceptions\.McpError: "
                        rf"Timed out [^)]*\); the server finished ok after {server_ms} ms", sentence), sentence
    assert server_ms >= 800  # the slow tool's 0.8 s: the server did finish
    # Traceloop writes status OK for success: a tool span without one recorded no outcome.
    assert cancelled["outcome"] == "" and "toolIsError" not in cancelled
    assert cancelled["toolResult"].startswith("no outcome recorded")


def test_traceloop_stream_plumbing_is_kept_and_marked(store: RunStore) -> None:
    steps = agent_steps(store, "traceloop.jsonl")
    plumbing = [step for step in steps if step["raw"]["otlp"].get("plumbing")]
    assert plumbing and all(step["raw"]["otlp"]["name"] == "ResponseStreamWriter" for step in plumbing)
    assert all(step["kind"] == "request" and step["content"] == "ResponseStreamWriter" for step in plumbing)
    assert len(tool_steps(steps, "slow")) == 2 and len(steps) - len(plumbing) == 7


def test_the_disagreement_is_kept_as_a_sentence_a_reader_translates(store: RunStore) -> None:
    given_up = tool_steps(agent_steps(store, "mcp_sdk.jsonl"), "slow")[0]
    german = said_in_german(given_up["raw"]["otlp"]["disagreement"])
    client_ms, server_ms = sides_ms(given_up["raw"]["otlp"])
    assert german == (f"der Client gab nach {client_ms} ms auf (TimeoutError); "
                      f"der Server endete nach {server_ms} ms ohne aufgezeichneten Fehler")


@pytest.mark.parametrize("fixture", ["mcp_sdk.jsonl", "traceloop.jsonl", "fastmcp.jsonl"])
def test_tables_on_disk_and_a_second_read_give_the_same_steps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              fixture: str) -> None:
    from inspector.transfer import importing, spill

    def steps_of(name: str) -> list[tuple[str, int, dict[str, Any]]]:
        opened = RunStore.open(str(tmp_path / name))
        try:
            import_trace(opened, FIXTURES / fixture)
            return sorted((run.uid, step.sequence, step.payload) for run in opened.list_runs(limit=None)
                          for step in opened.iter_steps(run.id))
        finally:
            opened.close()

    expected = steps_of("plain.db")
    # Held sides and plumbing links pickled into the spill database; the file streamed twice to write.
    monkeypatch.setattr(spill, "SPILL_AFTER", 1)
    monkeypatch.setattr(importing, "CACHE_BUDGET", 0)
    assert steps_of("spilled.db") == expected
    assert any("server" in payload["raw"]["otlp"] for _, _, payload in expected)


# -- the run's server -------------------------------------------------------------------------------

@pytest.mark.parametrize("fixture", ["mcp_sdk.jsonl", "traceloop.jsonl", "fastmcp.jsonl"])
def test_the_agent_s_run_names_the_mcp_server_not_the_agent(store: RunStore, fixture: str) -> None:
    """The Server column of an agent's trace named the agent's own service ("support-agent"): the
    MCP server is the service of the server sides of its calls."""
    import_trace(store, FIXTURES / fixture)
    (run,) = [run for run in store.list_runs(limit=None) if run.title == "invoke_agent support-agent"]
    assert run.server == "weather-mcp-server"


def test_a_trace_of_the_client_alone_names_the_address_its_client_spans_give(store: RunStore,
                                                                             tmp_path: Path) -> None:
    """With no server side in the trace, the MCP client span's ``server.address`` (and port) is the
    server; with no MCP request at all, the service that recorded the root span, as before."""
    from tests.unit.traces.test_trace_support import attr, otlp_doc, span, write_json

    client_only = otlp_doc(
        span("a" * 32, "1" * 16, name="invoke_agent"),
        span("a" * 32, "2" * 16, parent="1" * 16, name="MCP send tools/call lookup", kind=3,
             attributes=[attr("mcp.method.name", "tools/call"), attr("server.address", "mcp.example.org"),
                         attr("server.port", 8443)]),
        span("b" * 32, "3" * 16, name="invoke_agent"),
        span("b" * 32, "4" * 16, parent="3" * 16, name="chat", kind=3,
             attributes=[attr("gen_ai.operation.name", "chat")]),
        service="support-agent")
    import_trace(store, write_json(tmp_path / "client.json", client_only))
    servers = {run.uid: run.server for run in store.list_runs(limit=None)}
    assert servers == {"otlp-" + "a" * 32: "mcp.example.org:8443", "otlp-" + "b" * 32: "support-agent"}


def test_an_error_type_that_only_names_the_exception_is_not_said_again(store: RunStore, tmp_path: Path) -> None:
    """Traceloop's time-out said "mcp.shared.exceptions.McpError: Timed out …" and then
    "failed with error.type McpError": the value is kept with the attributes, not said twice. An
    ``error.type`` that says something else (or has words of its own) is still said."""
    from tests.unit.traces.test_trace_support import attr, otlp_doc, span, write_json

    (given_up, _) = tool_steps(agent_steps(store, "traceloop.jsonl"), "slow")
    assert "error.type" not in given_up["toolResult"]
    assert given_up["raw"]["otlp"]["attributes"]["error.type"] == "McpError"

    def failed_call(span_id: str, error_type: str, exception_type: str) -> dict[str, Any]:
        return span("c" * 32, span_id, parent="1" * 16, name=f"tools/call t{span_id[-1]}", kind=2,
                    status={"code": 2}, attributes=[attr("mcp.method.name", "tools/call"),
                                                    attr("error.type", error_type)],
                    events=[{"name": "exception", "timeUnixNano": "1700000000500000000",
                             "attributes": [attr("exception.type", exception_type),
                                            attr("exception.message", "it broke")]}])

    doc = otlp_doc(span("c" * 32, "1" * 16, name="agent"),
                   failed_call("2" * 16, "ConnectionError", "builtins.TimeoutError"),
                   failed_call("3" * 16, "ValueError", "builtins.ValueError"),
                   failed_call("4" * 16, "tool_error", "tool_error"))
    import_trace(store, write_json(tmp_path / "errors.json", doc))
    (run,) = [run for run in store.list_runs(limit=None) if run.uid == "otlp-" + "c" * 32]
    said = {step.payload["toolName"]: step.payload["toolResult"] for step in store.iter_steps(run.id)
            if step.payload.get("kind") == "tool"}
    assert "failed with error.type ConnectionError" in said["t2"]  # not the exception's class: said
    assert said["t3"] == "failed: builtins.ValueError: it broke"
    assert "the tool reported an error (error.type tool_error)" in said["t4"]  # words of its own
