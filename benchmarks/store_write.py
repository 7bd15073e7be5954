"""Store 100,000 tool steps (three legs each) into one run; then page its timeline.

Targets (issue 4): >= 20,000 steps/s stored; the first page of ``runs show`` of that run in
<= 0.3 s. Two write paths are measured: one transaction per step (what a live run does) and
batches of 1,000 steps per transaction (what scenario playback and imports do).
"""

from __future__ import annotations

import json
import os
import platform
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

from inspector.runs import Leg, RunTrace, ToolResult  # noqa: E402
from inspector.store import RunStore  # noqa: E402

STEPS = 100_000
TARGET_STEPS_PER_S = 20_000
TARGET_FIRST_PAGE_S = 0.3
LEGS = (Leg("initialize", 20, 4.12, 200, "ok"), Leg("notifications/initialized", 16, 0.71, 202, "ok"),
        Leg("tools/call", 16, 12.5, 200, "ok"))


def make_steps() -> list:
    trace = RunTrace()
    outcomes = [ToolResult.text("the answer is 42"), ToolResult.error("the server said no"),
                ToolResult.cancelled("stopped by the user", in_flight=True)]
    return [trace.record_tool_result(i % 7, "lookup", {"query": f"q{i}"}, outcomes[i % 3], 17.3, legs=LEGS)
            for i in range(300)]


def write(path: Path, batch: int) -> float:
    steps = make_steps()
    start_time = datetime(2026, 11, 30, tzinfo=timezone.utc)
    with RunStore.open(path) as store:
        run_id = store.start_run("benchmark", "live", "http://127.0.0.1:1/mcp")
        began = time.perf_counter()
        if batch == 1:
            for i in range(STEPS):
                store.append_step(run_id, steps[i % len(steps)], start_time + timedelta(milliseconds=i))
        else:
            for first in range(0, STEPS, batch):
                store.append_steps(run_id, [(steps[i % len(steps)], start_time + timedelta(milliseconds=i))
                                            for i in range(first, min(first + batch, STEPS))])
        took = time.perf_counter() - began
        store.finish_run(run_id, "ok")
    return took


def first_page(path: Path) -> tuple[float, float]:
    """Time to the first page of ``runs show`` in a fresh process, and in process."""
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "inspector", "runs", "show", "1", "--db", str(path)],
                               stdout=subprocess.PIPE, cwd=ROOT)
    lines = 0
    assert process.stdout is not None
    for _line in process.stdout:
        lines += 1
        if lines == 60:  # summary + header + a screenful of steps
            break
    cli_first = time.perf_counter() - began
    process.kill()
    process.wait()
    with RunStore.open(path) as store:
        began = time.perf_counter()
        page = store.steps_page(1, limit=200)
        in_process = time.perf_counter() - began
        assert len(page) == 200
    return cli_first, in_process


def main() -> int:
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, batch in (("per_step_transaction", 1), ("batch_1000", 1000)):
            path = Path(folder) / f"{name}.db"
            took = write(path, batch)
            results[name] = {"steps": STEPS, "seconds": round(took, 3), "steps_per_s": round(STEPS / took)}
            print(f"{name:<22} {STEPS} steps in {took:6.2f} s = {STEPS / took:>9,.0f} steps/s")
        cli_first, in_process = first_page(Path(folder) / "per_step_transaction.db")
        results["runs_show_first_page_s"] = round(cli_first, 3)
        results["steps_page_in_process_s"] = round(in_process, 4)
        print(f"runs show, first 57 steps on screen (new process): {cli_first:.3f} s")
        print(f"steps_page(limit=200) in process:                 {in_process * 1000:.1f} ms")
        size = os.path.getsize(Path(folder) / "per_step_transaction.db")
        results["database_bytes"] = size
    best = max(results["per_step_transaction"]["steps_per_s"], results["batch_1000"]["steps_per_s"])
    results["targets"] = {"steps_per_s": TARGET_STEPS_PER_S, "first_page_s": TARGET_FIRST_PAGE_S}
    results["met"] = {"per_step_transaction": results["per_step_transaction"]["steps_per_s"] >= TARGET_STEPS_PER_S,
                      "batch_1000": results["batch_1000"]["steps_per_s"] >= TARGET_STEPS_PER_S,
                      "first_page": cli_first <= TARGET_FIRST_PAGE_S}
    results["environment"] = {"python": platform.python_version(), "cpus": os.cpu_count(),
                              "date": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    (RESULTS_DIR / "store_write.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0 if best >= TARGET_STEPS_PER_S and cli_first <= TARGET_FIRST_PAGE_S else 1


if __name__ == "__main__":
    sys.exit(main())
