"""Run every benchmark (each in its own process), print a summary, exit non-zero on a miss.

``make bench`` runs ``.venv/bin/python benchmarks/run_all.py``. Each benchmark prints its own
table and writes ``<name>.json`` into ``benchmarks/latest/`` (untracked); this script adds
``run_all.json`` (the verdicts and headline numbers). ``--record`` (``make bench-record``)
writes into the tracked ``benchmarks/results/`` instead. Runs are stored in a temporary
database, never the user's. Other scripts in
``benchmarks/`` (not starting with "_") run afterwards and are judged by their exit status.
Each benchmark is bounded by a timeout; the whole run takes about 1.5 minutes on 2 cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

BENCH_DIR = Path(__file__).resolve().parent
if str(BENCH_DIR) not in sys.path:
    sys.path.insert(0, str(BENCH_DIR))
import os  # noqa: E402

if "--record" in sys.argv[1:]:  # before _common reads it: the children inherit it too
    os.environ["BENCH_RECORD"] = "1"
from _common import RESULTS_DIR, table, verdict, write_result  # noqa: E402

BENCHMARKS = [
    # (script, timeout in seconds): the client benchmarks described in README.md, in this order
    ("deadline_precision", 60),
    ("operation_cost", 120),
    ("cancel_latency", 60),
    ("cli_interrupt", 60),
]
#: Any other ``benchmarks/<name>.py`` (not starting with "_") also runs, after these, judged by
#: its exit status alone (0 = targets met), with this timeout.
OTHER_TIMEOUT_S = 120


def discover() -> list[tuple[str, int, bool]]:
    """(name, timeout, known) for every benchmark script, the known ones first."""
    known = {name for name, _ in BENCHMARKS}
    others = sorted(path.stem for path in BENCH_DIR.glob("*.py")
                    if not path.name.startswith("_") and path.stem != "run_all" and path.stem not in known)
    return [(name, timeout, True) for name, timeout in BENCHMARKS] + [(n, OTHER_TIMEOUT_S, False) for n in others]


def _headline(name: str, data: dict[str, Any]) -> str:
    try:
        if name == "deadline_precision":
            s = data["stall_on_initialize"]["summary"]
            third = data["stall_on_tools_call_after_fast_handshake"]["runs"][0]["end_s"]
            return (f"end {s['min']:.3f}/{s['median']:.3f}/{s['max']:.3f} s (min/med/max), "
                    f"leg-3 stall {third:.3f} s")
        if name == "operation_cost":
            return "; ".join(f"{p['profile']}: ours {p['stats']['ours']['median']:.1f} ms, "
                             f"sdk {p['stats']['sdk']['median']:.1f} ms, ratio {p['ratio_ours_to_sdk_median']:.3f}"
                             for p in data["profiles"])
        if name == "cancel_latency":
            s = data["fire_to_raised"]
            notice = data.get("fire_to_server_notice") or {}
            return (f"fire->raised median {s['median']:.2f} ms, max {s['max']:.2f} ms; "
                    f"server notice median {notice.get('median', float('nan')):.2f} ms")
        if name == "cli_interrupt":
            a, b = data["stall_server"]["summary"], data["sdk_server"]["summary"]
            return (f"SIGINT->exit stall median {a['median']:.3f} s max {a['max']:.3f} s; "
                    f"sdk median {b['median']:.3f} s max {b['max']:.3f} s")
    except (KeyError, IndexError, TypeError):
        pass
    return "-"


def main() -> int:
    started = time.monotonic()
    outcomes = []
    for name, timeout, known in discover():
        print(f"\n===== {name} =====", flush=True)
        result_file = RESULTS_DIR / f"{name}.json"
        before = result_file.stat().st_mtime if result_file.exists() else None
        t0 = time.monotonic()
        try:
            proc = subprocess.run([sys.executable, str(BENCH_DIR / f"{name}.py")], timeout=timeout,
                                  cwd=str(BENCH_DIR.parent))
            code: int | None = proc.returncode
        except subprocess.TimeoutExpired:
            print(f"{name}: did not finish within {timeout} s", flush=True)
            code = None
        seconds = time.monotonic() - t0
        data: dict[str, Any] = {}
        fresh = result_file.exists() and result_file.stat().st_mtime != before
        if fresh:
            data = json.loads(result_file.read_text(encoding="utf-8"))
        if known:
            met = code == 0 and fresh and data.get("met") is True
            headline = _headline(name, data) if data else "-"
        else:
            met = code == 0
            headline = f"met: {json.dumps(data['met'])}" if "met" in data else f"exit status {code}"
        outcomes.append({"name": name, "exit_code": code, "seconds": seconds, "met": met,
                         "target": data.get("target") or data.get("targets"), "headline": headline})

    total = time.monotonic() - started
    print("\n===== summary =====")
    print(table(["benchmark", "verdict", "took s", "headline"],
                [[o["name"], verdict(o["met"]), f"{o['seconds']:.1f}", o["headline"]] for o in outcomes],
                left=(0, 3)))
    ok = all(o["met"] for o in outcomes)
    write_result("run_all", {"met": ok, "total_seconds": total, "benchmarks": outcomes})
    print(f"\nall targets met: {ok}  (total {total:.1f} s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
