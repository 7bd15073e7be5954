"""Agent frameworks' own tool spans over MCP calls, read faithfully (tests/fixtures/otel/, recorded by
make_traces.py from the newest releases: pydantic-ai 2.78's GenAI spans, the OpenAI Agents SDK 0.24
instrumented by OpenInference (2.6) and by Traceloop (0.62), Google ADK 2.13's own spans, each calling the
``mcp`` SDK 2.3 server; Logfire 5.4's ``instrument_mcp()`` on an ``mcp`` 1.x client and server, and Logfire 5.4
configured on an ``mcp`` 2.3 agent and server, the agent's own spans made with ``logfire.span``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from tests.unit.traces.test_otel_agents import FIXTURES, said_in_german


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def framework_tool_steps(store: RunStore, fixture: str, scope: str) -> list[dict[str, Any]]:
    """The tool steps of every run of the file whose span the framework's scope wrote, in timeline order."""
    import_trace(store, FIXTURES / fixture)
    steps = [dict(step.payload, outcome=step.outcome) for run in reversed(store.list_runs(limit=None))
             for step in store.iter_steps(run.id)]
    return [step for step in steps if step["kind"] == "tool" and step["raw"]["otlp"]["scope"]["name"] == scope]


# -- pydantic-ai ------------------------------------------------------------------------------------

def test_pydantic_ai_tool_span_of_a_cancelled_call_is_cancelled_not_failed(store: RunStore) -> None:
    """The caller cancelled the agent's run during ``slow``: pydantic-ai's ``execute_tool slow`` ends with
    status ERROR and an ``exception`` event of ``asyncio.exceptions.CancelledError``. It read "failed"."""
    lookup, fail, timed_out, cancelled = framework_tool_steps(store, "pydantic_ai.jsonl", "pydantic-ai")
    otlp = cancelled["raw"]["otlp"]
    assert otlp["status"]["code"] == 2
    assert otlp["events"][0]["attributes"]["exception.type"] == "asyncio.exceptions.CancelledError"
    assert cancelled["outcome"] == "cancelled" and cancelled["toolOutcome"] == "cancelled"
    assert cancelled["toolIsError"] is True
    assert cancelled["toolResult"].startswith("cancelled: asyncio.exceptions.CancelledError: Cancelled via cancel "
                                              "scope")
    assert said_in_german(otlp["notes"][0]).startswith("abgebrochen: asyncio.exceptions.CancelledError")
    # the others as they were: arguments and result from the GenAI attributes, the failure and the time-out
    assert (lookup["outcome"], lookup["toolArguments"], lookup["toolResult"]) == ("ok", {"city": "Berlin"},
                                                                                  "Berlin: 21 °C, clear")
    assert fail["outcome"] == "failed"
    assert fail["toolResult"].startswith("failed: pydantic_ai.exceptions.ToolRetryError")
    assert timed_out["outcome"] == "failed" and timed_out["raw"]["otlp"]["timedOut"] is True
    # its exception's message says the time-out: said as it is, once
    assert timed_out["toolResult"].startswith("pydantic_ai.exceptions.ToolRetryError: Request 'tools/call' timed out")


# -- the OpenAI Agents SDK --------------------------------------------------------------------------

def test_openinference_result_of_one_block_is_read_as_content(store: RunStore) -> None:
    """The Agents SDK hands its agent a lone content block, not a list: OpenInference's ``output.value``
    is ``{"type": "text", "text": "Berlin: 21 °C, clear"}``, which the step showed as that JSON."""
    steps = framework_tool_steps(store, "openai_agents_openinference.jsonl",
                                 "openinference.instrumentation.openai_agents")
    lookup = next(step for step in steps if step["toolName"] == "lookup")
    assert lookup["raw"]["otlp"]["attributes"]["output.value"].startswith('{"type": "text"')
    assert lookup["outcome"] == "ok" and lookup["toolArguments"] == {"city": "Berlin"}
    assert lookup["toolResult"] == "Berlin: 21 °C, clear"
    assert [block["type"] for block in lookup["contentBlocks"]] == ["text"]


