"""The upgrade of a big older database to schema 14: the plumbing marks of steps imported before their rule.

The script writes every trace of ``tests/fixtures/otel`` ``--copies`` times over (each copy's trace ids its own, as
``run_list_page.py`` writes them; default 240 copies: 103,680 steps, 41,520 of them request steps), imports the file
into a database with an older checkout (``--code DIR``, e.g. ``git archive 3834074f | tar -x -C /tmp/before``: its
steps keep the marks of that time), and opens it with this checkout in a child process: the seconds of the open
(the upgrade, one transaction), how many request steps it marked, and how many runs ``runs list`` then lists and
leaves out as plumbing traces, with those of a fresh import of the same file for comparison. Without ``--code``
the older database is this checkout's import with every request step's mark taken off (``json_remove``) and its
version set back to 13: the upgrade then marks every plumbing step, more than an older import leaves it.

    .venv/bin/python benchmarks/plumbing_upgrade.py [--copies N] [--code DIR]

Target: the upgrade of 100,000 steps within 30 s (it runs once, as the database is first opened by this version).
Exit status 0 when it is met and the upgraded database lists what the fresh import lists.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import table, verdict, write_result  # noqa: E402  (also: runs go to a temporary database)
from run_list_page import write_copies  # noqa: E402

TARGET_S = 30.0

#: Run in this checkout: the open (the upgrade) timed, then what `runs list` lists and leaves out.
OPEN = r"""
import json, sys, time
from inspector.store import RunStore
started = time.perf_counter()
store = RunStore.open(sys.argv[1])
seconds = time.perf_counter() - started
conn = store.db.conn
marked = conn.execute("SELECT COUNT(*) FROM steps WHERE kind = 'request' AND "
                      "json_extract(payload, '$.raw.otlp.plumbing') IS 1").fetchone()[0]
print(json.dumps({"seconds": seconds, "marked": marked, "listed": store.count_runs(plumbing_traces=False),
                  "plumbing traces": store.count_runs(plumbing_traces=True),
                  "steps": conn.execute("SELECT COUNT(*) FROM steps").fetchone()[0],
                  "request steps": conn.execute("SELECT COUNT(*) FROM steps WHERE kind = 'request'").fetchone()[0]}))
"""


def imported(code: Path, trace: Path, db: Path) -> None:
    subprocess.run([sys.executable, "-m", "inspector", "import", str(trace), "--db", str(db)], cwd=code,
                   env={**os.environ, "PYTHONPATH": str(code)}, check=True, capture_output=True, timeout=3600)


def opened(db: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", OPEN, str(db)], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          check=True, capture_output=True, text=True, timeout=3600)
    return json.loads(done.stdout.strip().splitlines()[-1])


def unmarked(db: Path) -> None:
    """This checkout's database as a version 13 one whose request steps have no plumbing mark."""
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("UPDATE steps SET payload = json_remove(payload, '$.raw.otlp.plumbing') WHERE kind = 'request'"
                 " AND json_extract(payload, '$.raw.otlp.plumbing') IS 1")
    conn.execute("PRAGMA user_version = 13")
    conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=240)
    parser.add_argument("--code", type=Path, help="an older checkout that imports the file (default: this one, "
                                                  "its request steps' marks taken off)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        trace, fresh, old = Path(folder) / "copies.jsonl", Path(folder) / "fresh.db", Path(folder) / "old.db"
        write_copies(trace, args.copies)
        imported(ROOT, trace, fresh)
        if args.code is None:
            shutil.copyfile(fresh, old)
            unmarked(old)
        else:
            imported(args.code, trace, old)
        upgrade = opened(old)
        again = opened(fresh)
    rows = [(name, f"{found['seconds']:.2f} s", f"{found['steps']:,}", f"{found['request steps']:,}",
             f"{found['marked']:,}", f"{found['listed']:,}", f"{found['plumbing traces']:,}")
            for name, found in (("older database, upgraded", upgrade), ("fresh import, opened", again))]
    print(table(("database", "open", "steps", "request steps", "marked plumbing", "runs listed", "plumbing traces"),
                rows))
    same = all(upgrade[key] == again[key] for key in ("marked", "listed", "plumbing traces"))
    ok = upgrade["seconds"] <= TARGET_S and same
    print(f"upgrade within {TARGET_S:.0f} s, lists as a fresh import: {verdict(ok)}")
    write_result("plumbing_upgrade", {"copies": args.copies, "code": str(args.code or ""), "target_s": TARGET_S,
                                      "upgrade": upgrade, "fresh": again, "ok": ok})
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
