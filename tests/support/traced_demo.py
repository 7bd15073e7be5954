"""The demo server in a process of its own with the OpenTelemetry SDK's tracer provider set.

The official ``mcp`` SDK the demo server is built on emits a SERVER span per message once a tracer
provider is configured; here each span is written when it ends, as the OpenTelemetry Collector's
file exporter writes spans (one ``ExportTraceServiceRequest`` as OTLP JSON per line, ids in hex).
Nothing of ours takes part in making the spans.

Run: ``python -m tests.support.traced_demo OUT.jsonl`` prints ``READY URL`` and serves until its
stdin closes. :func:`traced_demo` does that for a test.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _hex_ids(value: Any) -> Any:
    """protobuf's JSON writes bytes as base64; OTLP JSON (and the Collector) writes ids as hex."""
    if isinstance(value, dict):
        return {key: (base64.b64decode(item).hex() if key in ("traceId", "spanId", "parentSpanId") and item
                      else _hex_ids(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [_hex_ids(item) for item in value]
    return value


def _provide(out: Path) -> Any:
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor, SpanExporter, SpanExportResult

    class CollectorFileExporter(SpanExporter):
        def __init__(self, path: Path) -> None:
            self._file = path.open("a", encoding="utf-8")

        def export(self, spans: Any) -> Any:
            from google.protobuf.json_format import MessageToDict
            from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans

            request = MessageToDict(encode_spans(spans), use_integers_for_enums=True)
            self._file.write(json.dumps(_hex_ids(request), separators=(",", ":")) + "\n")
            self._file.flush()
            return SpanExportResult.SUCCESS

        def shutdown(self) -> None:
            self._file.close()

    provider = TracerProvider(resource=Resource.create({"service.name": "demo-mcp-server"}))
    provider.add_span_processor(SimpleSpanProcessor(CollectorFileExporter(out)))
    trace.set_tracer_provider(provider)
    return provider


def main(out: str) -> None:
    provider = _provide(Path(out))
    from inspector.demo import DemoServer

    server = DemoServer()
    url = server.start()
    print(f"READY {url}", flush=True)
    try:
        sys.stdin.read()  # until the test closes our stdin
    finally:
        server.stop()
        provider.shutdown()


@contextmanager
def traced_demo(out: Path) -> Iterator[str]:
    """The traced demo server's URL while the block runs; its spans are in ``out`` (JSON Lines)."""
    process = subprocess.Popen([sys.executable, "-m", "tests.support.traced_demo", str(out)], cwd=ROOT,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        line = process.stdout.readline()
        if not line.startswith("READY "):
            raise RuntimeError(f"the traced demo server did not start: {line!r}")
        yield line.split()[1]
    finally:
        process.stdin.close()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


if __name__ == "__main__":
    main(sys.argv[1])