def test_traceloop_agents_tool_span_reads_the_gen_ai_arguments_and_result(store: RunStore) -> None:
    """Traceloop's OpenAI Agents instrumentation marks its tool spans ``traceloop.span.kind = tool`` but
    writes ``gen_ai.tool.call.arguments`` / ``.result``, not ``traceloop.entity.*``: the step had neither."""
    steps = framework_tool_steps(store, "openai_agents_traceloop.jsonl",
                                 "opentelemetry.instrumentation.openai_agents")
    lookup = next(step for step in steps if step["toolName"] == "lookup")
    assert "traceloop.entity.output" not in lookup["raw"]["otlp"]["attributes"]
    assert lookup["outcome"] == "ok" and lookup["toolArguments"] == {"city": "Berlin"}
    assert lookup["toolResult"] == "Berlin: 21 °C, clear"
    # the tool error reaches the agent as an answer: its span says ok, the call under it says failed
    fail = next(step for step in steps if step["toolName"] == "fail")
    assert fail["outcome"] == "failed" and fail["toolResult"].startswith("failed in the call it wraps")


# -- Google ADK -------------------------------------------------------------------------------------

def test_google_adk_result_of_a_whole_call_tool_result_is_read_as_content(store: RunStore) -> None:
    """ADK 2.13 records the whole MCP answer as ``gen_ai.tool.call.result``
    (``{"content": [...], "structuredContent": {...}, "isError": false}``): the step showed that JSON."""
    lookup, fail, timed_out, cancelled = framework_tool_steps(store, "google_adk.jsonl", "gcp.vertex.agent")
    attributes = lookup["raw"]["otlp"]["attributes"]
    assert attributes["gen_ai.tool.call.result"].startswith('{"content": [{"type": "text"')
    assert (lookup["outcome"], lookup["toolName"], lookup["toolArguments"]) == ("ok", "lookup", {"city": "Berlin"})
    assert lookup["toolResult"] == "Berlin: 21 °C, clear"
    assert [block["type"] for block in lookup["contentBlocks"]] == ["text"]
    # the time-out and the cancel are the wrapped calls' (ADK's own span says ok, and the error is its answer)
    assert timed_out["outcome"] == "failed" and timed_out["toolResult"].startswith("failed in the call it wraps")
    assert cancelled["outcome"] == "" and cancelled["toolResult"].startswith("no outcome recorded")


def test_google_adk_tool_error_is_said_once_with_the_tool_s_answer(store: RunStore) -> None:
    """ADK marks an answer with ``isError`` by ``error.type = MCP_TOOL_ERROR`` and status ERROR with the same
    words as its message: the step read "failed: MCP_TOOL_ERROR / failed with error.type MCP_TOOL_ERROR" then
    the answer's JSON."""
    fail = framework_tool_steps(store, "google_adk.jsonl", "gcp.vertex.agent")[1]
    otlp = fail["raw"]["otlp"]
    assert otlp["status"] == {"code": 2, "message": "MCP_TOOL_ERROR"}
    assert otlp["attributes"]["error.type"] == "MCP_TOOL_ERROR"
    assert fail["outcome"] == "failed" and fail["toolOutcome"] == "failed"
    assert fail["toolResult"] == "the tool reported an error (error.type MCP_TOOL_ERROR)\nError executing tool fail"
    assert said_in_german(otlp["notes"][0]) == "das Tool meldete einen Fehler (error.type MCP_TOOL_ERROR)"


def test_google_adk_first_schema_s_arguments_and_answer_are_read(store: RunStore) -> None:
    """ADK's first schema (ADK 1.x; 2.13 with ``ADK_TELEMETRY_SCHEMA_VERSION_OPT_IN=1``) writes the call's
    arguments and answer as ``gcp.vertex.agent.tool_call_args`` / ``.tool_response``: the steps had neither.
    Its placeholder for no answer (``{"result": "<not specified>"}``, the cancelled call) is no result."""
    lookup, fail, timed_out, cancelled = framework_tool_steps(store, "google_adk_legacy.jsonl", "gcp.vertex.agent")
    assert "gen_ai.tool.call.arguments" not in lookup["raw"]["otlp"]["attributes"]
    assert lookup["raw"]["otlp"]["attributes"]["gcp.vertex.agent.tool_call_args"] == '{"city": "Berlin"}'
    assert (lookup["outcome"], lookup["toolArguments"], lookup["toolResult"]) == ("ok", {"city": "Berlin"},
                                                                                  "Berlin: 21 °C, clear")
    assert fail["toolArguments"] == {"city": "Oslo"} and fail["toolResult"] == (
        "the tool reported an error (error.type MCP_TOOL_ERROR)\nError executing tool fail")
    assert timed_out["outcome"] == "failed" and timed_out["toolArguments"] == {"seconds": 0.8}
    assert cancelled["raw"]["otlp"]["attributes"]["gcp.vertex.agent.tool_response"] == '{"result": "<not specified>"}'
    assert cancelled["outcome"] == "" and cancelled["toolResult"].startswith("no outcome recorded")


