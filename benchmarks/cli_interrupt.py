"""Ctrl-C on the command line: from SIGINT to process exit while a tools/call is in flight.

``python -m inspector call URL slow --args '{"seconds": 30}' --json`` runs as a subprocess.
Once its tools/call is in flight, the benchmark sends SIGINT and measures (``perf_counter``)
until the process has exited; it checks exit status 130 and that stdout is exactly one JSON
object with ``"outcome": "cancelled"``. Two servers:

* stall: a raw-socket server in this process that answers the handshake and never answers
  tools/call ("in flight" = the server has read the tools/call request);
* sdk: the official SDK server in a separate process, tool ``slow`` (it reports progress every
  0.1 s); "in flight" = the tool handler has started. Whether the handler was then cancelled
  (the CLI's background cancel notice reached it) is reported.

Target: every run (10 per server) exits within 0.5 s of SIGINT with status 130 and the JSON.
Also reported, no target: a double Ctrl-C (two SIGINTs 5 ms apart) exits at once with 130.

Run: ``.venv/bin/python benchmarks/cli_interrupt.py [--runs N]``
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO_ROOT, SdkServerProcess, StallServer, summary, table, verdict, write_result  # noqa: E402

NAME = "cli_interrupt"
RUNS = 10
TARGET_S = 0.5
EXIT_CANCELLED = 130


def _cli(url: str) -> subprocess.Popen[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.Popen(
        [sys.executable, "-m", "inspector", "call", url, "slow", "--args", '{"seconds": 30}',
         "--json", "--budget", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=str(REPO_ROOT))


def _interrupt(url: str, wait_in_flight: Callable[[float], float | None], double: bool = False) -> dict[str, Any]:
    """One run: start the CLI, wait until tools/call is in flight, SIGINT, time the exit."""
    launched = time.perf_counter()
    proc = _cli(url)
    stdout_lines: list[tuple[float, str]] = []

    def read_stdout() -> None:  # stamps when the JSON line arrives (the CLI flushes it at once)
        assert proc.stdout is not None
        for line in proc.stdout:
            stdout_lines.append((time.perf_counter(), line))

    reader = threading.Thread(target=read_stdout, daemon=True)
    reader.start()
    try:
        in_flight_at = wait_in_flight(20)
        if in_flight_at is None:
            proc.kill()
            proc.wait(5)
            return {"ok": False, "problem": "tools/call was never seen in flight"}
        time.sleep(0.05)  # the request is on the wire and the client is waiting for the answer
        proc.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        if double:
            time.sleep(0.005)
            proc.send_signal(signal.SIGINT)
        # A blocking wait() returns the moment the child is reaped; wait(timeout=...) would poll
        # with a back-off of up to 50 ms and blur the measurement. A watchdog bounds it instead.
        watchdog = threading.Timer(10, proc.kill)
        watchdog.start()
        try:
            proc.wait()
        finally:
            watchdog.cancel()
        exited = time.perf_counter()
        if exited - sent >= 10:
            return {"ok": False, "problem": "did not exit within 10 s of SIGINT (killed)"}
        reader.join(5)
        assert proc.stderr is not None
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        reader.join(2)
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()
    out = "".join(line for _, line in stdout_lines)
    lines = [line for line in out.splitlines() if line.strip()]
    printed_at = stdout_lines[0][0] if stdout_lines else None
    report: dict[str, Any] | None = None
    json_ok = False
    try:
        report = json.loads(out)
        json_ok = isinstance(report, dict) and len(lines) == 1
    except ValueError:
        pass
    outcome = report.get("outcome") if isinstance(report, dict) else None
    seconds = exited - sent
    result = {
        "sigint_to_exit_s": seconds,
        "sigint_to_json_printed_s": None if printed_at is None else printed_at - sent,
        "launch_to_in_flight_s": in_flight_at - launched,
        "exit_status": proc.returncode,
        "stdout_one_json_object": json_ok,
        "outcome": outcome,
        "cancelled_in_flight": report.get("cancelled_in_flight") if isinstance(report, dict) else None,
        "stderr": err.strip()[-500:] or None,
    }
    if double:
        result["ok"] = proc.returncode == EXIT_CANCELLED
    else:
        result["ok"] = (proc.returncode == EXIT_CANCELLED and json_ok and outcome == "cancelled"
                        and seconds <= TARGET_S)
    return result


def run_stall(runs: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    results = []
    with StallServer(stall_on="tools/call") as server:
        def waiter_factory() -> Callable[[float], float | None]:
            since = server.mark()

            def wait(timeout: float) -> float | None:
                event = server.wait_for(lambda e: e.kind == "stall", timeout, since)
                return None if event is None else event.at
            return wait

        for i in range(runs):
            since = server.mark()
            run = _interrupt(server.url, waiter_factory())
            notice = server.wait_for(lambda e: e.kind == "request" and e.method == "notifications/cancelled",
                                     1.0, since)
            delete = server.wait_for(lambda e: e.kind == "delete", 0.5, since)
            run["server_saw_cancel_notice"] = notice is not None
            run["server_saw_delete"] = delete is not None
            print(f"  stall run {i + 1}: {run.get('sigint_to_exit_s', float('nan')):.3f} s, "
                  f"exit {run.get('exit_status')}, outcome {run.get('outcome')}", flush=True)
            results.append(run)
        double = _interrupt(server.url, waiter_factory(), double=True)
        print(f"  stall double Ctrl-C: {double.get('sigint_to_exit_s', float('nan')):.3f} s, "
              f"exit {double.get('exit_status')}", flush=True)
    return results, double


def run_sdk(runs: int) -> list[dict[str, Any]]:
    results = []
    with SdkServerProcess() as server:
        for i in range(runs):
            server.clear_lines()

            def wait(timeout: float) -> float | None:
                line = server.wait_line("EVENT started", timeout)
                return None if line is None else line[0]

            run = _interrupt(server.url, wait)
            cancelled = server.wait_line("EVENT cancelled", 1.0)
            run["tool_handler_cancelled"] = cancelled is not None
            print(f"  sdk run {i + 1}: {run.get('sigint_to_exit_s', float('nan')):.3f} s, "
                  f"exit {run.get('exit_status')}, outcome {run.get('outcome')}, "
                  f"handler cancelled {run['tool_handler_cancelled']}", flush=True)
            results.append(run)
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args(argv)
    print(f"[cli_interrupt] {args.runs} runs per server ...", flush=True)
    stall, double = run_stall(args.runs)
    sdk = run_sdk(args.runs)

    def row(label: str, runs: list[dict[str, Any]], extra: str) -> list[Any]:
        times = [r["sigint_to_exit_s"] for r in runs if "sigint_to_exit_s" in r]
        s = summary(times) if times else {"n": 0, "min": float("nan"), "median": float("nan"),
                                          "max": float("nan")}
        statuses = ",".join(sorted({str(r.get("exit_status")) for r in runs}))
        json_ok = sum(1 for r in runs if r.get("stdout_one_json_object") and r.get("outcome") == "cancelled")
        printed = [r["sigint_to_json_printed_s"] for r in runs if r.get("sigint_to_json_printed_s") is not None]
        printed_median = summary(printed)["median"] if printed else float("nan")
        return [label, s["n"], f"{printed_median:.3f}", f"{s['min']:.3f}", f"{s['median']:.3f}", f"{s['max']:.3f}",
                statuses,
                f"{json_ok}/{len(runs)}", extra, verdict(all(r["ok"] for r in runs))]

    launch = [r["launch_to_in_flight_s"] for r in stall + sdk if "launch_to_in_flight_s" in r]
    print("\nSIGINT -> JSON on stdout / process exit (s), tools/call in flight")
    print(table(["server", "n", "JSON printed (median)", "exit min", "exit median", "exit max", "status",
                 "json cancelled", "server side", "<= 0.5 s"], left=(0, 8), rows=[
        row("stall (in-process thread)", stall,
            f"notice {sum(r['server_saw_cancel_notice'] for r in stall)}/{len(stall)}, "
            f"DELETE {sum(r['server_saw_delete'] for r in stall)}/{len(stall)}"),
        row("SDK server (separate process)", sdk,
            f"handler cancelled {sum(r.get('tool_handler_cancelled', False) for r in sdk)}/{len(sdk)}"),
    ]))
    print(f"\ndouble Ctrl-C (stall server): exit {double.get('exit_status')} after "
          f"{double.get('sigint_to_exit_s', float('nan')):.3f} s ({verdict(double['ok'])}, info); "
          f"CLI launch -> tools/call in flight: median {summary(launch)['median']:.3f} s")

    met = all(r["ok"] for r in stall + sdk)
    path = write_result(NAME, {
        "description": "SIGINT to a running `python -m inspector call ... --json` while tools/call is in flight",
        "target": f"every run exits within {TARGET_S} s with status 130 and one JSON object with "
                  "outcome 'cancelled'",
        "met": met, "unit": "s",
        "stall_server": {"summary": summary([r["sigint_to_exit_s"] for r in stall if "sigint_to_exit_s" in r]),
                         "runs": stall},
        "sdk_server": {"summary": summary([r["sigint_to_exit_s"] for r in sdk if "sigint_to_exit_s" in r]),
                       "runs": sdk},
        "double_ctrl_c": double,
        "launch_to_in_flight": summary(launch),
    })
    print(f"\nresult: {verdict(met)}  ({path.relative_to(path.parents[2])})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
