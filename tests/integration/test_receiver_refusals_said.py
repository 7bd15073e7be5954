"""Spans the receiver refuses are said where its user reads, not only in the answer's partial_success:
the OpenTelemetry Python SDK's OTLP/HTTP exporter neither reads nor logs partial_success, so a refused
span was missing from its run without a word on either side. So are requests refused whole (400, 403, 413,
415): the exporter logs no more than their status."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import httpx
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


@pytest.mark.parametrize(("status", "headers", "body", "said"), [
    (415, {"Content-Type": "text/plain"}, b"{}", "A request was refused: The content type 'text/plain' is not "
     "supported: send application/x-protobuf or application/json."),
    (415, {"Content-Type": "application/x-protobuf", "Content-Encoding": "br"}, b"\x0a\x00",
     "A request was refused: The content encoding 'br' is not supported: send the body as it is, gzip- or "
     "deflate-compressed."),
    (403, {"Content-Type": "application/json", "Origin": "https://example.com"}, b"{}",
     "A request was refused: Requests from web pages (with an Origin header) are refused."),
    (400, {"Content-Type": "application/json"}, b'{"resourceSpans": {}}',
     "A request was refused: resourceSpans must be a list."),
])
def test_a_request_refused_whole_is_said_by_the_receive_command(tmp_path: Path, status: int, headers: dict[str, str],
                                                                 body: bytes, said: str) -> None:
    """An exporter shows a refusal by its status at most (the SDK's: ``Failed to export span batch code: 415,
    reason: Unsupported Media Type``): what was wrong, and so why its spans are missing, is said here."""
    def post(url: str) -> None:
        assert httpx.post(url, content=body, headers=headers, timeout=10).status_code == status

    errors = _said(tmp_path, "en", post)
    assert said in errors.splitlines(), errors


def _exported(tmp_path: Path, language: str, spans: list[ReadableSpan], result: SpanExportResult) -> str:
    """Export ``spans`` with the SDK's exporter to ``run-inspector receive``; what the command said on stderr."""
    def export(url: str) -> None:
        exporter = OTLPSpanExporter(endpoint=url)
        assert exporter.export(spans) == result
        exporter.shutdown()

    return _said(tmp_path, language, export)


def _said(tmp_path: Path, language: str, send: Callable[[str], None]) -> str:
    """``send`` to ``run-inspector receive`` (given its address); what the command said on stderr."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", "--lang", language, "receive", "--port", "0",
                                "--json", "--db", str(tmp_path / "cli.db")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        send(json.loads(process.stdout.readline())["url"])
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=30)
    assert process.returncode == 0
    return errors


@pytest.mark.parametrize(("language", "said"), [
    ("en", "A request was refused: A client spoke TLS (https) to the receiver, which takes plain HTTP: send to {url}."),
    ("de", "Eine Anfrage wurde abgelehnt: Ein Client hat TLS (https) mit dem Empfänger gesprochen, der nur "
           "einfaches HTTP annimmt: senden Sie an {url}."),
])
def test_an_exporter_sending_to_https_is_told_at_once_and_said_with_the_address(tmp_path: Path, language: str,
                                                                               said: str) -> None:
    """An exporter whose endpoint says https:// began a TLS handshake, which waited out the head's deadline (10 s,
    the SDK's export timeout) and was answered in HTTP it cannot read, and the receive command said nothing: the
    spans were missing without a word of why. Now the connection is closed at once (the exporter tries again
    until its timeout) and the address to use is said."""
    urls: list[str] = []

    def export(url: str) -> None:
        urls.append(url)
        exporter = OTLPSpanExporter(endpoint=url.replace("http://", "https://"), timeout=2)
        assert exporter.export(_one_span()) == SpanExportResult.FAILURE
        exporter.shutdown()

    errors = _said(tmp_path, language, export)
    assert said.format(url=urls[0]) in errors.splitlines(), errors


def _one_span() -> list[ReadableSpan]:
    kept = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(kept))
    provider.get_tracer("agent").start_span("work").end()
    return list(kept.get_finished_spans())