@pytest.mark.parametrize("nothing", ["{}", '{"result": "<not specified>"}', "N/A"])
def test_google_adk_first_schema_s_placeholders_are_no_content(nothing: str) -> None:
    from inspector.traces.conventions import understand

    meaning = understand("execute_tool lookup", 1, {
        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
        "gcp.vertex.agent.tool_call_args": nothing, "gcp.vertex.agent.tool_response": nothing})
    assert (meaning.kind, meaning.arguments, meaning.result) == ("tool", None, None)


# -- Logfire's MCP spans ----------------------------------------------------------------------------

def logfire_calls(store: RunStore) -> list[dict[str, Any]]:
    import_trace(store, FIXTURES / "logfire.jsonl")
    (run,) = store.list_runs(limit=None)
    assert run.server == "weather-mcp-server"
    steps = [dict(step.payload, outcome=step.outcome) for step in store.iter_steps(run.id)]
    assert not [step for step in steps if step["raw"]["otlp"].get("side") == "server"], "each server side joined"
    return [step for step in steps if step["kind"] == "tool"]


def test_logfire_mcp_calls_are_tool_steps_with_both_sides_arguments_and_results(store: RunStore) -> None:
    """``MCP request: tools/call NAME`` (client) and ``MCP server handle request: tools/call`` (server)
    carry the request and the answer as JSON attributes; they read as requests named by the span."""
    lookup, fail, timed_out, cancelled = logfire_calls(store)
    otlp = lookup["raw"]["otlp"]
    assert otlp["name"] == "MCP request: tools/call lookup" and otlp["convention"] == "logfire"
    assert otlp["side"] == "client" and otlp["server"]["name"] == "MCP server handle request: tools/call"
    assert otlp["server"]["service"] == "weather-mcp-server"
    assert (lookup["outcome"], lookup["toolName"], lookup["toolArguments"]) == ("ok", "lookup", {"city": "Berlin"})
    assert lookup["toolResult"] == "Berlin: 21 °C, clear" and lookup["contentBlocks"][0]["type"] == "text"
    # the tool's error is only in the answer (isError): no status, no error.type on either side
    assert fail["raw"]["otlp"]["status"]["code"] == 0 and fail["raw"]["otlp"]["server"]["status"]["code"] == 0
    assert fail["outcome"] == "failed" and fail["toolOutcome"] == "failed"
    assert fail["toolResult"] == ("the tool reported an error (isError in its answer)\n"
                                  "Error executing tool fail: upstream 503 for Oslo")
    german = said_in_german(fail["raw"]["otlp"]["notes"][0])
    assert german == "das Tool meldete einen Fehler (isError in seiner Antwort)"
    assert timed_out["outcome"] == "failed" and timed_out["raw"]["otlp"]["timedOut"] is True
    assert timed_out["toolResult"].splitlines()[0].lower().count("timed out") == 1
    assert "the server finished ok after" in timed_out["raw"]["otlp"]["disagreement"]["text"]
    assert cancelled["outcome"] == "cancelled" and cancelled["toolResult"].startswith("cancelled: ")


def test_logfire_spans_of_other_requests_are_request_sides() -> None:
    from inspector.traces.conventions import understand

    meaning = understand("MCP request: tools/list", 1, {"request": '{"method": "tools/list", "params": null}'},
                         "logfire.mcp")
    assert (meaning.kind, meaning.side, meaning.method, meaning.convention) == ("request", "client", "tools/list",
                                                                                "logfire")
    # another scope's span of that name, or one without a request, is not read so
    assert understand("MCP request: tools/list", 1, {"request": '{"method": "tools/list"}'}, "myapp").convention == ""
    assert understand("MCP request: tools/list", 1, {}, "logfire.mcp").convention == ""


