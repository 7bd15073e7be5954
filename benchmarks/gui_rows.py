"""What one repaint of the operations list costs the GUI thread, alone and while another thread runs
Python (as the network engine's thread does while operations start).

Twenty running operations in the list (14 rows seen), the whole viewport repainted 100 times: with
the clock held (every row only moved, as when a new operation goes in at the top) and with the
clock moving 0.15 s between repaints (every row's countdown changed: each drawn anew). Then the
same with a thread spinning in Python beside it. Wall time per repaint, median and worst; no
target of its own (issue 27's stall is `gui_window.py`'s).

    .venv/bin/python benchmarks/gui_rows.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import PythonSpinner, summary, table, write_result  # noqa: E402

REPAINTS = 100
OPERATIONS = 20


def main() -> int:
    from PySide6.QtWidgets import QApplication

    from inspector.gui.workbench.operation_task import OperationTask
    from inspector.gui.workbench.operations_list import OperationsList
    from inspector.mcp import LegStarted, OperationStarted, ServerEndpoint

    sys.setswitchinterval(0.001)  # as the window's engine sets it
    app = QApplication.instance() or QApplication([])
    operations = OperationsList()
    operations.resize(640, 300)
    operations.show()
    server = ServerEndpoint("http://127.0.0.1:9/mcp", name="Demo server")
    started = time.monotonic()
    for number in range(OPERATIONS):
        task = OperationTask(number + 1, "call", "tools/call slow_task", server, 60.0, tool="slow_task")
        task._on_started(OperationStarted("tools/call", task.server_url, 60.0), started - 1)
        task._on_leg_started(LegStarted("tools/call", 60.0, 0.0), started)
        operations.add(task)
    app.processEvents()
    operations._frames.stop()  # the repaints below are the only ones
    viewport = operations.view.viewport()
    clock = [time.monotonic()]
    painted: list[float] = []
    operations.delegate._clock = lambda: clock[0]

    def repaints(moving: bool) -> dict:
        frames = operations.delegate.frames
        times = []
        for _ in range(REPAINTS):
            if moving:
                clock[0] += 0.15
            began = time.perf_counter()
            viewport.repaint()
            times.append((time.perf_counter() - began) * 1000)
        painted.append((operations.delegate.frames - frames) / REPAINTS)
        return summary(times)

    results = {"idle": {"moved": repaints(False), "changed": repaints(True)}}
    with PythonSpinner():
        results["beside Python"] = {"moved": repaints(False), "changed": repaints(True)}
    rows = min(painted)
    print(table(["14 rows repainted (ms)", "median", "worst"], [
        [f"{case}, rows {kind}", f"{result[kind]['median']:.2f}", f"{result[kind]['max']:.1f}"]
        for case, result in results.items() for kind in ("moved", "changed")], left=(0,)))
    print(f"rows painted per repaint: {painted}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    write_result("gui_rows", {"repaint_ms": results, "rows_per_repaint": rows,
                              "load_average_1min": os.getloadavg()[0]})
    operations.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
