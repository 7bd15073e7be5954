"""What one frame of a live budget bar costs the GUI thread, alone and while another thread runs
Python (as the network engine's thread does while operations start).

The selected operation's full bar as the Workbench shows it (1,046 px wide): two legs ended, the
third running, fifteen progress marks. Repainted 400 times from 1.7 s into the operation, the clock
moving 16 ms between frames (the countdown and the running leg change each time, as they do live); then the same beside
a thread spinning in Python. Wall and thread processor time per repaint, median and worst; no target
of its own (issue 27's stall is `gui_window.py`'s). `PYTHONPATH=<checkout>` measures another
checkout's bar.

    .venv/bin/python benchmarks/gui_bar.py
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import PythonSpinner, summary, table, write_result  # noqa: E402

REPAINTS = 400
WIDTH = 1046


def main() -> int:
    from PySide6.QtWidgets import QApplication

    from inspector.gui.widgets.budget_bar import BudgetBar
    from inspector.gui.widgets.budget_state import BarState, ProgressMark

    sys.setswitchinterval(0.001)  # as the window's engine sets it
    app = QApplication.instance() or QApplication([])
    clock = [100.0]
    bar = BudgetBar(clock=lambda: clock[0])
    bar.resize(WIDTH, bar.minimumHeight())
    bar.show()
    state = BarState(30)
    state.leg_started("initialize", 30, 0.0)
    state.leg_finished("initialize", 30, 0.02, "ok", 200)
    state.leg_started("notifications/initialized", 29, 0.02)
    state.leg_finished("notifications/initialized", 29, 0.01, "ok", 202)
    state.leg_started("tools/call", 29, 0.03)
    for number in range(15):
        state.add_mark(ProgressMark(0.05 + number * 0.1, number + 1, 15, f"step {number + 1}"))
    bar.set_title("tools/call slow_task")
    bar.show_live(state, clock[0] - 1.7)
    app.processEvents()

    def repaints() -> dict:
        # Each pass is the operation's first seconds again (1.7 to 8.1 s): when twenty start together.
        clock[0] = 100.0
        walls, cpus = [], []
        for _ in range(REPAINTS):
            clock[0] += 0.016
            began, cpu = time.perf_counter(), time.thread_time()
            bar.repaint()
            walls.append((time.perf_counter() - began) * 1000)
            cpus.append((time.thread_time() - cpu) * 1000)
        return {"wall": summary(walls), "cpu": summary(cpus)}

    repaints()  # warm: fonts, glyphs
    results = {"idle": repaints()}
    with PythonSpinner():
        results["beside Python"] = repaints()
    print(table(["the full bar repainted (ms)", "wall median", "wall worst", "cpu median"], [
        [case, f"{result['wall']['median']:.3f}", f"{result['wall']['max']:.1f}", f"{result['cpu']['median']:.3f}"]
        for case, result in results.items()], left=(0,)))
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    write_result("gui_bar", {"repaint_ms": results, "width_px": WIDTH, "load_average_1min": os.getloadavg()[0]})
    bar.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
