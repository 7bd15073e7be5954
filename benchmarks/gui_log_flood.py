"""The Server log under a flood (issue 18, item 7): a server sends 100,000 ``notifications/message``.

Offscreen Qt, the whole window, a temporary run database and settings file. The server
(benchmarks/_log_flood_server_main.py, the fault server of tests/support) runs in a process of
its own and writes the lines as fast as the socket takes them, twice:

- during a tool call, on the call's own event stream (the operations' path to the log);
- on the window's listening session, its standalone ``GET`` stream (the listener's path).

A 5 ms heartbeat on the GUI thread measures the longest stall (wall time between two beats)
and the most processor time the GUI thread spent between two beats (its own work, whatever the
machine's load: on a shared machine the wall time also holds the time the thread waited for a
processor or for the interpreter lock). The same heartbeat without a flood, for 3 s, is the
baseline. The process's resident memory is sampled on the heartbeat (before, the peak during
the flood, and after). Reported too: the time until the last line is shown, the rows the log
holds and what its header says. Targets: the GUI thread's work between two beats <= 50 ms and
the resident memory growing by less than 60 MB in each flood (the log keeps 5,000 lines).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_TMP = Path(tempfile.mkdtemp(prefix="gui-log-flood-"))
os.environ["RUN_INSPECTOR_SETTINGS"] = str(_TMP / "settings.ini")
os.environ["RUN_INSPECTOR_DB"] = str(_TMP / "runs.db")

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
from _common import REPO_ROOT, spin_until, table, verdict, write_result  # noqa: E402

if os.environ.get("QT_QPA_PLATFORM", "offscreen").strip() == "offscreen":
    sys.path.insert(0, str(REPO_ROOT))
    from tests.support.screens import offscreen_platform

    os.environ["QT_QPA_PLATFORM"] = offscreen_platform("1920x1080")  # tall enough: the log dock is shown

STALL_TARGET_MS = 50.0
RSS_GROWTH_TARGET_MB = 60.0
LINES = 100_000
HEARTBEAT_MS = 5
TIMEOUT_S = 180.0


def rss_mb() -> float:
    """The process's resident memory now (Linux /proc)."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


class FloodServer:
    """The flooding server in a child process, driven through its standard input."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, str(BENCH_DIR / "_log_flood_server_main.py")],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        assert self.proc.stdout is not None
        ready = self.proc.stdout.readline().split()
        if ready[:1] != ["READY"]:
            raise RuntimeError("the flood server did not start")
        self.url = ready[1]

    def flood_listening(self, lines: int) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"listen-flood {lines}\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


class Bench:
    def __init__(self) -> None:
        from PySide6.QtWidgets import QApplication

        from inspector.gui.main_window import MainWindow
        from inspector.gui.settings import AppSettings
        from inspector.store import RunStore
        from inspector.store.secrets import NoSecretKeeper

        self.app = QApplication.instance() or QApplication([])
        self.store = RunStore.open(_TMP / "runs.db")
        self.window = MainWindow(self.store, _TMP / "runs.db", AppSettings(), secrets=NoSecretKeeper())
        self.window.resize(1280, 900)
        self.window.show()
        if os.environ.get("BENCH_SWITCH_S"):  # another interpreter-lock switch interval than the engine's
            sys.setswitchinterval(float(os.environ["BENCH_SWITCH_S"]))

    def spin_until(self, predicate, timeout_s: float = 30.0) -> None:
        spin_until(self.app, predicate, timeout_s)

    def use_server(self, url: str) -> None:
        from inspector.mcp.listening import ListenerState

        self.window.admin.save_server(url, "Flooding server", 120, {}, set())
        tools = self.window.workbench.tools
        self.spin_until(lambda: tools.model.rowCount() > 0 and tools.task is not None and not tools.task.running)
        self.spin_until(lambda: self.window.listener.status is not None
                        and self.window.listener.status.state is ListenerState.LISTENING)

    def last_line(self) -> str:
        model = self.window.log_dock.view.model
        rows = model.rowCount()
        return model.index(rows - 1, model.columnCount() - 1).data() or "" if rows else ""

    def measure(self, start, done) -> dict:
        """Start the flood with ``start()``; heartbeat and memory until ``done()``, then a second more."""
        from PySide6.QtCore import QElapsedTimer, QTimer

        gaps: list[tuple[int, int]] = []
        busy: list[float] = []
        peak = [rss_mb()]
        before = peak[0]
        clock, heartbeat, last, cpu = QElapsedTimer(), QTimer(), [0], [time.thread_time()]
        heartbeat.setInterval(HEARTBEAT_MS)

        def beat() -> None:
            now, used = clock.elapsed(), time.thread_time()
            gaps.append((now - last[0], now))
            busy.append((used - cpu[0]) * 1000)
            last[0], cpu[0] = now, used
            if len(gaps) % 4 == 0:
                peak[0] = max(peak[0], rss_mb())

        heartbeat.timeout.connect(beat)
        clock.start()
        heartbeat.start()
        began = time.monotonic()
        start()
        self.spin_until(done, TIMEOUT_S)
        shown_s = time.monotonic() - began
        # A moment more: whatever is still queued behind the last line is handled in it.
        settle = time.monotonic() + 1.0
        self.spin_until(lambda: time.monotonic() > settle, 5)
        line = self.last_line()
        heartbeat.stop()
        peak[0] = max(peak[0], rss_mb())
        worst = sorted(gaps, reverse=True)[:3]
        view = self.window.log_dock.view
        return {
            "longest_stall_ms": max(0, worst[0][0] - HEARTBEAT_MS) if worst else 0,
            "most_gui_cpu_between_beats_ms": max(busy, default=0.0),
            "worst_gaps_ms_at_ms": worst,
            "last_line_shown_s": shown_s,
            "last_line_number": int(line.split()[1]) if line.startswith("line ") else None,
            "rss_before_mb": before, "rss_peak_mb": peak[0], "rss_after_mb": rss_mb(),
            "rss_growth_mb": peak[0] - before,
            "rows": view.model.rowCount(),
            "header": view.state.text() + " | " + _dropped_text(view),
        }

    def quiet(self) -> dict:
        """The heartbeat for 3 s with nothing to do: what the machine's load alone costs."""
        end = time.monotonic() + 3.0
        return self.measure(lambda: None, lambda: time.monotonic() > end)

    def flood_call(self) -> dict:
        window = self.window
        assert window.workbench.tools.select_tool("flood")
        window.workbench.arguments.set_arguments({"lines": LINES})
        tasks: list = []
        # The call ends once the server has written the lines; what its session had not read by
        # then goes with the session. Done: the call is over and the log has shown its last line.
        seen: list = ["", 0.0]  # the last line, and since when it is shown

        def done() -> bool:
            line, now = self.last_line(), time.monotonic()
            if line != seen[0] or not tasks or tasks[0].running:
                seen[:] = [line, now]
                return False
            return now - seen[1] > 0.5

        result = self.measure(lambda: tasks.append(window.workbench.run_current_tool()), done)
        result["status"] = tasks[0].outcome.status
        return result

    def flood_listening(self, server: FloodServer) -> dict:
        # The operations' sessions are over (ended with DELETE): only the listening stream is flooded.
        self.spin_until(lambda: not self.window.engine.running_tasks(), 60)
        self.window.log_dock.view.model.clear()
        final = f"line {LINES} of {LINES}:"
        return self.measure(lambda: server.flood_listening(LINES), lambda: self.last_line().startswith(final))

    def close(self) -> None:
        from PySide6.QtCore import QEvent

        self.window.shut_down()
        self.window.deleteLater()
        self.app.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        self.store.close()


