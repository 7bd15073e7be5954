"""OTLP JSON: what the export writes (checked with the official protobuf definitions) and how
spans from other tools, JSON Lines and lists of objects import."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from google.protobuf import json_format
from opentelemetry.proto.trace.v1.trace_pb2 import TracesData
from test_trace_support import LLM_PAYLOAD, TOOL_PAYLOAD, attr, fill, otlp_doc, snapshot, span, write_json

from inspector.store import RunStore
from inspector.traces import otlp
from inspector.transfer.exporting import export
from inspector.transfer.importing import import_trace

TRACE = "5b8efff798038103d269b633813fc60c"


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    opened = RunStore.open(tmp_path / "runs.db")
    yield opened
    opened.close()


@pytest.fixture
def exported(tmp_path: Path) -> tuple[Path, RunStore]:
    source = RunStore.open(tmp_path / "source.db")
    fill(source)
    path = tmp_path / "runs.otlp.json"
    export(source, None, None, path, format="otlp")
    yield path, source
    source.close()


def spans_of(path: Path) -> list[dict]:
    return [s for rs in json.loads(path.read_text())["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]]


def attributes(record: dict) -> dict:
    return {a["key"]: next(iter(a["value"].values())) for a in record["attributes"]}


def test_the_export_parses_with_the_official_protobuf_definitions(exported: tuple[Path, RunStore]) -> None:
    path, _ = exported
    data = json_format.Parse(path.read_text(encoding="utf-8"), TracesData())
    (resource_spans,) = data.resource_spans
    assert resource_spans.resource.attributes[0].key == "service.name"
    assert resource_spans.resource.attributes[0].value.string_value == "run-inspector"
    (scope_spans,) = resource_spans.scope_spans
    assert scope_spans.scope.name == "run-inspector"
    assert len(scope_spans.spans) == 3 + 8 + 6  # runs, steps, legs
    assert all(s.start_time_unix_nano > 0 for s in scope_spans.spans)


def test_runs_are_traces_steps_children_of_the_run_and_legs_children_of_their_step(
        exported: tuple[Path, RunStore]) -> None:
    path, source = exported
    spans = spans_of(path)
    by_id = {s["spanId"]: s for s in spans}
    runs = [s for s in spans if attributes(s)["run_inspector.span"] == "run"]
    assert {attributes(r)["run_inspector.run.uid"] for r in runs} == {r.uid for r in source.list_runs(limit=None)}
    for run in runs:
        uid = attributes(run)["run_inspector.run.uid"]
        assert run["traceId"] == otlp.trace_id(uid) and len(run["traceId"]) == 32 and "parentSpanId" not in run
    for record in spans:
        role = attributes(record)["run_inspector.span"]
        int(record["startTimeUnixNano"]), int(record.get("endTimeUnixNano", "0"))  # strings of digits
        assert isinstance(record["startTimeUnixNano"], str)
        if role == "step":
            assert attributes(by_id[record["parentSpanId"]])["run_inspector.span"] == "run"
        if role == "leg":
            parent = by_id[record["parentSpanId"]]
            assert attributes(parent)["run_inspector.span"] == "step" and parent["traceId"] == record["traceId"]
            assert record["kind"] == otlp.KIND_CLIENT


def test_failed_is_an_error_and_cancelled_is_not(exported: tuple[Path, RunStore]) -> None:
    path, _ = exported
    tool_steps = [s for s in spans_of(path) if attributes(s).get("run_inspector.step.kind") == "tool"]
    failed = [s for s in tool_steps if attributes(s).get("run_inspector.outcome") == "failed"]
    cancelled = [s for s in tool_steps if attributes(s).get("run_inspector.outcome") == "cancelled"]
    assert failed and all(s["status"]["code"] == otlp.STATUS_ERROR for s in failed)
    assert cancelled and all(s.get("status", {}).get("code", 0) == otlp.STATUS_UNSET for s in cancelled)
    assert all(attributes(s)["error.type"] == "cancelled" for s in cancelled)
    echo = next(s for s in tool_steps if s["name"] == "execute_tool echo")
    assert int(echo["endTimeUnixNano"]) - int(echo["startTimeUnixNano"]) == 17_250_000
    assert attributes(echo)["gen_ai.tool.name"] == "echo"


def test_a_step_span_ends_its_duration_after_it_starts(exported: tuple[Path, RunStore]) -> None:
    path, _ = exported
    for record in spans_of(path):
        if attributes(record)["run_inspector.span"] == "step":
            payload = json.loads(attributes(record)["run_inspector.step.payload"])
            length = int(record["endTimeUnixNano"]) - int(record["startTimeUnixNano"])
            assert length == round(payload["durationMs"] * 1_000_000)


def test_export_twice_gives_the_same_ids(exported: tuple[Path, RunStore], tmp_path: Path) -> None:
    path, source = exported
    export(source, None, None, tmp_path / "again.json", format="otlp")
    ids = [(s["traceId"], s["spanId"]) for s in spans_of(path)]
    assert ids == [(s["traceId"], s["spanId"]) for s in spans_of(tmp_path / "again.json")]
    assert len(set(ids)) == len(ids)


def _foreign(unfinished_end: str | None = None) -> dict:
    root = span(TRACE, "eee19b7ec3c1b174", name="agent run", end="1700000005000000000")
    chat = span(TRACE, "eee19b7ec3c1b175", parent="eee19b7ec3c1b174", name="chat gpt-4o",
                start="1700000000100000000", end="1700000001100000000",
                attributes=[attr("gen_ai.operation.name", "chat"), attr("gen_ai.usage.input_tokens", 120),
                            attr("gen_ai.usage.output_tokens", 30)])
    failed = span(TRACE, "eee19b7ec3c1b176", parent="eee19b7ec3c1b174", name="execute_tool search",
                  start="1700000001200000000", end="1700000001500000000", status={"code": 2, "message": "boom"},
                  attributes=[attr("gen_ai.tool.name", "search")])
    hanging = span(TRACE, "eee19b7ec3c1b177", parent="eee19b7ec3c1b174", name="execute_tool slow",
                   start="1700000001600000000", end=unfinished_end, attributes=[attr("gen_ai.tool.name", "slow")])
    request = span(TRACE, "eee19b7ec3c1b178", parent="eee19b7ec3c1b174", name="GET /health",
                   start="1700000001700000000", end=None)
    return otlp_doc(root, chat, failed, hanging, request)


def test_foreign_spans_become_steps_of_one_run_per_trace(store: RunStore, tmp_path: Path) -> None:
    report = import_trace(store, write_json(tmp_path / "theirs.json", _foreign()))
    (run,) = store.list_runs(limit=None)
    assert report.imported_uids == (f"otlp-{TRACE}",)
    assert (run.title, run.server, run.status, run.source) == ("agent run", "agent-svc", "failed", "imported")
    assert run.started_at.isoformat() == "2023-11-14T22:13:20+00:00"
    assert run.finished_at.isoformat() == "2023-11-14T22:13:25+00:00"
    steps = list(store.iter_steps(run.id))
    assert [s.payload["kind"] for s in steps] == ["request", "llm", "tool", "tool", "request"]
    assert [s.outcome for s in steps] == ["", "", "failed", "", ""]
    assert steps[1].payload["promptTokens"] == 120 and steps[1].payload["durationMs"] == 1000.0
    assert steps[2].payload["toolName"] == "search" and steps[2].payload["toolResult"] == "failed: boom"
    assert steps[2].payload["raw"]["otlp"]["spanId"] == "eee19b7ec3c1b176"


def test_a_span_without_an_end_is_an_unfinished_step_of_no_length(store: RunStore, tmp_path: Path) -> None:
    import_trace(store, write_json(tmp_path / "theirs.json", _foreign(unfinished_end="0")))
    (run,) = store.list_runs(limit=None)
    hanging, request = list(store.iter_steps(run.id))[3:]
    for step in (hanging, request):
        assert step.payload["durationMs"] == 0 and step.outcome == ""
        assert step.payload["raw"]["otlp"]["unfinished"] is True
    assert hanging.payload["toolResult"] == otlp.UNFINISHED_NOTE
    assert "unfinished" in request.payload["content"]
    assert "toolIsError" not in hanging.payload


def test_a_root_span_without_an_end_makes_an_interrupted_run(store: RunStore, tmp_path: Path) -> None:
    doc = otlp_doc(span(TRACE, "eee19b7ec3c1b174", name="still going", end=None))
    import_trace(store, write_json(tmp_path / "t.json", doc))
    (run,) = store.list_runs(limit=None)
    assert run.status == "interrupted" and run.finished_at is None


def test_json_lines_spread_one_trace_over_many_lines(store: RunStore, tmp_path: Path) -> None:
    spans = _foreign()["resourceSpans"][0]["scopeSpans"][0]["spans"]
    lines = [json.dumps(otlp_doc(record)) for record in spans]
    path = tmp_path / "collector.jsonl"
    path.write_text("\n".join(lines[:2]) + "\n\n" + "\n".join(lines[2:]) + "\n")
    report = import_trace(store, path)
    assert report.runs_imported == 1 and report.steps_imported == 5
    assert import_trace(store, path).already_present == (f"otlp-{TRACE}",)


def test_a_list_of_otlp_objects_imports_like_one(store: RunStore, tmp_path: Path) -> None:
    spans = _foreign()["resourceSpans"][0]["scopeSpans"][0]["spans"]
    report = import_trace(store, write_json(tmp_path / "list.json", [otlp_doc(s) for s in spans]))
    assert report.runs_imported == 1 and report.steps_imported == 5


def test_our_export_in_json_lines_form_round_trips(exported: tuple[Path, RunStore], store: RunStore,
                                                   tmp_path: Path) -> None:
    # As a collector would write it: one TracesData per line, spans in any grouping.
    path, source = exported
    lines = [json.dumps(otlp_doc(record, service="run-inspector")) for record in reversed(spans_of(path))]
    (tmp_path / "lines.jsonl").write_text("\n".join(lines) + "\n")
    import_trace(store, tmp_path / "lines.jsonl")
    assert snapshot(store) == snapshot(source)


def test_ids_and_times_are_read_in_their_json_forms(store: RunStore, tmp_path: Path) -> None:
    doc = otlp_doc(span(TRACE.upper(), "EEE19B7EC3C1B174", start=1700000000000000000, end=1700000002000000000,
                        status={"code": "STATUS_CODE_ERROR"}, kind="SPAN_KIND_SERVER"))
    import_trace(store, write_json(tmp_path / "t.json", doc))
    (run,) = store.list_runs(limit=None)
    assert run.uid == f"otlp-{TRACE}" and run.status == "failed"
    assert next(store.iter_steps(run.id)).payload["durationMs"] == 2000.0


def test_a_run_without_any_times_round_trips_through_otlp(store: RunStore, tmp_path: Path) -> None:
    import_trace(store, write_json(tmp_path / "payloads.json", [LLM_PAYLOAD, TOOL_PAYLOAD]))
    export(store, None, None, tmp_path / "out.json", format="otlp")
    assert {s["startTimeUnixNano"] for s in spans_of(tmp_path / "out.json")} == {"0"}  # unknown, said as 0
    json_format.Parse((tmp_path / "out.json").read_text(), TracesData())
    other = RunStore.open(tmp_path / "other.db")
    try:
        import_trace(other, tmp_path / "out.json")
        assert snapshot(other) == snapshot(store)
        (run,) = other.list_runs(limit=None)
        assert run.started_at is None and run.finished_at is None
    finally:
        other.close()


def test_protobuf_json_mapping_with_base64_ids_imports(store: RunStore, tmp_path: Path) -> None:
    """What the OpenTelemetry Python SDK writes when it turns its protobuf messages into JSON."""
    from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span, Status

    trace = bytes.fromhex(TRACE)
    root, child = bytes.fromhex("eee19b7ec3c1b174"), bytes.fromhex("0102030405060708")
    data = TracesData(resource_spans=[ResourceSpans(scope_spans=[ScopeSpans(spans=[
        Span(trace_id=trace, span_id=root, name="agent run", kind=Span.SPAN_KIND_SERVER,
             start_time_unix_nano=1700000000000000000, end_time_unix_nano=1700000003000000000),
        Span(trace_id=trace, span_id=child, parent_span_id=root, name="tool call",
             start_time_unix_nano=1700000001000000000, end_time_unix_nano=1700000002000000000,
             status=Status(code=Status.STATUS_CODE_ERROR, message="it broke")),
    ])])])
    text = json_format.MessageToJson(data)
    spans = json.loads(text)["resourceSpans"][0]["scopeSpans"][0]["spans"]
    # This mapping writes bytes as base64, not the hex OTLP/JSON asks for.
    assert spans[0]["traceId"] == base64.b64encode(trace).decode() != TRACE
    assert spans[1]["parentSpanId"] == base64.b64encode(root).decode()
    sdk = tmp_path / "sdk.json"
    sdk.write_text(text)
    import_trace(store, sdk)
    (run,) = store.list_runs(limit=None)
    assert run.uid == f"otlp-{TRACE}" and run.title == "agent run"
    steps = list(store.iter_steps(run.id))
    assert len(steps) == 2
    assert {s.payload["raw"]["otlp"]["spanId"] for s in steps} == {"eee19b7ec3c1b174", "0102030405060708"}


def test_our_export_round_trips_through_protobufs_json_mapping(exported: tuple[Path, RunStore], store: RunStore,
                                                               tmp_path: Path) -> None:
    path, original = exported
    doc = json.loads(path.read_text())
    # As the SDK holds them: ids are bytes in the protobuf message, which its JSON mapping writes as base64.
    for record in (s for rs in doc["resourceSpans"] for ss in rs["scopeSpans"] for s in ss["spans"]):
        for key in ("traceId", "spanId", "parentSpanId"):
            if record.get(key):
                record[key] = base64.b64encode(bytes.fromhex(record[key])).decode()
    message = json_format.ParseDict(doc, TracesData())
    assert len(message.resource_spans[0].scope_spans[0].spans[0].trace_id) == 16
    again = tmp_path / "through-protobuf.json"
    again.write_text(json_format.MessageToJson(message))
    assert len(spans_of(again)[0]["traceId"]) == 24  # base64 of 16 bytes
    import_trace(store, again)
    assert snapshot(store) == snapshot(original)


@pytest.mark.parametrize("value", ["W47/95gDgQPSabYzgT/GDA", "not base64 at all!!!!!!", "AAAAAAAAAAAAAAAAAAAAAA=="])
def test_ids_that_are_neither_hex_nor_base64_of_the_right_length_are_refused(value: str) -> None:
    with pytest.raises(otlp.TraceProblem):
        otlp._hex_id(value, 32, ("traceId",))
