"""A writer killed with SIGKILL never leaves the database corrupt; its run becomes interrupted."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from inspector.store import RunStore

WRITER = """
import sys
from inspector.runs import Leg, RunTrace, ToolResult
from inspector.store import RunStore
store = RunStore.open(sys.argv[1])
run_id = store.start_run("killed writer")
legs = (Leg("initialize", 20, 1.0, 200, "ok"), Leg("tools/call", 19, 2.0, 200, "ok"))
step = RunTrace().record_tool_result(0, "echo", {"text": "x" * 200}, ToolResult.text("y" * 2000), 3.0, legs=legs)
print("ready", flush=True)
while True:
    store.append_step(run_id, step)
"""


def test_kill_9_in_a_loop_leaves_an_intact_database(tmp_path: Path) -> None:
    path = tmp_path / "runs.db"
    for round_number in range(8):
        writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
        assert writer.stdout.readline().strip() == "ready"
        time.sleep(0.05 + 0.03 * round_number)  # kill at varying points of the write loop
        writer.send_signal(signal.SIGKILL)
        writer.wait(10)
        conn = sqlite3.connect(path)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
    with RunStore.open(path) as store:
        runs = store.list_runs(limit=None)
        assert len(runs) == 8
        assert {run.status for run in runs} == {"interrupted"}
        # Every stored step is whole: its legs were committed with it.
        orphans = store.db.execute(
            "SELECT COUNT(*) FROM steps s WHERE (SELECT COUNT(*) FROM legs l WHERE l.step_id = s.id) != 2"
        ).fetchone()[0]
        assert orphans == 0
        assert sum(store.count_steps(run.id) for run in runs) > 0