def test_logfire_spans_named_by_their_template_show_their_message(store: RunStore) -> None:
    """Logfire names a span by its message template: the run read "support run for {customer}" and the span of
    each call "calling {tool}", alike for every call (as every such run in the list); Logfire shows the message
    with its values (``logfire.msg``), and so does the step now. The span keeps its own name, written back so."""
    import_trace(store, FIXTURES / "logfire_mcp2.jsonl")
    (run,) = [run for run in store.list_runs(limit=None) if run.status == "failed"]
    assert run.title == "support run for ACME"
    steps = [dict(step.payload, outcome=step.outcome) for step in store.iter_steps(run.id)]
    spans = [step for step in steps if step["raw"]["otlp"]["scope"]["name"] == "logfire"]
    assert {step["raw"]["otlp"]["name"] for step in spans} == {"support run for {customer}", "calling {tool}"}
    shown = [step["content"].splitlines()[0].split(":")[0] for step in spans]  # in timeline order: the root first
    assert shown == ["support run for ACME", "calling lookup", "calling fail", "calling slow", "calling slow"]
    assert spans[4]["content"].startswith("calling slow\ncancelled: asyncio.exceptions.CancelledError")
    # the calls themselves, the mcp SDK's spans through Logfire's provider (logfire.msg beside their
    # attributes, the same name), as without Logfire: client beside server, each outcome
    calls = [step for step in steps if step["kind"] == "tool"]
    assert [(step["toolName"], step["outcome"]) for step in calls] == [
        ("lookup", "ok"), ("fail", "failed"), ("slow", "failed"), ("slow", "")]  # the cancel: not recorded
    assert all(step["raw"]["otlp"]["server"]["service"] == "weather-mcp-server" for step in calls)
    assert calls[0]["raw"]["otlp"]["attributes"]["logfire.msg"] == "MCP send tools/call lookup"
    assert calls[2]["raw"]["otlp"]["timedOut"] is True


def test_only_a_name_that_is_logfire_s_template_is_shown_as_its_message() -> None:
    from inspector.traces.conventions import shown_name

    template = {"logfire.msg_template": "calling {tool}", "logfire.msg": "calling lookup"}
    assert shown_name("calling {tool}", template) == "calling lookup"
    # pydantic-ai names its span by the GenAI conventions and keeps Logfire's message beside it: its name stays
    assert shown_name("execute_tool lookup", {"logfire.msg": "running tool: lookup"}) == "execute_tool lookup"
    assert shown_name("calling {tool}", dict(template, **{"logfire.msg": " "})) == "calling {tool}"
    assert shown_name("calling {tool}", dict(template, **{"logfire.msg": 7})) == "calling {tool}"
    assert shown_name("other", template) == "other"


# -- the rules, span by span ------------------------------------------------------------------------

@pytest.mark.parametrize("value", ['{"type": "text"}', '{"type": "note", "text": "x"}', '{"text": "x"}', "{not json"])
def test_a_lone_object_that_is_no_valid_block_stays_the_text_it_was(value: str) -> None:
    from inspector.traces.conventions import understand

    meaning = understand("lookup", 1, {"openinference.span.kind": "TOOL", "tool.name": "lookup", "output.value": value})
    assert meaning.result == value and meaning.blocks is None


@pytest.mark.parametrize(("error_type", "exception", "outcome"), [
    ("CancelledError", None, "cancelled"),
    ("", {"type": "trio.Cancelled", "message": ""}, "cancelled"),
    ("", {"type": "concurrent.futures._base.CancelledError", "message": ""}, "cancelled"),
    ("", {"type": "myapp.NotCancelledErrorAtAll", "message": "cancelled"}, "failed"),
])
def test_a_cancellation_is_read_by_its_exception_class(error_type: str, exception: Any, outcome: str) -> None:
    from inspector.traces.conventions import understand
    from inspector.traces.outcomes import ending

    attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "slow",
                  **({"error.type": error_type} if error_type else {})}
    assert ending(understand("execute_tool slow", 1, attributes), 2, "", attributes, exception).outcome == outcome


