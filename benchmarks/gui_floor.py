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

``--engine-process`` estimates that design instead of its bound: the window still takes reports
alone, while a real network engine in a child process (``OperationsEngine`` on a core application
of its own, its own database) runs each of the twenty operations against the same demo server,
started as each Run is pressed. Its work then costs the window no interpreter lock, only the
machine's cores (window, engine and demo server share them). Writes `gui_floor_engine_process.json`.

    BENCH_SKIP_COLD is implied. .venv/bin/python benchmarks/gui_floor.py [--engine-process]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

os.environ["BENCH_SKIP_COLD"] = "1"
sys.path.insert(0, str(Path(__file__).resolve().parent))
import gui_window  # noqa: E402  (sets up the offscreen platform, the temporary database and settings)
from _common import free_port, summary, table, write_result  # noqa: E402

PROGRESS_EVERY_S = 0.2
STEPS = 15
SECONDS = 3.0


def reports_only(engine, task, observer, store, log_level) -> None:
    """In place of ``OperationsEngine._begin`` (on the worker's loop): the reports of a slow_task, no work."""
    from inspector.gui.workbench.operation_task import OperationOutcome
    from inspector.mcp import LegStarted, OperationStarted, ProgressSeen

    observer.operation_started(OperationStarted("tools/call", task.server_url, task.budget_s))
    observer.leg_started(LegStarted("tools/call", task.budget_s, 0.0))
    loop = asyncio.get_running_loop()
    for step in range(1, STEPS + 1):
        loop.call_later(PROGRESS_EVERY_S * step, observer.progress,
                        ProgressSeen("tools/call", step, STEPS, f"Step {step} of {STEPS} done."))
    loop.call_later(SECONDS + 0.01, task._reports.done,
                    OperationOutcome(None, None, internal_error="benchmark: reports only, no operation"))


#: The child process of ``--engine-process``: one slow_task per line read, ``quit`` ends it.
ENGINE_CHILD = r"""
import queue, sys, tempfile, threading
from pathlib import Path
from PySide6.QtCore import QCoreApplication, QTimer
from inspector.gui.workbench.engine import OperationsEngine
from inspector.mcp import ServerEndpoint
from inspector.store import RunStore
app = QCoreApplication([])
db = Path(tempfile.mkdtemp()) / "engine.db"
RunStore.open(db).close()
engine = OperationsEngine(db)
engine.start()
server = ServerEndpoint(sys.argv[1], name="Demo server")
lines, tasks = queue.Queue(), []
threading.Thread(target=lambda: [lines.put(line.strip()) for line in sys.stdin], daemon=True).start()
def take():
    while not lines.empty():
        if lines.get() == "quit":
            engine.shutdown()
            app.quit()
            return
        tasks.append(engine.call_tool(server, "slow_task", {"seconds": 3, "steps": 15}, 60))
timer = QTimer()
timer.timeout.connect(take)
timer.start(1)
print("ready", flush=True)
app.exec()
print(sum(1 for task in tasks if task.outcome is not None and task.outcome.status == "ok"), flush=True)
"""


def main() -> int:
    from inspector.gui.workbench.engine import OperationsEngine

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine-process", action="store_true",
                        help="a real engine in a child process does the operations the window only reports")
    elsewhere = parser.parse_args().engine_process
    bench = gui_window.Bench()
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    demo = subprocess.Popen([sys.executable, "-m", "inspector", "serve-demo", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    child = None
    try:
        bench.spin_until(lambda: gui_window._listening(port), 20)
        bench.use_server(url, "Demo server")  # its catalogue, for real
        if elsewhere:
            child = subprocess.Popen([sys.executable, "-c", ENGINE_CHILD, url], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, bufsize=1)
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        OperationsEngine._begin = _elsewhere(child.stdin) if child is not None else reports_only
        runs = [bench.longest_stall() for _ in range(gui_window.STALL_REPEATS)]
        if child is not None:
            ends = time.monotonic() + 4  # the child's last operations end
            bench.spin_until(lambda: time.monotonic() > ends, 10)
    finally:
        engine_ok = _stop(child)
        demo.terminate()
        demo.wait(10)
        bench.close()
    stall = summary([run["longest_stall_ms"] for run in runs])
    after = summary([run["longest_stall_all_running_ms"] for run in runs])
    worker = summary([run["worker_cpu_ms"] for run in runs])
    print(table(["measure (the window takes reports only)", "median", "worst", "n"], [
        ["longest stall, 20 ops (ms)", f"{stall['median']:.0f}", f"{stall['max']:.0f}", stall["n"]],
        ["longest stall after the last Run (ms)", f"{after['median']:.0f}", f"{after['max']:.0f}", after["n"]],
        ["worker thread CPU per 20 operations (ms)", f"{worker['median']:.0f}", f"{worker['max']:.0f}", worker["n"]],
    ], left=(0,)))
    print(f"worst gaps per repeat (ms, at ms): {[run['worst_gaps_ms_at_ms'] for run in runs]}; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    result = {"longest_stall_ms": stall, "longest_stall_after_last_run_ms": after,
              "worker_cpu_ms": worker, "runs": runs, "load_average_1min": os.getloadavg()[0]}
    if elsewhere:
        print(f"the engine in its own process: {engine_ok} of {len(runs) * gui_window.OPERATIONS} operations ok")
        result["engine_process_ok"] = engine_ok
    write_result("gui_floor_engine_process" if elsewhere else "gui_floor", result)
    return 0


def _elsewhere(orders: IO[str]):
    """In place of ``OperationsEngine._begin``: the child's engine runs the operation, the window's reports it."""
    def begin(engine, task, observer, store, log_level) -> None:
        orders.write("go\n")
        orders.flush()
        reports_only(engine, task, observer, store, log_level)
    return begin


def _stop(child: subprocess.Popen | None) -> int | None:
    """End the child's engine; how many of its operations ended ok."""
    if child is None:
        return None
    try:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write("quit\n")
        child.stdin.flush()
        return int(child.stdout.readline().strip() or -1)
    finally:
        child.wait(20)


if __name__ == "__main__":
    sys.exit(main())
