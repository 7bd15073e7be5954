"""Peak memory of importing an OTLP file with one span per trace: many runs, each tiny.

The import must run in memory bounded by a constant (plus the largest single run), whatever
the number of runs in the file. This writes an OTLP JSON file of ``--traces`` one-span traces
(default 10,000 and 100,000; the issue's measurement is ``--traces 1000000``, a ~130 MB file), imports
it in a fresh process into a fresh database, and reports that process's peak RSS
(``ru_maxrss``). Several sizes show whether the peak grows with the number of runs.

    .venv/bin/python benchmarks/import_many_runs.py                      # 10k and 100k
    .venv/bin/python benchmarks/import_many_runs.py --traces 1000000     # the issue's size

Exit status 0 when the peak stays under ``--limit-mb`` (default 400) for every size.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))


def write_otlp(path: Path, traces: int) -> int:
    """One TracesData object; one foreign span per trace (the shape of the issue's file)."""
    with path.open("w", encoding="utf-8") as out:
        out.write('{"resourceSpans":[{"resource":{"attributes":[{"key":"service.name","value":'
                  '{"stringValue":"bench"}}]},"scopeSpans":[{"scope":{"name":"bench"},"spans":[')
        for n in range(traces):
            start = 1_700_000_000_000_000_000 + n * 1000
            out.write(('' if n == 0 else ',') + '{"traceId":"%032x","spanId":"%016x","name":"GET /item",'
                      '"kind":2,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[]}'
                      % (n + 1, n + 1, start, start + 500))
        out.write("]}]}]}\n")
    return path.stat().st_size


def child(path: str, db: str) -> None:
    sys.path.insert(0, str(ROOT))
    from inspector.store import RunStore
    from inspector.transfer.importing import import_trace

    started = time.perf_counter()
    with RunStore.open(db) as store:
        report = import_trace(store, path)
        runs = report.runs_imported
    print(json.dumps({"runs": runs, "seconds": round(time.perf_counter() - started, 1),
                      "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}))


def measure(traces: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "many.otlp.json"
        size = write_otlp(path, traces)
        done = subprocess.run([sys.executable, __file__, "--child", str(path), str(Path(folder) / "runs.db")],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        result = json.loads(done.stdout)
        result.update(traces=traces, file_mb=round(size / 1e6, 1))
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--traces", type=int, action="append", help="number of one-span traces (repeatable)")
    parser.add_argument("--limit-mb", type=float, default=400.0, help="the peak RSS that counts as bounded")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return 0
    results = [measure(traces) for traces in (args.traces or [10_000, 100_000])]
    print(f"{'traces':>10}  {'file MB':>8}  {'runs':>10}  {'seconds':>8}  {'peak RSS MB':>12}")
    for r in results:
        print(f"{r['traces']:>10,}  {r['file_mb']:>8}  {r['runs']:>10,}  {r['seconds']:>8}  {r['peak_rss_mb']:>12}")
    try:
        from _common import write_result
        write_result("import_many_runs", {"results": results, "limit_mb": args.limit_mb})
    except ImportError:
        pass
    return 0 if all(r["peak_rss_mb"] < args.limit_mb for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
