"""Import a 100,000-step trace file (three legs per tool step) into a fresh database.

Targets (trace import issue): <= 10 s and <= 300 MB peak memory (resident set) for the whole
import, checking and writing included. The import runs in a child process so its peak resident
size is its own (``ru_maxrss`` of that process, cross-checked with ``RUSAGE_CHILDREN`` in the
parent). For information, measured the same way: the import of a file too big for the
importer's step cache (``CACHE_BUDGET`` = 0 forces it: the file is streamed twice and every step
checked twice), and the export of the imported run back to a file in both formats. Writes
``store_import.json`` (see ``_common.RESULTS_DIR``); exit status 0 when the targets are met.

    .venv/bin/python benchmarks/store_import.py [--steps N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import RESULTS_DIR  # noqa: E402  (also: runs go to a temporary database)

from inspector.runs import Leg, RunStep, RunTrace, ToolResult  # noqa: E402

STEPS = 100_000
TARGET_SECONDS = 10.0
TARGET_PEAK_MB = 300.0
LEGS = (Leg("initialize", 20, 4.12, 200, "ok"), Leg("notifications/initialized", 16, 0.71, 202, "ok"),
        Leg("tools/call", 16, 12.5, 200, "ok"))


def sample_payloads() -> list[dict]:
    """A varied cycle of step payloads: tool steps (ok, failed, cancelled) with legs, llm steps."""
    trace = RunTrace()
    results = [ToolResult.text("the answer is 42\nand some more lines of result text"),
               ToolResult.error("the server said no"), ToolResult.cancelled("stopped by the user", in_flight=True)]
    payloads = []
    for i in range(300):
        payloads.append(trace.record_tool_result(i % 7, "lookup", {"query": f"q{i}", "limit": 10},
                                                 results[i % 3], 17.3 + i % 5, legs=LEGS).to_payload())
    llm = RunStep(kind="llm", round=1, duration_ms=812.4, content="I will look that up.", finish_reason="tool_calls",
                  prompt_tokens=1200, completion_tokens=35, total_tokens=1235,
                  requested_tool_calls=({"id": "c1", "name": "lookup", "arguments": {"query": "x"}},))
    payloads[::10] = [llm.to_payload()] * len(payloads[::10])  # one step in ten is a model turn
    return payloads


def write_trace(path: Path, steps: int) -> int:
    """Write a trace file of one run with ``steps`` steps, streamed; return its size in bytes."""
    payloads = sample_payloads()
    start = datetime(2026, 11, 30, tzinfo=timezone.utc)
    stamp = "%Y-%m-%dT%H:%M:%S.%fZ"
    with path.open("w", encoding="utf-8") as out:
        out.write('{"format": "run-inspector-trace", "version": 1, "exported_at": "2026-11-30T12:00:00.000000Z",\n'
                  ' "runs": [\n  {"uid": "benchmark-run", "title": "benchmark", "source": "live", '
                  '"server": "http://127.0.0.1:1/mcp", "status": "failed", '
                  f'"started_at": "{start.strftime(stamp)}", "finished_at": null, "steps": [')
        for i in range(steps):
            record = {"sequence": i + 1, "started_at": (start + timedelta(milliseconds=i)).strftime(stamp),
                      "payload": payloads[i % len(payloads)]}
            out.write(("," if i else "") + "\n    " + json.dumps(record, separators=(",", ":")))
        out.write("\n  ]}\n]}\n")
    return path.stat().st_size


CHILD = r"""
import json, resource, sys, time
from inspector.store import RunStore
from inspector.transfer.importing import import_trace
from inspector.transfer.exporting import export
from inspector.transfer import importing as trace_import
task, db, source = sys.argv[1], sys.argv[2], sys.argv[3]
calls = []
store = RunStore.open(db)
began = time.perf_counter()
if task.startswith("import"):
    if task == "import-twice":
        trace_import.CACHE_BUDGET = 0
    report = import_trace(store, source, progress=lambda done, total: calls.append(done))
    count = report.steps_imported
else:
    count = export(store, None, None, source, format=task).steps
took = time.perf_counter() - began
store.close()
print(json.dumps({"seconds": took, "steps": count, "progress_calls": len(calls),
                  "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_child(task: str, db: Path, source: Path) -> dict:
    """Run one import or export in a fresh process; return its own measurements."""
    output = subprocess.run([sys.executable, "-c", CHILD, task, str(db), str(source)], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--keep", type=Path, help="write the files here and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        trace, db = folder / "benchmark.trace.json", folder / "imported.db"
        for leftover in (db, Path(f"{db}-wal"), Path(f"{db}-shm")):
            leftover.unlink(missing_ok=True)
        began = time.perf_counter()
        size = write_trace(trace, args.steps)
        print(f"wrote {args.steps:,} steps, {size / 1e6:.1f} MB, in {time.perf_counter() - began:.1f} s")
        imported = run_child("import", db, trace)
        children_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(f"import: {imported['seconds']:.2f} s, {args.steps / imported['seconds']:,.0f} steps/s, "
              f"peak RSS {imported['peak_rss_mb']:.0f} MB ({imported['progress_calls']} progress calls)")
        twice_db = folder / "imported-twice.db"
        for leftover in (twice_db, Path(f"{twice_db}-wal"), Path(f"{twice_db}-shm")):
            leftover.unlink(missing_ok=True)
        twice = run_child("import-twice", twice_db, trace)
        print(f"import streamed twice (beyond the cache budget): {twice['seconds']:.2f} s, "
              f"peak RSS {twice['peak_rss_mb']:.0f} MB")
        exports = {}
        for file_format in ("trace", "otlp"):
            exports[file_format] = run_child(file_format, db, folder / f"export.{file_format}.json")
            print(f"export {file_format}: {exports[file_format]['seconds']:.2f} s, "
                  f"peak RSS {exports[file_format]['peak_rss_mb']:.0f} MB")
    met = {"seconds": imported["seconds"] <= TARGET_SECONDS, "peak_rss": imported["peak_rss_mb"] <= TARGET_PEAK_MB}
    results = {
        "benchmark": "store_import",
        "steps": args.steps,
        "file_bytes": size,
        "import": {"seconds": round(imported["seconds"], 3), "steps_per_s": round(args.steps / imported["seconds"]),
                   "peak_rss_mb": round(imported["peak_rss_mb"], 1),
                   "peak_rss_children_mb": round(children_peak, 1),
                   "progress_calls": imported["progress_calls"]},
        "import_streamed_twice": {"seconds": round(twice["seconds"], 3),
                                  "peak_rss_mb": round(twice["peak_rss_mb"], 1)},
        "export": {name: {"seconds": round(value["seconds"], 3), "peak_rss_mb": round(value["peak_rss_mb"], 1)}
                   for name, value in exports.items()},
        "targets": {"seconds": TARGET_SECONDS, "peak_rss_mb": TARGET_PEAK_MB},
        "met": met,
        "environment": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
                        "date": datetime.now(timezone.utc).isoformat(timespec="seconds")},
    }
    if args.steps == STEPS:
        RESULTS_DIR.mkdir(parents=True, exist_ok=True)
        (RESULTS_DIR / "store_import.json").write_text(json.dumps(results, indent=2) + "\n")
    print("targets met" if all(met.values()) else f"targets missed: {[k for k, ok in met.items() if not ok]}")
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
