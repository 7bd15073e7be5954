"""How many spans per second the OTLP/HTTP receiver (``run-inspector receive``) stores.

The receiver runs as the command does, in a process of its own, on a fresh database. One client
(as an SDK's exporter is one) sends protobuf ``ExportTraceServiceRequest`` bodies of at most 512
spans (the OpenTelemetry SDK's default batch) one after the other; a request is answered once its
spans are written, so the time from the first request to the last answer is the time to store them.

- ``many traces``: copies of the real ``mcp`` SDK trace of ``tests/fixtures/otel/mcp_sdk.jsonl``
  (client and server spans, fresh ids per copy), ``--spans`` spans in all; then the time until
  every run has settled (the receiver's quiet period, ``--quiet-after``, counted from the last span).
- ``one growing trace``: one trace of ``--big`` spans arriving 512 at a time: each request maps
  the whole trace again (the price of "the same as an import of all its spans").
- ``one large request``: ``--large`` spans of one trace in a single request (an exporter told to send
  large batches); the writer takes it in slices, each trace's spans in one of them.
- ``traces in one request`` (only with ``--one-request N,N,...``): N traces of one span each (the ``mcp`` SDK's
  ``tools/call`` client span, a root) in a single request, protobuf and JSON (gzip-compressed: 50,000 spans are
  19 MB of JSON, past the receiver's 16 MiB for a body as sent): is the time linear in the traces?

Target: at least 2,000 spans per second of the receiver's CPU time for many traces (its CPU time, from
/proc, does not depend on what else the machine runs; the wall-clock rate is reported beside it).
Writes ``otlp_receiver.json`` (see ``_common.RESULTS_DIR``); exit status 0 when the target is met.

    .venv/bin/python benchmarks/otlp_receiver.py [--spans N] [--big N] [--large N]
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import os
import platform
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import RESULTS_DIR  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"
SPANS = 20_000
BIG = 5_000
LARGE = 15_000
BATCH = 512
QUIET_S = 1.0
TARGET_SPANS_PER_S = 2_000


def _fixture_spans() -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    spans = []
    for line in FIXTURE.read_text(encoding="utf-8").splitlines():
        for rs in json.loads(line)["resourceSpans"]:
            for scope in rs["scopeSpans"]:
                spans.extend((rs.get("resource", {}), scope.get("scope", {}), span) for span in scope["spans"])
    return spans


def _copies(spans: int, one_trace: bool) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """Fixture spans with their ids renewed per copy (one trace id for all with ``one_trace``)."""
    base, out, copy = _fixture_spans(), [], 0
    while len(out) < spans:
        copy += 1
        tag = f"{copy:08x}"
        for resource, scope, span in base:
            span = dict(span)
            span["traceId"] = span["traceId"][:24] + ("0000abcd" if one_trace else tag)
            span["spanId"] = span["spanId"][:8] + tag
            if span.get("parentSpanId"):
                span["parentSpanId"] = span["parentSpanId"][:8] + tag
            out.append((resource, scope, span))
    return out[:spans]


def _bodies(spans: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]], batch: int = BATCH) -> list[bytes]:
    """Protobuf requests of at most ``batch`` spans, each span under its own resource and scope."""
    from google.protobuf.json_format import ParseDict
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

    def b64(value: str) -> str:
        return base64.b64encode(bytes.fromhex(value)).decode()

    bodies = []
    for start in range(0, len(spans), batch):
        groups: dict[str, dict[str, Any]] = {}
        for resource, scope, span in spans[start:start + batch]:
            key = json.dumps([resource, scope], sort_keys=True)
            group = groups.setdefault(key, {"resource": resource, "scopeSpans": [{"scope": scope, "spans": []}]})
            span = {**span, "traceId": b64(span["traceId"]), "spanId": b64(span["spanId"])}
            if span.get("parentSpanId"):
                span["parentSpanId"] = b64(span["parentSpanId"])
            group["scopeSpans"][0]["spans"].append(span)
        request = ParseDict({"resourceSpans": list(groups.values())}, ExportTraceServiceRequest())
        bodies.append(request.SerializeToString())
    return bodies


def _one_span_traces(traces: int) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """``traces`` traces of one root span each: the fixture's first ``tools/call`` span, its ids renewed."""
    resource, scope, span = next(held for held in _fixture_spans() if held[2]["name"].startswith("MCP send tools/call"))
    root = {key: value for key, value in span.items() if key != "parentSpanId"}
    return [(resource, scope, {**root, "traceId": f"{number:032x}", "spanId": f"{number:016x}"})
            for number in range(1, traces + 1)]


def _json_body(spans: list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]) -> bytes:
    """One OTLP/JSON request of ``spans``, all under the first one's resource and scope (ids in hex)."""
    resource, scope, _ = spans[0]
    return json.dumps({"resourceSpans": [{"resource": resource, "scopeSpans": [
        {"scope": scope, "spans": [span for _, _, span in spans]}]}]}).encode()


