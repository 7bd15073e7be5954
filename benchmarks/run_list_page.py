"""A page of the window's Runs list in a database of many runs, with why each failed run failed.

The script writes an OTLP JSON Lines file holding every trace of ``tests/fixtures/otel`` ``--copies``
times over (each copy's trace ids made its own: a run per trace; default 1,000 copies, about 23,000
runs, a third of them failed with a reason), imports it into a temporary database, and then, in a child
process of the checkout under test, times 7 times each (medians and worst):

* *page*: ``read_listing`` of the first page (500 runs, newest first), as the Runs tab and its reader
  thread read it, and the Status cell of each of its rows said (``DisplayRole``);
* *more*: the next page read as the view scrolls (``fetchMore``), its Status cells said;
* *again*: 5,000 runs loaded (ten pages) read again, as a live read does while a run runs, their cells said;
* *failed*: the first page with the "failed" filter (every row a failed run with a reason);
* ``runs list --limit 500`` in the child (``inspector.cli.main``, output to a string);
* ``runs list --outcome cancelled`` in the child: the runs of one status, and the line under them naming the runs of
  another status with a cancelled call.

``--code DIR`` runs another checkout's code (e.g. ``git archive main | tar -x -C /tmp/before``) against
a copy of the same database, imported by the first ``--code`` checkout when one is given (a newer checkout
upgrades its own copy; an older one refuses a newer schema): before/after. Target: a page read in at most
0.1 s (the list is read again while runs run, every second at most), and no query per run.

    .venv/bin/python benchmarks/run_list_page.py [--copies N] [--code DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import table, verdict, write_result  # noqa: E402  (also: runs go to a temporary database)

TARGET_PAGE_S = 0.1
FIXTURES = ROOT / "tests" / "fixtures" / "otel"
TRACE_ID = re.compile(r'"traceId":\s*"([0-9a-fA-F]{32})"')
TIME = re.compile(r'"(start|end)TimeUnixNano":\s*"?(\d+)"?')
#: Each copy an hour after the one before: a page newest first holds every kind of run, as a real list does.
COPY_NS = 3_600 * 10**9

#: Run in the checkout under test: the list's pages and `runs list`, timed; the queries of a page counted.
TIME_PAGES = r"""
import io, json, os, statistics, sys, time
from contextlib import redirect_stdout
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
app = QApplication([])
from inspector.cli import main
from inspector.gui.runs.runs_model import COLUMNS, RunListModel
try:
    from inspector.gui.runs.run_listing import read_listing
except ImportError:  # a checkout before the list read its runs' ids apart from their records
    from inspector.gui.runs.runs_model import read_listing
from inspector.store import RunStore
from inspector.store.browse import RunFilter
store = RunStore.open(sys.argv[1])
status = COLUMNS.index("status")

def said(model, rows):
    return [model.index(row, status).data(Qt.ItemDataRole.DisplayRole) for row in rows]

def timed(work):
    times = []
    for _ in range(7):
        began = time.perf_counter()
        work()
        times.append(time.perf_counter() - began)
    return times

def page():
    model = RunListModel(store)
    model.refresh(reset=True)
    return said(model, range(model.rowCount()))

def more():
    model = RunListModel(store)
    model.refresh(reset=True)
    began = time.perf_counter()
    model.fetchMore()
    said(model, range(500, model.rowCount()))
    return time.perf_counter() - began

def again():
    model = RunListModel(store)
    model.refresh(reset=True)
    while model.rowCount() < 5000 and model.canFetchMore():
        model.fetchMore()
    began = time.perf_counter()
    model.refresh()  # the loaded runs read again, as a live read reads them
    said(model, range(model.rowCount()))
    return time.perf_counter() - began

def failed():
    model = RunListModel(store)
    model.set_filter(RunFilter(statuses=("failed",)))
    return said(model, range(model.rowCount()))

def listed(*more):
    with redirect_stdout(io.StringIO()) as out:
        main(["runs", "list", "--limit", "500", *more, "--db", sys.argv[1]])
    return out.getvalue()

asked = []
store.db.conn.set_trace_callback(asked.append)
read_listing(store, RunFilter(), "started", True, 500)
store.db.conn.set_trace_callback(None)
shown = page()
runs = store.db.conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
result = {"page": timed(page), "more": [more() for _ in range(7)], "again": [again() for _ in range(7)],
          "failed": timed(failed),
          "runs list": timed(listed), "cancelled": timed(lambda: listed("--outcome", "cancelled")),
          "queries": len(asked), "runs": runs,
          "with reason": sum("(" in text for text in shown), "sample": sorted(set(shown))[:4]}
print(json.dumps(result))
"""


def write_copies(path: Path, copies: int) -> None:
    """Every fixture trace ``copies`` times, each copy with trace ids of its own, an hour after the last."""
    lines = [line for fixture in sorted(FIXTURES.glob("*.jsonl"))
             for line in fixture.read_text(encoding="utf-8").splitlines() if line.strip()]
    with path.open("w", encoding="utf-8") as out:
        for copy in range(copies):
            for line in lines:
                line = TRACE_ID.sub(lambda found, copy=copy: f'"traceId":"{copy:08x}{found.group(1)[8:]}"', line)
                line = TIME.sub(lambda found, copy=copy: f'"{found.group(1)}TimeUnixNano":'
                                f'"{int(found.group(2)) + copy * COPY_NS}"', line)
                out.write(line + "\n")


def measure(code: Path, db: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(code)}
    own = db.with_name(f"{code.name}-{abs(hash(str(code)))}.db")  # each checkout upgrades a copy of its own
    shutil.copyfile(db, own)
    done = subprocess.run([sys.executable, "-c", TIME_PAGES, str(own)], cwd=code, env=env, capture_output=True,
                          text=True, check=True, timeout=1800)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=1000)
    parser.add_argument("--code", type=Path, action="append", default=[],
                        help="another checkout to measure against the same database (repeatable)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        trace, db = Path(folder) / "copies.jsonl", Path(folder) / "runs.db"
        write_copies(trace, args.copies)
        importer = args.code[0] if args.code else ROOT  # the oldest schema: the others upgrade their copies
        subprocess.run([sys.executable, "-m", "inspector", "import", str(trace), "--db", str(db)], cwd=importer,
                       env={**os.environ, "PYTHONPATH": str(importer)}, check=True, capture_output=True,
                       timeout=3600)
        measured = {str(code): measure(code, db) for code in [ROOT, *args.code]}
    rows = []
    for code, found in measured.items():
        for case in ("page", "more", "again", "failed", "runs list", "cancelled"):
            times = sorted(found[case])
            rows.append((f"{Path(code).name}: {case}", f"{times[len(times) // 2]:.3f} s", f"{times[-1]:.3f} s",
                         found["queries"], found["with reason"]))
    print(f"{next(iter(measured.values()))['runs']:,} runs")
    print(table(("checkout: case", "median", "worst", "queries of a page", "page rows with a reason"), rows))
    ours = measured[str(ROOT)]
    ok = sorted(ours["page"])[3] <= TARGET_PAGE_S
    print(f"page read and said <= {TARGET_PAGE_S} s: {verdict(ok)}")
    write_result("run_list_page", {"copies": args.copies,
                                   "measured": {Path(code).name: found for code, found in measured.items()}})
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
