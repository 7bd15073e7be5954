"""`runs show` of a run nested in one long chain, and `runs list`'s reason for a run of many calls.

Three cases, each on a temporary database the script fills by importing an OTLP JSON Lines file it writes:

* *chain*: one trace of ``--spans`` spans (default 100,000) nested in one chain, each span the parent of
  the next (as an agent's recursion, or a hostile file, makes it). ``run-inspector runs show 1`` and
  ``runs show 1 --json`` as processes of their own, their output read from a pipe: the seconds to the
  first step's line (the listing streams: it must not wait for the whole run) and to the end; then the
  same two in this process's child with ``RunStep.to_payload`` counted: payload builds per step.
* *calls*: one trace of an agent's span with ``--calls`` MCP tool calls under it (default 60,000; every
  thousandth failed): ``failed_calls`` (the reason "failed (60 of 60,000 tool calls failed)") timed
  in a child process, 7 times, and ``run-inspector runs list`` as a process, 5 times (medians).
* *wrapped*: one trace of ``--wrapped`` MCP tool calls (default 2,000; every hundredth failed), each under
  an agent's TOOL span of its own tool (one call each, counted once): the same, and ``page_reasons`` (the
  reasons of the window's Runs list page) timed 7 times in the child too.

``--code DIR`` runs another checkout's code (e.g. ``git archive main | tar -x -C /tmp/before``) against
the same files: before/after. Targets: one payload build per listed step, the first step's line within
5 s; the reason's time is reported, no target (its floor is SQLite parsing each tool step's payload).

    .venv/bin/python benchmarks/runs_show_list.py [--spans N] [--calls N] [--wrapped N] [--code DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from _common import table, verdict, write_result  # noqa: E402  (also: runs go to a temporary database)

sys.path.insert(0, str(ROOT))
from tests.support.wrapped_calls import wrapped_calls  # noqa: E402

TARGET_BUILDS_PER_STEP = 1.0
TARGET_FIRST_LINE_S = 5.0

#: Run in the checkout under test: ``runs show`` in this process with every payload build counted.
COUNT_BUILDS = r"""
import io, sys
from contextlib import redirect_stdout
from inspector.cli import main
from inspector.runs.step import RunStep
real, builds = RunStep.to_payload, []
def counted(step, *args, **kwargs):
    builds.append(1)
    return real(step, *args, **kwargs)
RunStep.to_payload = counted
with redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
print(len(builds))
"""

#: Run in the checkout under test: the reason of every failed imported run, timed; then the reasons of
#: the runs as the window's Runs list asks for a page of them.
TIME_REASON = r"""
import json, sys, time
from inspector.store import RunStore
from inspector.store.recovery import failed_calls, page_reasons
store = RunStore.open(sys.argv[1])
ids = [row[0] for row in store.db.conn.execute("SELECT id FROM runs WHERE status = 'failed' AND source = 'imported'")]
times, page = [], []
for _ in range(7):
    began = time.perf_counter()
    found = failed_calls(store, ids)
    times.append(time.perf_counter() - began)
runs = store.list_runs(limit=None)
for _ in range(7):
    began = time.perf_counter()
    paged = page_reasons(store, runs)
    page.append(time.perf_counter() - began)
print(json.dumps({"seconds": times, "page_seconds": page, "said": [found[run].said() for run in sorted(found)],
                  "page_said": [paged[run].said() for run in sorted(paged)]}))
