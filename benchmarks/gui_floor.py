"""The GUI thread's own floor for issue 27's stall: `gui_window.py`'s twenty operations, with the
network engine's work replaced by reports alone.

Each operation reports what a `slow_task` of 3 s and 15 steps reports (started, its leg, a progress
note every 200 ms, the end after 3 s) from the worker's event loop, and does nothing else: no
network, no JSON, no redaction, no database, so the worker holds the interpreter lock for almost
no time. What stalls the event loop then is the window's own work: the Run presses, the rows and
bars painted, the reports taken. Measured as `gui_window.py` measures (three repeats, Run pressed
once per turn of the event loop, a 5 ms heartbeat), also from the last press on. No target of its
own: it says how much of `gui_window.py`'s stall a network engine in a process of its own could
take away at most (the rest is the window's). Writes `gui_floor.json`.

    BENCH_SKIP_COLD is implied. .venv/bin/python benchmarks/gui_floor.py
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

os.environ["BENCH_SKIP_COLD"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gui_window  # noqa: E402  (sets up the offscreen platform, the temporary database and settings)
from _common import free_port, summary, table, write_result  # noqa: E402

PROGRESS_EVERY_S = 0.2
STEPS = 15
SECONDS = 3.0


def reports_only(engine, task, observer, store, log_level) -> None:
    """In place of ``OperationsEngine._begin`` (on the worker's loop): the reports of a slow_task, no work."""
    from inspector.gui.workbench.engine import OperationOutcome
    from inspector.mcp import LegStarted, OperationStarted, ProgressSeen

    observer.operation_started(OperationStarted("tools/call", task.server_url, task.budget_s))
    observer.leg_started(LegStarted("tools/call", task.budget_s, 0.0))
    loop = asyncio.get_running_loop()
    for step in range(1, STEPS + 1):
        loop.call_later(PROGRESS_EVERY_S * step, observer.progress,
                        ProgressSeen("tools/call", step, STEPS, f"Step {step} of {STEPS} done."))
    loop.call_later(SECONDS + 0.01, task._reports.done,
                    OperationOutcome(None, None, internal_error="benchmark: reports only, no operation"))


def main() -> int:
    from inspector.gui.workbench.engine import OperationsEngine

    bench = gui_window.Bench()
    port = free_port()
    demo = subprocess.Popen([sys.executable, "-m", "inspector", "serve-demo", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        bench.spin_until(lambda: gui_window._listening(port), 20)
        bench.use_server(f"http://127.0.0.1:{port}/mcp", "Demo server")  # its catalogue, for real
        OperationsEngine._begin = reports_only  # from here on, operations only report
        runs = [bench.longest_stall() for _ in range(gui_window.STALL_REPEATS)]
    finally:
        demo.terminate()
        demo.wait(10)
        bench.close()
    stall = summary([run["longest_stall_ms"] for run in runs])
    after = summary([run["longest_stall_all_running_ms"] for run in runs])
    worker = summary([run["worker_cpu_ms"] for run in runs])
    print(table(["measure (reports only, no network)", "median", "worst", "n"], [
        ["longest stall, 20 ops (ms)", f"{stall['median']:.0f}", f"{stall['max']:.0f}", stall["n"]],
        ["longest stall after the last Run (ms)", f"{after['median']:.0f}", f"{after['max']:.0f}", after["n"]],
        ["worker thread CPU per 20 operations (ms)", f"{worker['median']:.0f}", f"{worker['max']:.0f}", worker["n"]],
    ], left=(0,)))
    print(f"worst gaps per repeat (ms, at ms): {[run['worst_gaps_ms_at_ms'] for run in runs]}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    write_result("gui_floor", {"longest_stall_ms": stall, "longest_stall_after_last_run_ms": after,
                               "worker_cpu_ms": worker, "runs": runs, "load_average_1min": os.getloadavg()[0]})
    return 0


if __name__ == "__main__":
    sys.exit(main())