def _run(name: str, bodies: list[bytes], spans: int, folder: Path,
         headers: dict[str, str] | None = None) -> dict[str, Any]:
    import httpx

    db = folder / f"{name.replace(' ', '-')}.db"
    lines = (folder / f"{name.replace(' ', '-')}.out").open("w+", encoding="utf-8")  # a pipe nobody reads would fill
    receiver = subprocess.Popen([sys.executable, "-m", "inspector", "receive", "--port", "0", "--json",
                                 "--quiet-after", str(QUIET_S), "--db", str(db)], stdout=lines, text=True, cwd=ROOT)
    try:
        while not (first := Path(lines.name).read_text(encoding="utf-8").partition("\n")[0]) or "\n" not in \
                Path(lines.name).read_text(encoding="utf-8"):
            assert receiver.poll() is None, "the receiver did not start"
            time.sleep(0.05)
        url = json.loads(first)["url"]
        with httpx.Client(timeout=120) as client:
            cpu = _cpu_seconds(receiver.pid)
            began = time.perf_counter()
            for body in bodies:
                answer = client.post(url, content=body, headers=headers or {"Content-Type": "application/x-protobuf"})
                assert answer.status_code == 200 and answer.content in (b"", b"{}"), answer.content
            stored = time.perf_counter() - began
            cpu = _cpu_seconds(receiver.pid) - cpu
        while True:
            with sqlite3.connect(db) as conn:
                running = conn.execute("SELECT COUNT(*) FROM runs WHERE status = 'running'").fetchone()[0]
                runs, steps = conn.execute("SELECT COUNT(*), (SELECT COUNT(*) FROM steps) FROM runs").fetchone()
            if not running:
                break
            time.sleep(0.05)
        settled = time.perf_counter() - began
    finally:
        receiver.terminate()
        receiver.wait(timeout=60)
        lines.close()
    return {"name": name, "spans": spans, "requests": len(bodies), "stored_s": round(stored, 3),
            "spans_per_s": round(spans / stored), "receiver_cpu_s": round(cpu, 3),
            "spans_per_cpu_s": round(spans / cpu) if cpu else None, "settled_s": round(settled, 3), "runs": runs,
            "steps": steps, "body_bytes": sum(map(len, bodies))}


def _cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process has used so far (Linux: /proc), 0 elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=SPANS)
    parser.add_argument("--big", type=int, default=BIG)
    parser.add_argument("--large", type=int, default=LARGE)
    parser.add_argument("--one-request", default="", metavar="N,N,...",
                        help="also: N one-span traces in a single request, protobuf and JSON, for each N")
    parser.add_argument("--only-one-request", action="store_true", help="only the --one-request scenarios")
    args = parser.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as folder:
        for name, spans, one_trace, batch in (("many traces", args.spans, False, BATCH),
                                              ("one growing trace", args.big, True, BATCH),
                                              ("one large request", args.large, True, max(args.large, 1))):
            if not args.only_one_request:
                results.append(_run(name, _bodies(_copies(spans, one_trace), batch), spans, Path(folder)))
        for traces in (int(count) for count in args.one_request.split(",") if count):
            held = _one_span_traces(traces)
            results.append(_run(f"{traces} traces in one request (protobuf)", _bodies(held, traces), traces,
                                Path(folder)))
            results.append(_run(f"{traces} traces in one request (JSON, gzip)", [gzip.compress(_json_body(held))],
                                traces, Path(folder), {"Content-Type": "application/json", "Content-Encoding": "gzip"}))
    print(f"{'scenario':<40} {'spans':>7} {'requests':>9} {'stored s':>9} {'spans/s':>8} {'spans/cpu s':>12} "
          f"{'settled s':>10} {'runs':>6} {'steps':>7}")
    for row in results:
        print(f"{row['name']:<40} {row['spans']:>7} {row['requests']:>9} {row['stored_s']:>9} {row['spans_per_s']:>8} "
              f"{row['spans_per_cpu_s']!s:>12} {row['settled_s']:>10} {row['runs']:>6} {row['steps']:>7}")
    met = args.only_one_request or (results[0]["spans_per_cpu_s"] or 0) >= TARGET_SPANS_PER_S
    print(f"target: at least {TARGET_SPANS_PER_S} spans per CPU second for many traces: {'met' if met else 'MISSED'}")
    document = {"results": results, "batch": BATCH, "quiet_after_s": QUIET_S,
                "target_spans_per_cpu_s": TARGET_SPANS_PER_S, "met": met,
                "environment": {"python": platform.python_version(), "cpus": os.cpu_count(),
                                "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()]}}
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "otlp_receiver.json").write_text(json.dumps(document, indent=2) + "\n")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