"""


def write_chain(path: Path, spans: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for first in range(0, spans, 5_000):
            batch = []
            for level in range(first, min(spans, first + 5_000)):
                span = {"traceId": "7" * 32, "spanId": f"{level + 1:016x}", "name": f"level-{level + 1}", "kind": 1,
                        "startTimeUnixNano": str(1_700_000_000_000_000_000 + level * 1_000),
                        "endTimeUnixNano": str(1_700_000_000_000_000_000 + (2 * spans - level) * 1_000),
                        "status": {}}
                if level:
                    span["parentSpanId"] = f"{level:016x}"
                batch.append(span)
            out.write(json.dumps(_document("deep", batch), separators=(",", ":")) + "\n")


def write_calls(path: Path, calls: int) -> None:
    trace, root, start = "6" * 32, "a" * 16, 1_796_218_495_000_000_000
    spans = [{"traceId": trace, "spanId": root, "name": "invoke_agent support-agent", "kind": 1,
              "startTimeUnixNano": str(start), "endTimeUnixNano": str(start + (calls + 2) * 1_000_000),
              "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "invoke_agent"}}],
              "status": {}}]
    for number in range(calls):
        begin = start + (number + 1) * 1_000_000
        spans.append({"traceId": trace, "spanId": f"{number + 1:016x}", "parentSpanId": root,
                      "name": "MCP send tools/call lookup", "kind": 3, "startTimeUnixNano": str(begin),
                      "endTimeUnixNano": str(begin + 500_000),
                      "attributes": [{"key": "mcp.method.name", "value": {"stringValue": "tools/call"}},
                                     {"key": "jsonrpc.request.id", "value": {"stringValue": str(number + 1)}}],
                      "status": {"code": 2, "message": "boom"} if number % 1000 == 7 else {}})
    with path.open("w", encoding="utf-8") as out:
        for first in range(0, len(spans), 5_000):
            out.write(json.dumps(_document("support-agent", spans[first:first + 5_000]), separators=(",", ":")) + "\n")


def _document(service: str, spans: list[dict]) -> dict:
    return {"resourceSpans": [{"resource": {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]},
                               "scopeSpans": [{"scope": {"name": "bench"}, "spans": spans}]}]}


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "inspector", "--lang", "en", *args]


def environment_for(code: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(code)}


def streamed(code: Path, *args: str) -> tuple[float, float, int]:
    """Seconds to the first step's line (the readable listing's first row under its heading; --json's
    first entry of the timeline) and to the end, and the bytes written."""
    began = time.perf_counter()
    process = subprocess.Popen(command(*args), stdout=subprocess.PIPE, cwd=code, env=environment_for(code))
    assert process.stdout is not None
    first, size, heading, seen = None, 0, False, b""
    for line in iter(lambda: process.stdout.readline(65_536), b""):
        size += len(line)
        if first is None:
            if "--json" in args:
                seen = (seen + line)[-200_000:]
                if b'"sequence"' in seen:
                    first = time.perf_counter() - began
            elif heading:
                first = time.perf_counter() - began
            elif line.lstrip().startswith(b"#"):
                heading = True
    assert process.wait() == 0
    return first if first is not None else float("nan"), time.perf_counter() - began, size


def imported(code: Path, folder: Path, name: str, source: Path) -> Path:
    db = folder / f"{name}.db"
    subprocess.run(command("--db", str(db), "import", str(source)), cwd=code, env=environment_for(code),
                   check=True, capture_output=True)
    return db


def reason_and_listing(code: Path, db: Path) -> dict[str, object]:
    """The reason timed in a child of ``code`` (7 times, and a page's reasons 7 times), ``runs list`` as a
    process 5 times: the seconds, their medians, what each said."""
    reason = json.loads(subprocess.run([sys.executable, "-c", TIME_REASON, str(db)], cwd=code,
                                       env=environment_for(code), check=True, capture_output=True,
                                       text=True).stdout)
    listed = []
    for _ in range(5):
        began = time.perf_counter()
        done = subprocess.run(command("--db", str(db), "runs", "list"), cwd=code,
                              env=environment_for(code), check=True, capture_output=True, text=True)
        listed.append(time.perf_counter() - began)
    return {"reason_seconds": reason["seconds"], "reason_median_s": statistics.median(reason["seconds"]),
            "page_reasons_seconds": reason["page_seconds"],
            "page_reasons_median_s": statistics.median(reason["page_seconds"]),
            "said": reason["said"], "page_said": reason["page_said"], "runs_list_seconds": listed,
            "runs_list_median_s": statistics.median(listed), "listed": done.stdout.splitlines()[-1]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spans", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=60_000)
    parser.add_argument("--wrapped", type=int, default=2_000)
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose code runs (before/after)")
    args = parser.parse_args()
    code = args.code.resolve()
    results: dict[str, object] = {"spans": args.spans, "calls": args.calls, "wrapped": args.wrapped,
                                  "code": str(code)}
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        write_chain(folder / "chain.jsonl", args.spans)
        chain = imported(code, folder, "chain", folder / "chain.jsonl")
        shows = {}
        for label, extra in (("runs show", ()), ("runs show --json", ("--json",))):
            first, total, size = streamed(code, "--db", str(chain), "runs", "show", "1", *extra)
            builds = int(subprocess.run([sys.executable, "-c", COUNT_BUILDS, "--db", str(chain), "runs", "show", "1",
                                         *extra], cwd=code, env=environment_for(code), check=True,
                                        capture_output=True, text=True).stdout.split()[-1])
            shows[label] = {"first_step_s": first, "seconds": total, "bytes": size,
                            "payload_builds_per_step": builds / args.spans}
            rows.append((label, f"{args.spans:,} nested", f"{first:.2f}", f"{total:.2f}", f"{builds / args.spans:.1f}"))
        results["chain"] = shows
        write_calls(folder / "calls.jsonl", args.calls)
        results["calls"] = reason_and_listing(code, imported(code, folder, "calls", folder / "calls.jsonl"))
        wrapped_calls(folder / "wrapped.jsonl", args.wrapped)
        results["wrapped"] = reason_and_listing(code, imported(code, folder, "wrapped", folder / "wrapped.jsonl"))
    print(table(("command", "run", "first step s", "all s", "payload builds/step"), rows, left=(0, 1)))
    print()
    print(table(("calls in the run", "reason (median of 7) s", "page's reasons (median of 7) s",
                 "runs list (median of 5) s", "said"),
                [(label, f"{case['reason_median_s']:.3f}", f"{case['page_reasons_median_s']:.3f}",
                  f"{case['runs_list_median_s']:.3f}", case["said"])
                 for label, case in ((f"{args.calls:,}", results["calls"]),
                                     (f"{args.wrapped:,} wrapped", results["wrapped"]))], left=(4,)))
    met = {"payload_builds_per_step": all(show["payload_builds_per_step"] <= TARGET_BUILDS_PER_STEP
                                          for show in shows.values()),
           "first_step_s": all(show["first_step_s"] <= TARGET_FIRST_LINE_S for show in shows.values())}
    print(" ".join(f"{name}: {verdict(ok)}" for name, ok in met.items()))
    if code == ROOT and args.spans == 100_000 and args.calls == 60_000 and args.wrapped == 2_000:
        path = write_result("runs_show_list", {"results": results, "targets": {
            "payload_builds_per_step": TARGET_BUILDS_PER_STEP, "first_step_s": TARGET_FIRST_LINE_S}, "met": met})
        print(f"written: {path}")
    return 0 if all(met.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
