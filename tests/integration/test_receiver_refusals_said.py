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
from opentelemetry.sdk.trace.export import SpanExportResult

from tests.support.refused_spans import REFUSED, spans_one_backwards


@pytest.mark.parametrize(("language", "said"), [
    ("en", REFUSED),
    ("de", "1 Span einer Anfrage wurde abgelehnt: spans[0].endTimeUnixNano: der Span endet, bevor er beginnt"),
])
def test_the_receive_command_says_refused_spans_the_exporter_does_not(tmp_path: Path, language: str,
                                                                      said: str) -> None:
    process = subprocess.Popen([sys.executable, "-m", "inspector", "--lang", language, "receive", "--port", "0",
                                "--json", "--db", str(tmp_path / "cli.db")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        url = json.loads(process.stdout.readline())["url"]
        exporter = OTLPSpanExporter(endpoint=url)
        assert exporter.export(spans_one_backwards()) == SpanExportResult.SUCCESS  # all the exporter learns
        exporter.shutdown()
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert process.returncode == 0
    assert said in errors.splitlines(), errors
