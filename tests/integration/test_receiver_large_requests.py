"""A request of many spans of one trace is mapped and written once, not once per slice of 5,000: the writer
takes a large request in slices (other exporters' requests go between them), and each slice maps its traces
again whole, so a 15,000-span trace cut in three was mapped for 30,000 spans (11 s) instead of 15,000 (3 s).

The real SDK's OTLP/HTTP exporter sends to a real receiver on 127.0.0.1 with a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace.export import SpanExportResult
from opentelemetry.trace import Tracer

from inspector.capture import ReceiverOptions, RunReceived, TraceReceiver
from inspector.capture.span_writer import SLICE_SPANS, slices
from inspector.traces.span_batch import HeldSpan
from tests.support.refused_spans import sdk_spans


def test_a_trace_sent_in_one_large_request_is_written_once(tmp_path: Path) -> None:
    def agent(tracer: Tracer) -> None:
        with tracer.start_as_current_span("invoke_agent big-agent"):
            for number in range(SLICE_SPANS + 1_000):
                tracer.start_span(f"step {number}").end()

    spans = sdk_spans(agent)
    written: list[RunReceived] = []
    with TraceReceiver(tmp_path / "runs.db", ReceiverOptions(port=0, quiet_s=600), on_run=written.append) as receiver:
        exporter = OTLPSpanExporter(endpoint=receiver.url, timeout=120)
        assert exporter.export(spans) == SpanExportResult.SUCCESS
        exporter.shutdown()
        assert [(run.status, run.created) for run in written] == [("running", True)]  # once, not once per slice
    with sqlite3.connect(tmp_path / "runs.db") as connection:
        assert connection.execute("SELECT COUNT(*) FROM steps").fetchone()[0] == written[0].steps > SLICE_SPANS


def _held(trace: int, span: int) -> HeldSpan:
    return HeldSpan({}, {}, {"traceId": f"{trace:032x}", "spanId": f"{span:016x}", "name": "tiny"})


def test_a_requests_traces_stay_whole_in_its_slices() -> None:
    small = [_held(index % 3, index) for index in range(SLICE_SPANS)]
    assert slices(small) == [small]  # as it came
    many = [_held(index // 100, index) for index in range(3 * SLICE_SPANS)]  # 150 traces of 100 spans
    assert [len(piece) for piece in slices(many)] == [SLICE_SPANS] * 3  # still cut for the other exporters' sake
    mixed = [_held(index % 2, index) for index in range(SLICE_SPANS + 2)]  # two traces, their spans alternating
    assert [{held.span["traceId"] for held in piece} for piece in slices(mixed)] == [{f"{0:032x}"}, {f"{1:032x}"}]
    assert [held.span["spanId"] for held in slices(mixed)[1]] == [held.span["spanId"] for held in mixed[1::2]]
