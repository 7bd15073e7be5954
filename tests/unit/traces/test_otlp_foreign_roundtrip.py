"""An imported OTLP trace exported again as OTLP is the trace it was (issue 23, "Round trip").

The real traces of tests/fixtures/otel/ (the mcp SDK's own spans, Traceloop's instrumentation)
are imported, exported as OTLP and compared span by span, field by field, with the file they came
from: ids, parents, names, kinds, status, times, attributes, events, links, resource, scope. Only
what redaction removes and the notes we add may differ.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from opentelemetry.proto.trace.v1.trace_pb2 import TracesData
from test_trace_support import fill

from inspector.store import RunStore
from inspector.store.notes import step_id_of, write_run_note, write_step_note
from inspector.traces.otlp import RUN_NOTE, SPAN_ROLE, STEP_NOTE, read_attributes, read_span
from inspector.traces.redact import REDACTED, redact
from inspector.traces.span_parts import read_resource, read_scope
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "otel"
REAL_TRACES = ["mcp_sdk.jsonl", "traceloop.jsonl", "fastmcp.jsonl", "pydantic_ai.jsonl",
               "openai_agents_openinference.jsonl", "openai_agents_traceloop.jsonl", "logfire.jsonl",
               "google_adk.jsonl", "google_adk_legacy.jsonl", "mcp_sdk_crash.jsonl", "openlit.jsonl",
               "splunk_fastmcp.jsonl", "strands.jsonl", "strands_latest.jsonl",
               "strands_mlflow.jsonl",
               # Traces of a session's plumbing alone (OpenLIT's session/init, the SDK's notifications, Logfire's
               # warning) beside the agent's, and MLflow's own tool spans: every span comes back.
               "openlit_mcp2.jsonl", "logfire_mcp2.jsonl", "mlflow_tools.jsonl"]
#: The traces with no span event (the crashed server's: the client's span of the crash has a status, no exception).
EVENTLESS = {"mcp_sdk_crash.jsonl"}


def spans_of(path: Path) -> dict[str, dict[str, Any]]:
    """Every span of an OTLP file (JSON Lines or one object), read as an import reads it, by span id,
    with the resource and scope it came under and its place in the file."""
    text = path.read_text(encoding="utf-8")
    try:
        documents = [json.loads(text)]
    except ValueError:  # the Collector's JSON Lines
        documents = [json.loads(line) for line in text.splitlines() if line.strip()]
    found: dict[str, dict[str, Any]] = {}
    for document in documents:
        for resource_spans in document["resourceSpans"]:
            resource = read_resource(resource_spans.get("resource"), ("resource",), read_attributes)
            for scope_spans in resource_spans["scopeSpans"]:
                scope = read_scope(scope_spans.get("scope"), ("scope",), read_attributes)
                for record in scope_spans["spans"]:
                    span = read_span(record, ("span",))
                    assert span.span_id not in found, "a span is written once"
                    found[span.span_id] = {"span": span, "resource": resource.attributes,
                                           "scope": (scope.name, scope.version, scope.attributes)}
    return found


def redacted(value: Any) -> Any:
    return redact(value)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    opened = RunStore.open(str(tmp_path / "runs.db"))
    yield opened
    opened.close()


def exported(store: RunStore, tmp_path: Path, name: str, file_format: str = "otlp") -> Path:
    target = tmp_path / name
    export(store, None, None, target, format=file_format)
    return target


# -- field by field ---------------------------------------------------------------------------------

@pytest.mark.parametrize("fixture", REAL_TRACES)
def test_every_span_of_a_real_trace_comes_back_as_it_was(store: RunStore, tmp_path: Path, fixture: str) -> None:
    original = spans_of(FIXTURES / fixture)
    import_trace(store, FIXTURES / fixture)
    again = spans_of(exported(store, tmp_path, "again.json"))

    assert set(again) == set(original), "the same spans: none made up, none lost, server sides included"
    rewritten_attributes = 0
    for span_id, was in original.items():
        now = again[span_id]
        before, after = was["span"], now["span"]
        assert SPAN_ROLE not in after.attributes, "foreign spans stay foreign"
        assert (after.trace_id, after.span_id, after.parent_id) == (before.trace_id, before.span_id, before.parent_id)
        assert (after.name, after.kind) == (before.name, before.kind)
        assert (after.status_code, after.status_message) == (before.status_code, before.status_message)
        assert (after.start_ns, after.end_ns) == (before.start_ns, before.end_ns)
        # Attributes: equal, except the values redaction removes (the one rewrite, and said so).
        assert after.attributes == redacted(before.attributes)
        for key, value in before.attributes.items():
            if after.attributes[key] != value:  # the whole value, or a credential's shape inside a text (OpenLIT's
                # repr of the SDK's objects: "_progress_token=None")
                assert after.attributes[key] == REDACTED or REDACTED in after.attributes[key]
                rewritten_attributes += 1
        assert after.events == redacted(before.events)
        assert after.links == before.links
        assert (after.dropped_events, after.dropped_links) == (before.dropped_events, before.dropped_links)
        assert now["resource"] == redacted(was["resource"])
        assert now["scope"] == was["scope"]
    # The traces hold things the comparison must have seen: ids of both sides of a call, exception events.
    assert any(entry["span"].events for entry in original.values()) or fixture in EVENTLESS
    services = {entry["resource"].get("service.name") for entry in again.values()}
    assert services == {"support-agent", "weather-mcp-server"}, "the server sides come back as spans of their own"
    if fixture == "mcp_sdk.jsonl":
        assert rewritten_attributes == 0, "nothing in this trace is a credential"


def test_each_resource_and_scope_is_one_group(store: RunStore, tmp_path: Path) -> None:
    import_trace(store, FIXTURES / "mcp_sdk.jsonl")
    document = json.loads(exported(store, tmp_path, "again.json").read_text(encoding="utf-8"))
    services = [next(item["value"]["stringValue"] for item in group["resource"]["attributes"]
                     if item["key"] == "service.name") for group in document["resourceSpans"]]
    assert sorted(services) == ["support-agent", "weather-mcp-server"], "no resource of ours, none repeated"
    agent = document["resourceSpans"][services.index("support-agent")]
    assert sorted(group["scope"]["name"] for group in agent["scopeSpans"]) == ["mcp-python-sdk", "support-agent"]


def test_a_resource_is_written_once_where_the_runs_allow_it(store: RunStore, tmp_path: Path) -> None:
    """Writing each run's spans in the order of its steps repeats a scope where a run goes back to it
    (pydantic-ai between the mcp SDK and FastMCP), not the resources: the runs are merged around them."""
    for fixture in REAL_TRACES:
        import_trace(store, FIXTURES / fixture)
    document = json.loads(exported(store, tmp_path, "again.json").read_text(encoding="utf-8"))
    resources = [json.dumps(group["resource"], sort_keys=True) for group in document["resourceSpans"]]
    assert len(resources) == len(set(resources))
    scopes = sum(len(group["scopeSpans"]) for group in document["resourceSpans"])
    assert scopes <= sum(len(group["scopeSpans"]) for fixture in REAL_TRACES
                         for group in json.loads(exported_alone(fixture, tmp_path).read_text())["resourceSpans"])


def exported_alone(fixture: str, tmp_path: Path) -> Path:
    alone = RunStore.open(str(tmp_path / f"{fixture}.db"))
    try:
        import_trace(alone, FIXTURES / fixture)
        return exported(alone, tmp_path, f"{fixture}.json")
    finally:
        alone.close()


def test_a_secret_in_an_attribute_is_redacted_and_nothing_else_changes(store: RunStore, tmp_path: Path) -> None:
    trace = "5b8efff798038103d269b633813fc60c"
    record = {"traceId": trace, "spanId": "eee19b7ec3c1b174",
              "name": "MCP send tools/call lookup", "kind": 3, "startTimeUnixNano": "1700000000000000000",
              "endTimeUnixNano": "1700000000500000000",
              "attributes": [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
                             {"key": "http.request.header.authorization", "value": {"stringValue": "Bearer s3cr3t"}},
                             {"key": "retries", "value": {"intValue": "2"}},
                             {"key": "ratio", "value": {"doubleValue": 0.5}},
                             {"key": "tags", "value": {"arrayValue": {"values": [{"stringValue": "a"}]}}},
                             {"key": "nested", "value": {"kvlistValue": {"values": [
                                 {"key": "flag", "value": {"boolValue": True}}]}}}]}
    child = {"traceId": trace, "spanId": "aaa19b7ec3c1b174", "parentSpanId": "eee19b7ec3c1b174",
             "name": "work", "kind": "SPAN_KIND_INTERNAL", "startTimeUnixNano": "1700000000100000000",
             "status": {"code": 2, "message": "upstream 503"},
             "events": [{"name": "exception", "timeUnixNano": "1700000000200000000",
                         "attributes": [{"key": "exception.type", "value": {"stringValue": "HTTPError"}}]}],
             "droppedEventsCount": 3,
             "links": [{"traceId": "0af7651916cd43dd8448eb211c80319c", "spanId": "b7ad6b7169203331",
                        "traceState": "rojo=00f067aa0ba902b7",
                        "attributes": [{"key": "link.kind", "value": {"stringValue": "follows"}}]}]}
    source = tmp_path / "secret.json"
    source.write_text(json.dumps({"resourceSpans": [{"resource": {"attributes": [
        {"key": "service.name", "value": {"stringValue": "agent"}}]}, "scopeSpans": [
            {"scope": {"name": "agent-lib", "version": "2.1"}, "spans": [record, child]}]}]}))
    original = spans_of(source)
    import_trace(store, source)
    text = exported(store, tmp_path, "again.json").read_text(encoding="utf-8")
    assert "s3cr3t" not in text
    again = spans_of(tmp_path / "again.json")
    after = again["eee19b7ec3c1b174"]["span"]
    assert after.attributes == {"mcp.method.name": "tools/call", "http.request.header.authorization": REDACTED,
                                "retries": 2, "ratio": 0.5, "tags": ["a"], "nested": {"flag": True}}
    assert after.name == "MCP send tools/call lookup" and after.parent_id == ""
    assert again["aaa19b7ec3c1b174"] == original["aaa19b7ec3c1b174"]  # unfinished, with its event and link
    assert again["aaa19b7ec3c1b174"]["span"].end_ns is None and again["aaa19b7ec3c1b174"]["span"].dropped_events == 3
    assert again["aaa19b7ec3c1b174"]["scope"] == ("agent-lib", "2.1", {})


# -- what we add, and reading it back ---------------------------------------------------------------

def test_notes_are_added_to_the_spans_and_read_back_as_notes(store: RunStore, tmp_path: Path) -> None:
    import_trace(store, FIXTURES / "traceloop.jsonl")
    (run,) = store.list_runs(limit=None)
    write_run_note(store, run.id, "customer ticket 4711")
    first = next(iter(store.iter_steps(run.id)))
    write_step_note(store, step_id_of(store, run.id, first.sequence), "this is where it hangs")
    target = exported(store, tmp_path, "noted.json")

    spans = spans_of(target)
    noted_runs = [entry["span"] for entry in spans.values() if RUN_NOTE in entry["span"].attributes]
    assert [span.attributes[RUN_NOTE] for span in noted_runs] == ["customer ticket 4711"]
    assert noted_runs[0].parent_id == "", "the run's note goes on the root span"
    noted_steps = [entry["span"] for entry in spans.values() if STEP_NOTE in entry["span"].attributes]
    assert [span.span_id for span in noted_steps] == [first.payload["raw"]["otlp"]["spanId"]]
    original = spans_of(FIXTURES / "traceloop.jsonl")
    for span_id, entry in spans.items():  # added, nothing else changed
        attributes = {key: value for key, value in entry["span"].attributes.items() if key not in (RUN_NOTE, STEP_NOTE)}
        assert attributes == redacted(original[span_id]["span"].attributes)

    fresh = RunStore.open(str(tmp_path / "fresh.db"))
    try:
        import_trace(fresh, target)
        (again,) = fresh.list_runs(limit=None)
        assert again.uid == run.uid and again.note == "customer ticket 4711"
        steps = {step.payload["raw"]["otlp"]["spanId"]: step for step in fresh.iter_steps(again.id)}
        noted = steps[first.payload["raw"]["otlp"]["spanId"]]
        assert noted.payload["note"] == "this is where it hangs"
        # the notes are taken off the spans again: raw.otlp is the source's span
        for step in steps.values():
            assert RUN_NOTE not in step.payload["raw"]["otlp"]["attributes"]
            assert STEP_NOTE not in step.payload["raw"]["otlp"]["attributes"]
    finally:
        fresh.close()


# -- importing the export again ---------------------------------------------------------------------

def steps_by_span(store: RunStore) -> dict[str, tuple[str, str, dict[str, Any]]]:
    found = {}
    for run in store.list_runs(limit=None):
        for step in store.iter_steps(run.id):
            found[step.payload["raw"]["otlp"]["spanId"]] = (run.uid, step.outcome, step.payload)
    return found


def runs_of(store: RunStore) -> list[tuple[Any, ...]]:
    return sorted((run.uid, run.title, run.source, run.server, run.status, run.started_at, run.finished_at)
                  for run in store.list_runs(limit=None))


@pytest.mark.parametrize("fixture", REAL_TRACES)
def test_importing_the_export_gives_the_same_runs(store: RunStore, tmp_path: Path, fixture: str) -> None:
    import_trace(store, FIXTURES / fixture)
    target = exported(store, tmp_path, "again.json")

    report = import_trace(store, target)  # the same database: the runs are there already
    assert report.runs_imported == 0 and len(report.already_present) == len(store.list_runs(limit=None))

    fresh = RunStore.open(str(tmp_path / "fresh.db"))
    try:
        import_trace(fresh, target)
        assert runs_of(fresh) == runs_of(store)
        before, after = steps_by_span(store), steps_by_span(fresh)
        assert set(after) == set(before)
        for span_id, (uid, outcome, payload) in before.items():
            assert after[span_id] == (uid, outcome, redacted(payload))
        # and the timeline reads in the same order
        order = [[step.payload["raw"]["otlp"]["spanId"] for step in db.iter_steps(run.id)]
                 for db in (store, fresh) for run in sorted(db.list_runs(limit=None), key=lambda run: run.uid)]
        half = len(order) // 2
        assert order[:half] == order[half:]
    finally:
        fresh.close()


@pytest.mark.parametrize("fixture", REAL_TRACES)
def test_our_format_keeps_raw_otlp_and_so_the_spans(store: RunStore, tmp_path: Path, fixture: str) -> None:
    import_trace(store, FIXTURES / fixture)
    ours = exported(store, tmp_path, "ours.json", "trace")
    fresh = RunStore.open(str(tmp_path / "fresh.db"))
    try:
        import_trace(fresh, ours)
        before, after = steps_by_span(store), steps_by_span(fresh)
        assert set(after) == set(before)
        for span_id, (_, _, payload) in before.items():
            assert after[span_id][2]["raw"]["otlp"] == redacted(payload["raw"]["otlp"])
        # ...so that an OTLP export from there is still the customer's trace
        original = spans_of(FIXTURES / fixture)
        again = spans_of(exported(fresh, tmp_path, "again.json"))
        assert set(again) == set(original)
        for span_id, was in original.items():
            assert again[span_id]["span"] == was["span"].__class__(
                **{**was["span"].__dict__, "attributes": redacted(was["span"].attributes),
                   "events": redacted(was["span"].events)})
    finally:
        fresh.close()


def test_our_own_runs_export_as_before_beside_a_foreign_one(store: RunStore, tmp_path: Path) -> None:
    fill(store)
    alone = json.loads(exported(store, tmp_path, "ours.json").read_text(encoding="utf-8"))
    import_trace(store, FIXTURES / "mcp_sdk.jsonl")
    mixed = json.loads(exported(store, tmp_path, "mixed.json").read_text(encoding="utf-8"))
    assert mixed["resourceSpans"][0] == alone["resourceSpans"][0], "our runs: the same spans as before"
    others = [span for group in mixed["resourceSpans"][1:] for scope in group["scopeSpans"] for span in scope["spans"]]
    assert len(others) == len(spans_of(FIXTURES / "mcp_sdk.jsonl"))
    assert not any(item["key"] == SPAN_ROLE for span in others for item in span["attributes"])
    # and the whole file still parses with the official protobuf definitions
    data = json_format.Parse((tmp_path / "mixed.json").read_text(encoding="utf-8"), TracesData())
    assert len(data.resource_spans) == 3


def test_a_step_imported_before_times_and_resources_were_kept_is_written_from_what_it_has(
        store: RunStore, tmp_path: Path) -> None:
    trace = "0af7651916cd43dd8448eb211c80319c"
    older = {"name": "tools/list", "traceId": trace, "spanId": "b7ad6b7169203331", "parentSpanId": "",
             "kind": 2, "status": {"code": 0, "message": ""}, "attributes": {"mcp.method.name": "tools/list"}}
    document = {"format": "run-inspector-trace", "version": 1, "runs": [{
        "uid": f"otlp-{trace}", "title": "tools/list", "source": "imported", "server": None, "status": "ok",
        "started_at": "2026-03-01T10:00:00.000000+00:00", "finished_at": "2026-03-01T10:00:01.000000+00:00",
        "steps": [{"sequence": 1, "started_at": "2026-03-01T10:00:00.250000+00:00",
                   "payload": {"kind": "request", "round": 0, "durationMs": 12.5, "content": "tools/list",
                               "raw": {"otlp": older}}}]}]}
    source = tmp_path / "older.json"
    source.write_text(json.dumps(document), encoding="utf-8")
    import_trace(store, source)
    (entry,) = spans_of(exported(store, tmp_path, "again.json")).values()
    span = entry["span"]
    assert (span.trace_id, span.span_id, span.parent_id, span.name, span.kind) == (trace, "b7ad6b7169203331", "",
                                                                                  "tools/list", 2)
    assert span.attributes == {"mcp.method.name": "tools/list"}
    assert span.start_ns == 1_772_359_200_250_000_000 and span.end_ns - span.start_ns == 12_500_000


# -- no span is lost, whatever the shape ----------------------------------------------------------

def _shapes(seed: int) -> dict[str, Any]:
    """Traces of made-up MCP spans in odd shapes: server sides under a session's span, several under
    one client call, clients and servers in any order in the file, plumbing between them."""
    import random

    from test_trace_support import attr, otlp_doc, span

    chooser = random.Random(seed)
    spans: list[dict[str, Any]] = []
    for trace in range(6):
        trace_id = f"{seed + 1:08x}{trace + 1:08x}" + "ab" * 8
        made = [f"{trace + 1:04x}{1:012x}"]
        spans.append(span(trace_id, made[0], name="agent"))
        for number in range(1, chooser.randint(2, 12)):
            span_id = f"{trace + 1:04x}{number + 1:012x}"
            kind = chooser.choice([1, 2, 3])
            method = chooser.choice(["tools/call", "initialize", "tools/list", None])
            attributes = [attr("mcp.method.name", method)] if method else []
            if method and chooser.random() < 0.5:
                attributes.append(attr("jsonrpc.request.id", str(chooser.randint(1, 3))))
            name = chooser.choice([f"tools/call t{number}", f"MCP send tools/call t{number}", "ResponseStreamWriter",
                                   "session"])
            parent = chooser.choice(made[:1] + made[-3:])
            spans.append(span(trace_id, span_id, parent=parent, name=name, kind=kind, attributes=attributes))
            made.append(span_id)
    chooser.shuffle(spans)
    return otlp_doc(*spans)


@pytest.mark.parametrize("seed", range(12))
def test_no_span_is_lost_whatever_the_shape(store: RunStore, tmp_path: Path, seed: int) -> None:
    """Two server sides under one parent (a session's span, a stream's) kept only the last: the
    others were gone from the import, the window and the export, and nothing said so."""
    source = tmp_path / "shapes.json"
    source.write_text(json.dumps(_shapes(seed)), encoding="utf-8")
    original = spans_of(source)
    import_trace(store, source)
    again = spans_of(exported(store, tmp_path, "again.json"))
    assert set(again) == set(original)
    for span_id, was in original.items():
        assert again[span_id]["span"].parent_id == was["span"].parent_id


def test_a_span_id_written_twice_in_a_trace_keeps_the_first_span(store: RunStore, tmp_path: Path) -> None:
    """A span written again (a collector's retry, a file appended twice) is one span; another span under
    an id its trace had already is left out too (an id names one span: the first is kept, as the
    receiver keeps it). The report counts both kinds."""
    from test_trace_support import attr, otlp_doc, span, write_json

    trace_id = "c" * 32
    calls = [span(trace_id, "2" * 16, parent="1" * 16, name=f"MCP send tools/call t{number}", kind=3,
                  attributes=[attr("mcp.method.name", "tools/call")]) for number in (1, 2)]
    report = import_trace(store, write_json(tmp_path / "twice.json",
                                            otlp_doc(span(trace_id, "1" * 16, name="agent"), calls[0], *calls,
                                                     span(trace_id, "1" * 16, name="agent"))))
    assert report.steps_imported == 2
    assert (report.spans_repeated, report.spans_clashing) == (2, 1)
    (run,) = store.list_runs(limit=None)
    assert sorted(step.payload.get("toolName") or "" for step in store.iter_steps(run.id)) == ["", "t1"]


def step_numbers(store: RunStore) -> dict[tuple[str, str], int]:
    """(run uid, span id) → the step's number, as `runs show`'s # column, `replay RUN:STEP` and
    `runs note --step` take it."""
    return {(run.uid, step.payload["raw"]["otlp"]["spanId"]): step.sequence
            for run in store.list_runs(limit=None) for step in store.iter_steps(run.id)}


def the_longest_run(store: RunStore) -> tuple[int, int]:
    """The run with the most steps (the one a ticket is about) and its step 5, or its last."""
    run = max(store.list_runs(limit=None), key=lambda run: (len(list(store.iter_steps(run.id))), run.uid))
    numbers = [step.sequence for step in store.iter_steps(run.id)]
    return run.id, 5 if 5 in numbers else max(numbers)


@pytest.mark.parametrize("fixtures", [[name] for name in REAL_TRACES] + [REAL_TRACES])
def test_a_second_import_of_the_export_numbers_the_steps_as_the_first(store: RunStore, tmp_path: Path,
                                                                        fixtures: list[str]) -> None:
    """A support engineer writes "step 5" in the ticket; whoever imports the OTLP export finds the same
    call under step 5 (the mcp SDK's agent span, the trace's root, was step 7 and came back as step 1:
    the export wrote the spans by time). Several runs in one file keep theirs too, and so does a run
    whose spans go back and forth between scopes (pydantic-ai's between the mcp SDK's and FastMCP's
    in one service: the scopes written one after the other numbered its chat step 6 as 12)."""
    for fixture in fixtures:
        import_trace(store, FIXTURES / fixture)
    run_id, number = the_longest_run(store)
    write_step_note(store, step_id_of(store, run_id, number), "the client gave up; the server finished")
    write_run_note(store, run_id, "ticket 4711")
    target = exported(store, tmp_path, "again.json")
    fresh = RunStore.open(str(tmp_path / "fresh.db"))
    try:
        import_trace(fresh, target)
        assert step_numbers(fresh) == step_numbers(store)
        again = next(run for run in fresh.list_runs(limit=None) if run.uid == store.get_run(run_id).uid)
        assert fresh.step_at(again.id, number).payload["note"] == "the client gave up; the server finished"
        assert again.note == "ticket 4711"
    finally:
        fresh.close()


def test_a_server_batch_between_the_agents_keeps_the_numbers(store: RunStore, tmp_path: Path) -> None:
    """The server's batch came between the agent's two (as a Collector writes batches as they arrive): its
    spans took places in the trace, so the agent's second batch is numbered after them (from 17). The
    export puts server sides in those places again, not all after the agent's spans."""
    lines = (FIXTURES / "pydantic_ai.jsonl").read_text(encoding="utf-8").splitlines()
    source = tmp_path / "server_between.jsonl"
    source.write_text("\n".join([lines[0], lines[2], lines[1]]) + "\n", encoding="utf-8")
    import_trace(store, source)
    (run,) = store.list_runs(limit=None)
    numbers = sorted(step.sequence for step in store.iter_steps(run.id))
    assert numbers[:10] == list(range(1, 11)) and numbers[10] == 17, "the server's spans took 11 to 16"
    write_step_note(store, step_id_of(store, run.id, 17), "here")
    fresh = RunStore.open(str(tmp_path / "fresh.db"))
    try:
        import_trace(fresh, exported(store, tmp_path, "again.json"))
        assert step_numbers(fresh) == step_numbers(store)
        assert fresh.step_at(fresh.list_runs(limit=None)[0].id, 17).payload["note"] == "here"
    finally:
        fresh.close()
    assert set(spans_of(tmp_path / "again.json")) == set(spans_of(source))


def test_spans_that_joined_a_run_of_ours_keep_their_numbers_after_its_steps(store: RunStore, tmp_path: Path) -> None:
    """A gateway joined the run's trace and called another MCP server: the gateway's client span and that
    server's span are one step, the server span's place in the file no step's number. Exported with the
    run and imported again, every step has its number (the run's own first)."""
    from test_trace_support import attr, span, write_json

    from inspector.runs.trace_ids import leg_span_id, trace_id

    run_id = fill(store)[0]
    uid = store.get_run(run_id).uid
    trace, leg = trace_id(uid), leg_span_id(uid, 2, 0)
    call = [attr("mcp.method.name", "tools/call"), attr("jsonrpc.request.id", "7")]
    gateway = [span(trace, "a1" * 8, parent=leg, name="tools/call echo", kind=2, attributes=call),
               span(trace, "a2" * 8, parent="a1" * 8, name="MCP send tools/call echo", kind=3, attributes=call)]
    downstream = [span(trace, "b1" * 8, parent="a2" * 8, name="tools/call echo", kind=2, attributes=call)]
    after = [span(trace, "a3" * 8, parent="a1" * 8, name="render answer", kind=1)]

    def group(service: str, spans: list[dict[str, Any]]) -> dict[str, Any]:
        return {"resource": {"attributes": [attr("service.name", service)]},
                "scopeSpans": [{"scope": {"name": "mcp-python-sdk"}, "spans": spans}]}

    source = write_json(tmp_path / "gateway.json", {"resourceSpans": [
        group("gateway", gateway), group("weather", downstream), group("gateway", after)]})
    import_trace(store, source)
    ours = [(step.sequence, step.payload.get("raw", {}).get("otlp", {}).get("spanId"))
            for step in store.iter_steps(run_id)]
    own = max(sequence for sequence, span_id in ours if span_id is None)
    assert sorted((sequence, span_id) for sequence, span_id in ours if span_id) == [
        (own + 1, "a1" * 8), (own + 2, "a2" * 8), (own + 4, "a3" * 8)], "the server side took a place"
    fresh = RunStore.open(str(tmp_path / "fresh.db"))
    try:
        import_trace(fresh, exported(store, tmp_path, "again.json"))
        again = fresh.find_run_by_uid(uid)
        assert sorted((step.sequence, step.payload.get("raw", {}).get("otlp", {}).get("spanId"))
                      for step in fresh.iter_steps(again.id)) == sorted(ours)
    finally:
        fresh.close()
