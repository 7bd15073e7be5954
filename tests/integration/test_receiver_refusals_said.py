"""Spans the receiver refuses are said where its user reads, not only in the answer's partial_success:
the OpenTelemetry Python SDK's OTLP/HTTP exporter neither reads nor logs partial_success, so a refused
span was missing from its run without a word on either side."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExportResult
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.support.refused_spans import REFUSED, spans_one_backwards


@pytest.mark.parametrize(("language", "said"), [
    ("en", REFUSED),
    ("de", "1 Span einer Anfrage wurde abgelehnt: spans[0].endTimeUnixNano: der Span endet, bevor er beginnt"),
])
def test_the_receive_command_says_refused_spans_the_exporter_does_not(tmp_path: Path, language: str,
                                                                      said: str) -> None:
    errors = _exported(tmp_path, language, spans_one_backwards(), SpanExportResult.SUCCESS)  # all it learns
    assert said in errors.splitlines(), errors


def test_a_batch_over_the_receivers_limit_is_said_with_the_limit(tmp_path: Path) -> None:
    """The exporter logs the 413 by its code and reason phrase alone ("Request Entity Too Large"): the
    receiver's limit, and what to do, is said by the receiver."""
    kept = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(kept))
    provider.get_tracer("agent").start_span("huge", attributes={"prompt": "x" * (17 * 1024 * 1024)}).end()
    errors = _exported(tmp_path, "en", list(kept.get_finished_spans()), SpanExportResult.FAILURE)
    assert "A request was refused: The body is larger than 16 MiB and was refused; send smaller batches." \
        in errors.splitlines(), errors


def _exported(tmp_path: Path, language: str, spans: list[ReadableSpan], result: SpanExportResult) -> str:
    """Export ``spans`` with the SDK's exporter to ``run-inspector receive``; what the command said on stderr."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", "--lang", language, "receive", "--port", "0",
                                "--json", "--db", str(tmp_path / "cli.db")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        url = json.loads(process.stdout.readline())["url"]
        exporter = OTLPSpanExporter(endpoint=url)
        assert exporter.export(spans) == result
        exporter.shutdown()
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert process.returncode == 0
    return errors
