"""Import 100,000 spans of a real agent's OTLP JSON Lines (the mcp SDK's own spans) into a fresh database.

The file repeats the trace of ``tests/fixtures/otel/mcp_sdk.jsonl`` (made by the real ``mcp`` SDK,
client and server side; see ``make trace-fixtures``) with fresh trace and span ids, one trace per
copy, each line one ``ExportTraceServiceRequest`` as the Collector's file exporter writes them, until
it holds ``--spans`` spans. The import runs in a child process (its own peak resident size).
Targets (issue 23): at least 25,000 spans/s and at most 300 MB. Writes ``otlp_agent_import.json``
(see ``_common.RESULTS_DIR``). Informational until the import is that fast: exit status 0 either
way, unless ``--strict`` (then 0 only when the targets are met).

    .venv/bin/python benchmarks/otlp_agent_import.py [--spans N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import RESULTS_DIR  # noqa: E402

FIXTURE = ROOT / "tests" / "fixtures" / "otel" / "mcp_sdk.jsonl"
SPANS = 100_000
TARGET_SPANS_PER_S = 25_000
TARGET_PEAK_MB = 300.0


def write_file(path: Path, spans: int, fixture: Path = FIXTURE) -> int:
    """Copies of the fixture's trace, ids renewed per copy (trace ids and span ids stay consistent)."""
    lines = fixture.read_text(encoding="utf-8").splitlines()
    per_copy = sum(len(scope["spans"]) for line in lines for rs in json.loads(line)["resourceSpans"]
                   for scope in rs["scopeSpans"])
    written = copy = 0
    with path.open("w", encoding="utf-8") as out:
        while written < spans:
            copy += 1
            tag = f"{copy:08x}"
            for line in lines:
                # ids are hex: replacing their last 8 digits keeps them ids, unique per copy
                document = json.loads(line)
                for rs in document["resourceSpans"]:
                    for scope in rs["scopeSpans"]:
                        for span in scope["spans"]:
                            span["traceId"] = span["traceId"][:24] + tag
                            span["spanId"] = span["spanId"][:8] + tag
                            if span.get("parentSpanId"):
                                span["parentSpanId"] = span["parentSpanId"][:8] + tag
                out.write(json.dumps(document, separators=(",", ":")) + "\n")
            written += per_copy
    return written


CHILD = r"""
import json, resource, sys, time
from inspector.store import RunStore
from inspector.transfer.importing import import_trace
db, source = sys.argv[1], sys.argv[2]
store = RunStore.open(db)
began, cpu = time.perf_counter(), time.process_time()
report = import_trace(store, source)
took, cpu = time.perf_counter() - began, time.process_time() - cpu
store.close()
print(json.dumps({"seconds": took, "cpu_seconds": cpu, "steps": report.steps_imported, "runs": report.runs_imported,
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=SPANS)
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose importer runs (before/after)")
    parser.add_argument("--fixture", default=FIXTURE.stem,
                        choices=sorted(path.stem for path in FIXTURE.parent.glob("*.jsonl")),
                        help="the recorded trace repeated (default mcp_sdk: the mcp SDK's client and server spans)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = (args.keep or Path(scratch)).resolve()  # the child runs in --code's folder
        folder.mkdir(parents=True, exist_ok=True)
        source, db = folder / "agent.otlp.jsonl", folder / "imported.db"
        db.unlink(missing_ok=True)
        spans = write_file(source, args.spans, FIXTURE.parent / f"{args.fixture}.jsonl")
        env = {**os.environ, "PYTHONPATH": str(args.code)}
        child = subprocess.run([sys.executable, "-c", CHILD, str(db), str(source)], cwd=args.code,
                               capture_output=True, text=True, env=env)
        if child.returncode:
            sys.exit(f"the import failed (exit status {child.returncode}):\n{child.stderr}")
        output = child.stdout
        measured = json.loads(output.strip().splitlines()[-1])
    rate = spans / measured["seconds"]
    print(f"{spans:,} spans ({source.name}): import {measured['seconds']:.2f} s (CPU {measured['cpu_seconds']:.2f} s), "
          f"{rate:,.0f} spans/s, "
          f"{measured['steps']:,} steps in {measured['runs']:,} runs, peak RSS {measured['peak_rss_mb']:.0f} MB")
    met = {"spans_per_s": rate >= TARGET_SPANS_PER_S, "peak_rss": measured["peak_rss_mb"] <= TARGET_PEAK_MB}
    results = {
        "benchmark": "otlp_agent_import", "spans": spans, "steps": measured["steps"], "runs": measured["runs"],
        "import": {"seconds": round(measured["seconds"], 3), "cpu_seconds": round(measured["cpu_seconds"], 3),
                   "spans_per_s": round(rate),
                   "peak_rss_mb": round(measured["peak_rss_mb"], 1)},
        "targets": {"spans_per_s": TARGET_SPANS_PER_S, "peak_rss_mb": TARGET_PEAK_MB}, "met": met,
        "environment": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
                        "date": datetime.now(timezone.utc).isoformat(timespec="seconds")},
    }
    if args.spans == SPANS and args.code == ROOT and args.fixture == FIXTURE.stem:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        (RESULTS_DIR / "otlp_agent_import.json").write_text(json.dumps(results, indent=2) + "\n")
    print("targets met" if all(met.values()) else f"targets missed: {[k for k, ok in met.items() if not ok]}")
    return 0 if all(met.values()) or not args.strict else 1


if __name__ == "__main__":
    sys.exit(main())
