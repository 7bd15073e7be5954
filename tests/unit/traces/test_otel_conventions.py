"""The conventions foreign spans are read by (GenAI, MCP, Traceloop, OpenInference), the two sides of
a call in any order, and hostile span parts (events, links, scope, resource)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_trace_support import attr, otlp_doc, span, write_json

from inspector.store import RunStore
from inspector.traces.format import TraceImportError
from inspector.traces.span_parts import MAX_EVENTS
from inspector.transfer.importing import import_trace

TRACE = "5b8efff798038103d269b633813fc60c"


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def imported(store: RunStore, tmp_path: Path, *spans: dict[str, Any]) -> list[dict[str, Any]]:
    import_trace(store, write_json(tmp_path / "spans.json", otlp_doc(*spans)))
    (run,) = store.list_runs(limit=None)
    return [dict(step.payload, outcome=step.outcome) for step in store.iter_steps(run.id)]


def test_gen_ai_arguments_and_result_as_json_strings(store: RunStore, tmp_path: Path) -> None:
    (step,) = imported(store, tmp_path, span(name="execute_tool search", attributes=[
        attr("gen_ai.tool.name", "search"), attr("gen_ai.tool.call.arguments", '{"q": "weather", "n": 3}'),
        attr("gen_ai.tool.call.result", '{"hits": 2}')]))
    assert step["toolArguments"] == {"q": "weather", "n": 3}
    assert step["toolResult"] == '{"hits": 2}' and step["outcome"] == "ok"


@pytest.mark.parametrize("key", ["gen_ai.operation.name", "traceloop.span.kind"])
@pytest.mark.parametrize("value", [{"arrayValue": {"values": [{"stringValue": "chat"}]}},
                                   {"kvlistValue": {"values": [{"key": "tool", "value": {"stringValue": "x"}}]}}])
def test_a_convention_attribute_that_is_a_list_or_a_map_is_read_as_no_word_of_it(store: RunStore, tmp_path: Path,
                                                                                 key: str, value: Any) -> None:
    """A stranger's span whose operation name or Traceloop span kind is an array or a key-value list: the import
    stopped with a traceback ("TypeError: unhashable type: 'list'"); the span is now a plain step, the
    attribute kept as it was."""
    (step,) = imported(store, tmp_path, span(name="work", attributes=[{"key": key, "value": value}]))
    assert step["kind"] == "request" and step["content"] == "work"
    assert step["raw"]["otlp"]["attributes"][key] in (["chat"], {"tool": "x"})


def test_an_mcp_client_span_names_its_tool_from_the_span_name(store: RunStore, tmp_path: Path) -> None:
    (step,) = imported(store, tmp_path, span(name="MCP send tools/call get_weather", kind=3, attributes=[
        attr("mcp.method.name", "tools/call"), attr("jsonrpc.request.id", "7")]))
    assert step["kind"] == "tool" and step["toolName"] == "get_weather" and step["outcome"] == "ok"


def test_openinference_tool_and_llm_spans(store: RunStore, tmp_path: Path) -> None:
    tool = span(span_id="aaaaaaaaaaaaaaa1", name="lookup", attributes=[
        attr("openinference.span.kind", "TOOL"), attr("tool.name", "lookup"),
        attr("input.value", '{"city": "Rome"}'), attr("output.value", "sunny"), ], status={"code": 1})
    llm = span(span_id="aaaaaaaaaaaaaaa2", name="ChatCompletion", attributes=[
        attr("openinference.span.kind", "LLM"), attr("llm.model_name", "gpt-4o"),
        attr("llm.token_count.prompt", 50), attr("llm.token_count.completion", 7)])
    first, second = imported(store, tmp_path, tool, llm)
    assert (first["kind"], first["toolName"], first["toolArguments"], first["toolResult"], first["outcome"]) == (
        "tool", "lookup", {"city": "Rome"}, "sunny", "ok")
    assert (second["kind"], second["promptTokens"], second["completionTokens"]) == ("llm", 50, 7)


def test_error_types_are_said_in_words_and_kept(store: RunStore, tmp_path: Path) -> None:
    refused_params = span(span_id="aaaaaaaaaaaaaaa1", name="tools/call add", attributes=[
        attr("mcp.method.name", "tools/call"), attr("gen_ai.tool.name", "add"), attr("error.type", "-32602")],
        status={"code": 2, "message": "Invalid request parameters"})
    cancelled = span(span_id="aaaaaaaaaaaaaaa2", name="execute_tool slow", attributes=[
        attr("gen_ai.tool.name", "slow"), attr("error.type", "cancelled")])
    first, second = imported(store, tmp_path, refused_params, cancelled)
    assert first["outcome"] == "failed"
    assert "the server refused the request's parameters (JSON-RPC error -32602)" in first["toolResult"]
    assert "Invalid request parameters" in first["toolResult"]
    assert first["raw"]["otlp"]["attributes"]["error.type"] == "-32602"
    notes = first["raw"]["otlp"]["notes"]
    assert {"template": "the server refused the request's parameters (JSON-RPC error {value})",
            "params": {"value": "-32602"}} in [{k: n[k] for k in ("template", "params")} for n in notes]
    assert second["outcome"] == "cancelled"


def test_an_error_only_in_an_exception_event_shows_in_the_result(store: RunStore, tmp_path: Path) -> None:
    event = {"name": "exception", "timeUnixNano": "1700000000500000000", "attributes": [
        attr("exception.type", "httpx.HTTPStatusError"), attr("exception.message", "upstream 503"),
        attr("exception.stacktrace", "Traceback (most recent call last):\n  ...")]}
    (step,) = imported(store, tmp_path, span(name="execute_tool fetch", attributes=[attr("gen_ai.tool.name", "fetch")],
                                             status={"code": 2}, events=[event]))
    assert step["outcome"] == "failed"
    assert step["toolResult"] == "failed: httpx.HTTPStatusError: upstream 503"
    assert step["raw"]["otlp"]["events"][0]["attributes"]["exception.stacktrace"].startswith("Traceback")


def test_a_traceloop_tool_span_without_status_or_output_recorded_no_outcome(store: RunStore, tmp_path: Path) -> None:
    (step,) = imported(store, tmp_path, span(name="slow.tool", kind=1, attributes=[
        attr("traceloop.span.kind", "tool"), attr("traceloop.entity.name", "slow"),
        attr("traceloop.entity.input", '{"tool_name": "slow", "arguments": {"s": 1}}')]))
    assert step["outcome"] == "" and "toolIsError" not in step and "toolOutcome" not in step
    assert step["toolResult"].startswith("no outcome recorded") and step["toolArguments"] == {"s": 1}


@pytest.mark.parametrize("server_first", [False, True])
def test_client_and_server_sides_become_one_step_in_either_order(store: RunStore, tmp_path: Path,
                                                                 server_first: bool) -> None:
    client = span(span_id="aaaaaaaaaaaaaaa1", name="MCP send tools/call echo", kind=3,
                  attributes=[attr("mcp.method.name", "tools/call"), attr("jsonrpc.request.id", "3")])
    server = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaaa1", name="tools/call echo", kind=2,
                  start="1700000000100000000", end="1700000000900000000",
                  attributes=[attr("mcp.method.name", "tools/call"), attr("gen_ai.tool.name", "echo"),
                              attr("error.type", "tool_error")], status={"code": 2})
    lines = [json.dumps(otlp_doc(record)) for record in ((server, client) if server_first else (client, server))]
    path = tmp_path / "sides.jsonl"
    path.write_text("\n".join(lines) + "\n")
    report = import_trace(store, path)
    assert report.steps_imported == 1
    (run,) = store.list_runs(limit=None)
    (stored,) = store.iter_steps(run.id)
    assert stored.outcome == "failed" and stored.payload["raw"]["otlp"]["server"]["spanId"] == "aaaaaaaaaaaaaaa2"
    # The client got the server's isError answer (it ended after the server): the sides agree it failed.
    assert "disagreement" not in stored.payload["raw"]["otlp"]


def test_old_payloads_without_the_new_keys_still_read(store: RunStore, tmp_path: Path) -> None:
    old = {"kind": "tool", "round": 0, "durationMs": 5, "toolName": "x", "toolResult": "", "toolIsError": False,
           "toolOutcome": "ok", "raw": {"otlp": {"name": "x", "traceId": TRACE, "spanId": "eee19b7ec3c1b174",
                                                 "parentSpanId": "", "kind": 1, "status": {"code": 0, "message": ""},
                                                 "attributes": {}}}}
    report = import_trace(store, write_json(tmp_path / "old.json", [old]))
    (stored,) = store.iter_steps(report.run_ids[0])
    assert stored.payload == old and stored.outcome == "ok"


# -- hostile parts ------------------------------------------------------------------------------------

def refused(store: RunStore, tmp_path: Path, doc: dict[str, Any]) -> TraceImportError:
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, write_json(tmp_path / "hostile.json", doc))
    assert store.list_runs(limit=None) == []
    return caught.value


@pytest.mark.parametrize(("extra", "where", "words"), [
    ({"events": {"name": "x"}}, "spans[0].events", "must be a list"),
    ({"events": ["x"]}, "spans[0].events[0]", "must be an object"),
    ({"events": [{"name": 5}]}, "spans[0].events[0].name", "must be a string"),
    ({"events": [{"name": "e", "timeUnixNano": "soon"}]}, "spans[0].events[0].timeUnixNano", "whole number"),
    ({"events": [{"name": "e", "attributes": {"a": 1}}]}, "spans[0].events[0].attributes", "key/value"),
    ({"droppedEventsCount": -1}, "spans[0].droppedEventsCount", "0 or more"),
    ({"links": [{"traceId": TRACE, "spanId": "nothex"}]}, "spans[0].links[0].spanId", "hexadecimal"),
    ({"links": "none"}, "spans[0].links", "must be a list"),
])
def test_bad_events_and_links_are_refused_naming_the_place(store: RunStore, tmp_path: Path, extra: dict[str, Any],
                                                           where: str, words: str) -> None:
    error = refused(store, tmp_path, otlp_doc(span(**extra)))
    assert error.location.endswith(where) and words in error.problem, (error.location, error.problem)


def test_a_bad_scope_or_resource_is_refused(store: RunStore, tmp_path: Path) -> None:
    doc = otlp_doc(span())
    doc["resourceSpans"][0]["scopeSpans"][0]["scope"] = {"name": ["x"]}
    assert refused(store, tmp_path, doc).location.endswith("scopeSpans[0].scope.name")
    doc = otlp_doc(span())
    doc["resourceSpans"][0]["resource"] = {"attributes": [{"key": "a", "value": {"intValue": "x"}}]}
    assert refused(store, tmp_path, doc).location.endswith("resource.attributes[0].value.intValue")


def test_a_stack_trace_of_10_mb_is_refused_by_the_string_limit(store: RunStore, tmp_path: Path) -> None:
    event = {"name": "exception", "attributes": [attr("exception.stacktrace", "x" * 10_000_000)]}
    error = refused(store, tmp_path, otlp_doc(span(events=[event])))
    assert "longer than the limit of 5000000" in error.problem.replace(",", ""), error.problem


def test_100000_events_are_bounded_the_rest_counted(store: RunStore, tmp_path: Path) -> None:
    events = [{"name": "e", "timeUnixNano": "1"} for _ in range(100_000)]
    (step,) = imported(store, tmp_path, span(events=events, droppedEventsCount=5))
    otlp = step["raw"]["otlp"]
    assert len(otlp["events"]) == MAX_EVENTS and otlp["droppedEvents"] == 100_000 - MAX_EVENTS + 5


def test_a_lone_surrogate_in_an_event_is_refused(store: RunStore, tmp_path: Path) -> None:
    text = json.dumps(otlp_doc(span(events=[{"name": "PLACE"}]))).replace("PLACE", "a\\udc00b")
    path = tmp_path / "surrogate.json"
    path.write_text(text)
    with pytest.raises(TraceImportError) as caught:
        import_trace(store, path)
    assert "not valid UTF-8 text" in caught.value.problem


@pytest.mark.parametrize("clients", [1, 2])
def test_a_server_side_under_an_http_span_is_paired_by_its_request_id_when_unambiguous(
        store: RunStore, tmp_path: Path, clients: int) -> None:
    calls = [span(span_id=f"aaaaaaaaaaaaaa1{index}", name="MCP send tools/call echo", kind=3,
                  attributes=[attr("mcp.method.name", "tools/call"), attr("jsonrpc.request.id", "9")])
             for index in range(clients)]
    http = span(span_id="aaaaaaaaaaaaaaa2", parent="aaaaaaaaaaaaaa10", name="POST /mcp", kind=2)
    server = span(span_id="aaaaaaaaaaaaaaa3", parent="aaaaaaaaaaaaaaa2", name="tools/call echo", kind=2,
                  attributes=[attr("mcp.method.name", "tools/call"), attr("gen_ai.tool.name", "echo"),
                              attr("jsonrpc.request.id", "9")])
    steps = imported(store, tmp_path, *calls, http, server)
    paired = [step for step in steps if "server" in step["raw"]["otlp"]]
    if clients == 1:  # one step for the call, one for the HTTP span between the sides
        assert len(steps) == 2 and paired[0]["raw"]["otlp"]["server"]["spanId"] == "aaaaaaaaaaaaaaa3"
    else:  # two calls with that request id: which one the server answered is not known, nothing is paired
        assert len(steps) == 4 and not paired


def test_an_error_only_in_the_span_attributes_shows_in_the_result(store: RunStore, tmp_path: Path) -> None:
    (step,) = imported(store, tmp_path, span(name="execute_tool fetch", status={"code": 2}, attributes=[
        attr("gen_ai.tool.name", "fetch"), attr("exception.type", "UpstreamError"),
        attr("exception.message", "upstream 503")]))
    assert step["outcome"] == "failed" and step["toolResult"] == "failed: UpstreamError: upstream 503"


def test_arguments_nested_deeper_than_a_file_may_be_stay_a_string(store: RunStore, tmp_path: Path) -> None:
    deep = "[" * 500 + "]" * 500
    (step,) = imported(store, tmp_path, span(name="execute_tool t", attributes=[
        attr("gen_ai.tool.name", "t"), attr("gen_ai.tool.call.arguments", deep)]))
    assert "toolArguments" not in step and step["raw"]["otlp"]["attributes"]["gen_ai.tool.call.arguments"] == deep
    other = RunStore.open(str(tmp_path / "other.db"))
    try:
        (kept,) = imported(other, tmp_path, span(name="execute_tool t", attributes=[
            attr("gen_ai.tool.name", "t"), attr("gen_ai.tool.call.arguments", "[" * 60 + "]" * 60)]))
    finally:
        other.close()
    assert kept["toolArguments"] == json.loads("[" * 60 + "]" * 60)


@pytest.mark.parametrize("template", ["{error.__class__.__mro__}", "{0}", "{error!r}", "{error:>1000000000}",
                                      "{missing}", "{error[0]}", "{{error}}", "unbalanced {error", "{ERROR}"])
def test_a_stored_note_from_a_strangers_file_cannot_format_more_than_plain_names(template: str) -> None:
    from inspector.i18n.messages import translate
    from inspector.traces.foreign import note_message

    note = {"template": template, "params": {"error": "TimeoutError"}, "text": "the stored English"}
    assert translate(note_message(note)) == "the stored English"


def test_a_stored_note_with_plain_names_and_nested_notes_is_said_again() -> None:
    from inspector.i18n.messages import translate
    from inspector.traces.foreign import note_message

    inner = {"template": "gave up after {ms} ms ({error})", "params": {"ms": 504, "error": "TimeoutError"}}
    note = {"template": "the client {client}; the server {server}", "text": "x",
            "params": {"client": inner, "server": {"template": "{x.y}", "params": {"x": "1"}, "text": "finished"}}}
    assert translate(note_message(note)) == "the client gave up after 504 ms (TimeoutError); the server finished"
    deep: dict = {"template": "{a}", "params": {"a": "bottom"}, "text": "cut"}
    for _ in range(10):
        deep = {"template": "{a}", "params": {"a": deep}, "text": "cut"}
    assert translate(note_message(deep)) == "cut"


def test_an_mcp_tool_call_reads_genai_arguments_only_when_genai_calls_it_a_tool() -> None:
    # The GenAI conventions give a call's arguments and result to a span they call a tool call (it names its tool,
    # or its operation is execute_tool); an MCP tools/call span without either keeps its own reading (the tool from
    # its name, no arguments), as it did when the GenAI reading was made whole for every such span.
    from inspector.traces.conventions import understand

    given = {"mcp.method.name": "tools/call", "gen_ai.tool.call.arguments": '{"q": 1}',
             "gen_ai.tool.call.result": "found"}
    alone = understand("tools/call lookup", 2, given)
    assert (alone.tool, alone.arguments, alone.result) == ("lookup", None, None)
    named = understand("tools/call lookup", 2, {**given, "gen_ai.tool.name": "search"})
    assert (named.tool, named.arguments, named.result) == ("search", {"q": 1}, "found")
    executed = understand("tools/call lookup", 2, {**given, "gen_ai.operation.name": "execute_tool"})
    assert (executed.tool, executed.arguments, executed.result) == ("lookup", {"q": 1}, "found")
