"""One run of 1,000,000 tiny spans (issue 23): its import, `runs show`, `runs show --json` and the window.

The file is one OTLP trace (JSON Lines, 5,000 spans a line) of ``--spans`` spans (default 1,000,000): one
root span and every other span its child, each with ids, a name and times only, as a stranger's
instrumented loop makes them. On a temporary database: the import, then ``runs show 1`` and ``runs show 1
--json`` as processes of their own, their output read from a pipe (seconds to the first step's line and,
with ``--whole``, to the end; else the pipe is closed after ``--lines`` more reads, so only the start is
timed), and the window's timeline opening the run (``TimelinePane.show_run`` in a child, offscreen: the
longest the GUI thread is held, and the seconds until the rows show). Each child's peak resident size from ``wait4``.
``--code DIR`` runs another checkout (before: ``git archive main | tar -x -C DIR``, its translations
compiled). ``--keep DB`` keeps the database, ``--db DB`` measures one kept before (no import: the
same run for before and after). Informational: exit status 0.

    .venv/bin/python benchmarks/one_big_run.py [--spans N] [--lines N] [--whole] [--code DIR] [--keep DB | --db DB]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import table, write_result  # noqa: E402

#: Run in a child with the checkout under test: the window's timeline opening run 1 of the database (its span
#: tree on the reader thread, as the Runs tab lays it out, where the checkout can). A timer ticks every 10 ms
#: meanwhile: the longest gap between the ticks (from asking to the rows shown) is the GUI thread held longest.
WINDOW = r"""
import sys, time
from pathlib import Path
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication([])
from inspector.store import RunStore
from inspector.gui.runs.timeline_pane import TimelinePane
store = RunStore.open(sys.argv[1])
pane = TimelinePane(store); pane.resize(1200, 700); pane.show(); app.processEvents()
if hasattr(pane.model, "lay_out_on_thread"):
    pane.model.lay_out_on_thread(Path(sys.argv[1]))
ticks, loop, timer = [], QEventLoop(), QTimer(interval=10)
timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
timer.timeout.connect(lambda: pane.model.rowCount() and loop.quit())
began = time.perf_counter(); timer.start(); pane.show_run(store.get_run(1))
if not pane.model.rowCount():
    loop.exec()
app.processEvents(); shown = time.perf_counter()
marks = [began, *ticks, shown]
print(max(later - earlier for earlier, later in zip(marks, marks[1:])), shown - began, pane.model.rowCount())
pane.model.stop_layouts() if hasattr(pane.model, "stop_layouts") else None
"""


def write_wide(path: Path, spans: int) -> None:
    """One trace: a root span and ``spans - 1`` tiny children under it, 1 µs apart."""
    with path.open("w", encoding="utf-8") as out:
        for first in range(0, spans, 5_000):
            batch = []
            for number in range(first, min(spans, first + 5_000)):
                start = 1_700_000_000_000_000_000 + number * 1_000
                span = {"traceId": "5" * 32, "spanId": f"{number + 1:016x}", "name": f"step-{number}", "kind": 1,
                        "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + 500)}
                if number:
                    span["parentSpanId"] = f"{1:016x}"
                batch.append(span)
            out.write(json.dumps({"resourceSpans": [{
                "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "tiny"}}]},
                "scopeSpans": [{"scope": {"name": "bench"}, "spans": batch}]}]}, separators=(",", ":")) + "\n")


def measured(code: Path, argv: list[str], lines: int | None, json_output: bool = False) -> dict[str, float]:
    """Seconds to the first step's line and to the end (or to ``lines`` reads after it), peak RSS in MB."""
    began = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=code,
                               env={**os.environ, "PYTHONPATH": str(code), "QT_QPA_PLATFORM": "offscreen"})
    assert process.stdout is not None
    first, heading, seen, after, last = None, False, b"", 0, b""
    for line in iter(lambda: process.stdout.readline(65_536), b""):
        last = line
        if first is None:
            if json_output:
                seen = (seen + line)[-200_000:]
                first = time.perf_counter() - began if b'"sequence"' in seen else None
            elif heading:
                first = time.perf_counter() - began
            heading = heading or line.lstrip().startswith(b"#")
        else:
            after += 1
            if lines is not None and after >= lines:
                break
    process.stdout.close()
    _pid, _status, usage = os.wait4(process.pid, 0)
    return {"first_step_s": first if first is not None else float("nan"), "seconds": time.perf_counter() - began,
            "peak_mb": usage.ru_maxrss / 1024, "last": last.decode(errors="replace").strip()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=1_000_000)
    parser.add_argument("--lines", type=int, default=2_000, help="reads after the first step's line, then stop")
    parser.add_argument("--whole", action="store_true", help="read the whole output (1,000,000 steps: minutes)")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs (before/after)")
    parser.add_argument("--db", type=Path, help="a database this script filled before (--keep): no import")
    parser.add_argument("--keep", type=Path, help="keep the database made here at this path")
    args = parser.parse_args()
    code, lines = args.code.resolve(), None if args.whole else args.lines
    cli = [sys.executable, "-m", "inspector", "--lang", "en"]
    results: dict[str, object] = {"spans": args.spans, "code": str(code), "whole": args.whole}
    with tempfile.TemporaryDirectory() as scratch:
        source, db = Path(scratch) / "wide.jsonl", str(args.db or args.keep or Path(scratch) / "wide.db")
        if args.db is None:
            write_wide(source, args.spans)
            results["import"] = measured(code, [*cli, "--db", db, "import", str(source)], None)
        results["runs show"] = measured(code, [*cli, "--db", db, "runs", "show", "1"], lines)
        results["runs show --json"] = measured(code, [*cli, "--db", db, "runs", "show", "1", "--json"], lines, True)
        window = measured(code, [sys.executable, "-c", WINDOW, db], None)
        held, shown, rows = window.pop("last").split()
        results["window"] = {**window, "gui_thread_held_s": float(held), "rows_shown_s": float(shown),
                             "rows": int(rows)}
    names = [name for name in ("runs show", "runs show --json", "import") if name in results]
    rows = [(name, f"{results[name]['first_step_s']:.2f}" if name != "import" else "-",
             f"{results[name]['seconds']:.1f}", f"{results[name]['peak_mb']:.0f}") for name in names]
    window = results["window"]
    rows.append(("window: GUI thread held longest", "-", f"{window['gui_thread_held_s']:.2f}",
                 f"{window['peak_mb']:.0f}"))
    rows.append(("window: rows shown", "-", f"{window['rows_shown_s']:.1f}", "-"))
    print(table(("what", "first step s", "s", "peak MB"), rows))
    if code == ROOT:
        print(f"written: {write_result('one_big_run', results)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
