"""Compare two stored runs (issue 26): how long `compare` takes for long runs.

Three cases, on a temporary database:

* two runs of 100,000 steps where the second misses every thousandth step: the alignment's middle is
  far beyond its exact table, so the greedy alignment runs (reading the steps dominates);
* two runs of 2,000 steps that differ throughout (other tools in every other step): the exact
  alignment fills its whole table of 4,000,000 cells;
* `run-inspector compare --json` of the first pair in a process of its own (reading, aligning and
  writing 100,000 rows of JSON).

Targets (chosen for 2 shared cores): the 100,000-step pair in the store <= 10 s, the 2,000-step pair
<= 3 s, the command <= 20 s.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import table, verdict, write_result  # noqa: E402  (also: runs go to a temporary database)

from inspector.runs.times import to_stored_time  # noqa: E402
from inspector.store import RunStore  # noqa: E402
from inspector.store.comparing import compare_stored_runs  # noqa: E402

LONG, SHORT = 100_000, 2_000
TARGETS_S = {"long_pair": 10.0, "differing_pair": 3.0, "command": 20.0}
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)


def write_run(store: RunStore, steps: int, title: str, *, skip_every: int = 0, tools: int = 7) -> int:
    """A run of llm and tool steps of all three outcomes, written straight into the steps table."""
    run_id = store.start_run(title, "imported", "http://127.0.0.1:8765/mcp", started_at=T0)
    rows = []
    for number in range(steps):
        if skip_every and number % skip_every == skip_every - 1:
            continue
        outcome = ("ok", "failed", "cancelled", "")[number % 4]
        if outcome:
            payload = {"kind": "tool", "round": number // 4, "durationMs": 8.0 + number % 3,
                       "toolName": f"tool_{number % tools}", "toolArguments": {"n": number},
                       "toolResult": f"result {number}", "toolIsError": outcome != "ok", "toolOutcome": outcome}
            if outcome == "cancelled":
                payload["cancelledInFlight"] = True
        else:
            payload = {"kind": "llm", "round": number // 4, "durationMs": 8.0, "content": f"thinking {number}"}
        rows.append((run_id, number + 1, payload["kind"], payload["round"], payload["durationMs"],
                     to_stored_time(T0 + timedelta(milliseconds=10 * number)), outcome,
                     json.dumps(payload, separators=(",", ":"))))
    with store.transaction():
        store.db.conn.executemany("INSERT INTO steps (run_id, sequence, kind, round, duration_ms, started_at,"
                                  " outcome, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    store.finish_run(run_id, "failed", T0 + timedelta(milliseconds=10 * steps))
    return run_id


def timed(store: RunStore, first: int, second: int) -> tuple[float, int, str]:
    began = time.perf_counter()
    comparison = compare_stored_runs(store, first, second)
    took = time.perf_counter() - began
    return took, len(comparison.rows), f"{comparison.summary.alike} alike"


def main() -> int:
    results: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "runs.db"
        with RunStore.open(path) as store:
            long_first = write_run(store, LONG, "long")
            long_second = write_run(store, LONG, "long, every thousandth step missing", skip_every=1000)
            short_first = write_run(store, SHORT, "short", tools=7)
            short_second = write_run(store, SHORT, "short, other tools", tools=5)
            for name, pair in (("long_pair", (long_first, long_second)),
                               ("differing_pair", (short_first, short_second))):
                took, rows, said = timed(store, *pair)
                results[name] = {"seconds": took, "rows": rows, "summary": said}
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "inspector", "compare", str(long_first), str(long_second),
                               "--json", "--db", str(path)], capture_output=True, cwd=ROOT, check=True)
        results["command"] = {"seconds": time.perf_counter() - began, "bytes": len(done.stdout)}
    met = {name: results[name]["seconds"] <= target for name, target in TARGETS_S.items()}
    print(table(("case", "seconds", "target", ""),
                [(name, f"{results[name]['seconds']:.2f}", f"{TARGETS_S[name]:.0f}", verdict(met[name]))
                 for name in TARGETS_S]))
    path = write_result("compare_runs", {"results": results, "targets_s": TARGETS_S, "met": met})
    print(f"written: {path}")
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
