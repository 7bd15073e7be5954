"""NaN and the infinities sent to the receiver: none of them may reach the database as a number, where
it made the run impossible to export (``ValueError: Out of range float values are not JSON compliant``,
for the run and for every export of all runs). Real HTTP to a real receiver on 127.0.0.1, a real
SQLite file, the real export."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from inspector.capture import ReceiverOptions, TraceReceiver
from inspector.store import RunStore
from inspector.transfer import export

JSON = {"Content-Type": "application/json"}
PROTOBUF = {"Content-Type": "application/x-protobuf"}
TRACE = "0af7651916cd43dd8448eb211c80319c"


def _body(value: str) -> bytes:
    """One span whose attribute ``ratio`` is the double ``value``, spelled into the JSON text as it is."""
    return ('{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"' + TRACE + '","spanId":"b7ad6b7169203331",'
            '"name":"score","startTimeUnixNano":"1","endTimeUnixNano":"2","attributes":[{"key":"ratio",'
            '"value":{"doubleValue":' + value + '}}]}]}]}]}').encode()


@pytest.fixture
def receiver(tmp_path: Path) -> Iterator[TraceReceiver]:
    with TraceReceiver(tmp_path / "received.db", ReceiverOptions(port=0, quiet_s=0.4)) as running:
        yield running


def _ratio_and_export(db: Path, tmp_path: Path) -> object:
    """The stored attribute, after exporting every run in both formats (which raised before)."""
    with RunStore.open(db) as store:
        for kind in ("trace", "otlp"):
            export(store, None, None, tmp_path / f"all.{kind}.json", kind)
        (step,) = list(store.iter_steps(store.list_runs()[0].id))
    return step.payload["raw"]["otlp"]["attributes"]["ratio"]


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
def test_a_json_body_with_nan_or_infinity_is_not_json_and_is_refused(receiver: TraceReceiver, value: str) -> None:
    answer = httpx.post(receiver.url, content=_body(value), headers=JSON, timeout=10)
    assert answer.status_code == 400, answer.text
    assert answer.json()["message"] == f"The body is not valid JSON ({value} is not a JSON value)."
    with RunStore.open(receiver.db_path) as store:
        assert store.list_runs() == []


def test_a_number_too_large_for_a_double_is_refused_as_a_span(receiver: TraceReceiver) -> None:
    answer = httpx.post(receiver.url, content=_body("1e999"), headers=JSON, timeout=10)
    assert answer.status_code == 200, answer.text
    said = answer.json()["partialSuccess"]
    assert said["rejectedSpans"] == "1" and "doubleValue: must be a number" in said["errorMessage"]


@pytest.mark.parametrize(("number", "kept"), [(float("nan"), "NaN"), (float("inf"), "Infinity"),
                                              (float("-inf"), "-Infinity")])
def test_a_protobuf_nan_is_kept_as_protobufs_json_spells_it_and_the_run_exports(
        receiver: TraceReceiver, tmp_path: Path, number: float, kept: str) -> None:
    request = ExportTraceServiceRequest()
    span = request.resource_spans.add().scope_spans.add().spans.add()
    span.trace_id, span.span_id, span.name = bytes.fromhex(TRACE), bytes.fromhex("b7ad6b7169203331"), "score"
    span.start_time_unix_nano, span.end_time_unix_nano = 1, 2
    attribute = span.attributes.add()
    attribute.key, attribute.value.double_value = "ratio", number
    answer = httpx.post(receiver.url, content=request.SerializeToString(), headers=PROTOBUF, timeout=10)
    assert answer.status_code == 200 and answer.content == b""
    receiver.stop()
    assert _ratio_and_export(receiver.db_path, tmp_path) == kept


def test_a_file_holding_protobufs_json_spelling_of_nan_imports(tmp_path: Path) -> None:
    """What the OpenTelemetry Collector's file exporter writes for a NaN double; the whole file was refused
    before ("doubleValue: must be a number, got the string 'NaN'")."""
    from inspector.transfer import import_trace

    path = tmp_path / "collector.json"
    path.write_bytes(_body('"NaN"'))
    with RunStore.open(tmp_path / "runs.db") as store:
        assert import_trace(store, path).runs_imported == 1
    assert _ratio_and_export(tmp_path / "runs.db", tmp_path) == "NaN"


def test_a_database_holding_an_infinity_from_before_exports_again(tmp_path: Path) -> None:
    """A run received before the receiver refused them holds the number itself (SQLite's JSON text
    ``Infinity``); every export of it (and of all runs) raised ValueError. Now written as the text."""
    from inspector.transfer import import_trace

    path = tmp_path / "one.json"
    path.write_bytes(_body("1.5"))
    with RunStore.open(tmp_path / "runs.db") as store:
        import_trace(store, path)
    with sqlite3.connect(tmp_path / "runs.db") as conn:  # as the receiver stored it before
        conn.execute("""UPDATE steps SET payload = replace(payload, '"ratio":1.5', '"ratio":Infinity')""")
    with RunStore.open(tmp_path / "runs.db") as store:
        (step,) = list(store.iter_steps(store.list_runs()[0].id))
        assert step.payload["raw"]["otlp"]["attributes"]["ratio"] == float("inf")
    assert _ratio_and_export(tmp_path / "runs.db", tmp_path) == float("inf")
    written = (tmp_path / "all.otlp.json").read_text()
    assert '"doubleValue":"Infinity"' in written
    with RunStore.open(tmp_path / "again.db") as store:  # and that export imports
        assert import_trace(store, tmp_path / "all.otlp.json").runs_imported == 1