@pytest.mark.parametrize(("result", "text", "is_error"), [
    ('{"content": [{"type": "text", "text": "no such city"}], "isError": true}', "no such city", True),
    ({"content": [{"type": "text", "text": "21 °C"}], "isError": False, "_meta": {}}, "21 °C", False),
    # not a CallToolResult: another key, no valid content list, an empty one
    ('{"content": [{"type": "text", "text": "x"}], "isError": true, "retry": 1}', None, False),
    ('{"content": [{"type": "text"}], "isError": true}', None, False),
    ('{"content": [], "isError": true}', None, False),
])
def test_a_call_tool_result_is_read_by_its_content_and_is_error(result: Any, text: str | None, is_error: bool) -> None:
    from inspector.traces.conventions import understand
    from inspector.traces.outcomes import ending

    attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
                  "gen_ai.tool.call.result": result}
    meaning = understand("execute_tool lookup", 1, attributes)
    assert meaning.result_is_error is is_error
    if text is None:  # stays the text it was
        assert meaning.result == result and meaning.blocks is None
        return
    assert meaning.result == text and meaning.blocks is not None
    said = ending(meaning, 0, "", attributes, None)
    assert said.outcome == ("failed" if is_error else "ok")
    if is_error:  # no status, no error.type: only the answer says it
        assert [note.template for note in said.notes] == ["the tool reported an error (isError in its answer)"]


def test_a_status_message_that_only_repeats_the_error_type_is_not_said_twice() -> None:
    from inspector.traces.conventions import understand
    from inspector.traces.outcomes import ending

    attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "fetch", "error.type": "HTTP_ERROR"}
    said = ending(understand("execute_tool fetch", 1, attributes), 2, "HTTP_ERROR", attributes, None)
    assert [str(note) for note in said.notes] == ["failed with error.type HTTP_ERROR"]
    # a message of its own is said, and so is an exception's
    said = ending(understand("execute_tool fetch", 1, attributes), 2, "503 from upstream", attributes, None)
    assert [str(note) for note in said.notes] == ["failed: 503 from upstream", "failed with error.type HTTP_ERROR"]


@pytest.mark.parametrize(("args", "response", "arguments", "result"), [
    ({"kvlistValue": {"values": [{"key": "city", "value": {"stringValue": "Oslo"}}]}},
     {"arrayValue": {"values": [{"stringValue": "rain"}]}}, {"city": "Oslo"}, '["rain"]'),
    ({"arrayValue": {"values": []}}, {"kvlistValue": {"values": []}}, [], "{}"),
])
def test_google_adk_first_schema_s_values_as_arrays_or_key_value_lists_are_read(
        store: RunStore, tmp_path: Path, args: dict[str, Any], response: dict[str, Any], arguments: Any,
        result: str) -> None:
    """A stranger's file may give ``gcp.vertex.agent.tool_call_args`` / ``.tool_response`` as an array or a
    key-value list, not the JSON text ADK writes: the import ended in a TypeError traceback (unhashable)."""
    span = {"traceId": "017ed40fc1e452d4bbb793fa5526b4be", "spanId": "bbbbbbbbbbbbbbbb", "name": "execute_tool lookup",
            "kind": 1, "startTimeUnixNano": "1796478689637450070", "endTimeUnixNano": "1796478689654642966",
            "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
                           {"key": "gen_ai.tool.name", "value": {"stringValue": "lookup"}},
                           {"key": "gcp.vertex.agent.tool_call_args", "value": args},
                           {"key": "gcp.vertex.agent.tool_response", "value": response}]}
    path = tmp_path / "adk.json"
    path.write_text(json.dumps({"resourceSpans": [{"scopeSpans": [{"scope": {"name": "gcp.vertex.agent"},
                                                                    "spans": [span]}]}]}), encoding="utf-8")
    import_trace(store, path)
    step, = store.iter_steps(store.list_runs(limit=None)[0].id)
    assert (step.payload["toolArguments"], step.payload["toolResult"]) == (arguments, result)