def _dropped_text(view) -> str:
    """What the log says of the lines it dropped (nothing before issue 18)."""
    label = getattr(view, "dropped", None)
    return label.text() if label is not None and label.isVisible() else "(no count shown)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("call", "listening"))
    args = parser.parse_args()
    server = FloodServer()
    bench = Bench()
    results: dict[str, dict] = {}
    try:
        bench.use_server(server.url)
        results["no flood (baseline)"] = bench.quiet()
        if args.only in (None, "call"):
            results["call"] = bench.flood_call()
        if args.only in (None, "listening"):
            results["listening"] = bench.flood_listening(server)
    finally:
        bench.close()
        server.close()

    rows = [[where, f"{r['longest_stall_ms']:.0f}", f"{r['most_gui_cpu_between_beats_ms']:.0f}",
             r["last_line_number"] or "-", f"{r['rss_before_mb']:.0f}",
             f"{r['rss_peak_mb']:.0f}", f"{r['rss_growth_mb']:.0f}", f"{r['last_line_shown_s']:.2f}", r["rows"]]
            for where, r in results.items()]
    print(table(["flood of 100,000 lines", "longest stall (ms)", "GUI work (ms)", "lines read", "RSS before (MB)",
                 "RSS peak (MB)", "growth (MB)", "last line shown (s)", "rows kept"], rows))
    for where, r in results.items():
        print(f"{where}: {r.get('status', 'listening')}; worst gaps (ms, at ms) {r['worst_gaps_ms_at_ms']}; "
              f"header: {r['header']}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    met = all(r["most_gui_cpu_between_beats_ms"] <= STALL_TARGET_MS and r["rss_growth_mb"] < RSS_GROWTH_TARGET_MB
              for r in results.values())
    print(f"targets: GUI work between two beats <= {STALL_TARGET_MS:.0f} ms, RSS growth < "
          f"{RSS_GROWTH_TARGET_MB:.0f} MB: "
          f"{verdict(met)}; load average {load:.2f} on {os.cpu_count()} cores")
    write_result("gui_log_flood", {
        "met": met, "targets": {"most_gui_cpu_between_beats_ms": STALL_TARGET_MS,
                                "rss_growth_mb": RSS_GROWTH_TARGET_MB},
        "lines": LINES, "floods": results, "load_average_1min": load,
    })
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
