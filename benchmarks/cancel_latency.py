"""Cancel latency: from ``CancelSignal.fire()`` on another thread to ``call_tool`` having raised.

A raw-socket MCP server on 127.0.0.1 (a thread in this process) answers the handshake at once
and never answers ``tools/call``. The operation's observer reports ``leg_started`` for
``tools/call``; a separate firing thread waits ~100 ms more and calls ``fire()``. Measured with
``time.perf_counter``:

* fire -> raised: ``fire()`` called (firing thread) to ``call_tool`` having raised
  ``McpTransportError(kind=cancelled, in_flight=True)`` (event-loop thread).
  Target over 50 runs: median <= 10 ms, worst <= 50 ms.
* fire -> server saw notifications/cancelled: the background housekeeping tells the server which
  request was torn down (reported, no target), together with fire -> server saw the DELETE.

Run: ``.venv/bin/python benchmarks/cancel_latency.py [--runs N]``
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import threading
import time
from pathlib import Path
from typing import Any

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import StallServer, summary, table, verdict, write_result  # noqa: E402

from inspector.mcp import (  # noqa: E402
    CancelSignal,
    ErrorKind,
    LegStarted,
    McpClient,
    McpTransportError,
    OperationRecorder,
    ServerEndpoint,
)

NAME = "cancel_latency"
RUNS = 50
FIRE_AFTER_S = 0.100
TARGET_MEDIAN_MS = 10.0
TARGET_WORST_MS = 50.0
TIME_CAP_S = 60.0


class _WorkLegWatcher(OperationRecorder):
    """Notes (on the loop thread) when the tools/call leg started."""

    def __init__(self) -> None:
        super().__init__()
        self.work_started = threading.Event()
        self.work_started_at = 0.0

    def leg_started(self, report: LegStarted) -> None:
        super().leg_started(report)
        if report.method == "tools/call":
            self.work_started_at = time.perf_counter()
            self.work_started.set()


def _fire_later(cancel: CancelSignal, watcher: _WorkLegWatcher, out: dict[str, float]) -> None:
    if not watcher.work_started.wait(10):
        return
    delay = watcher.work_started_at + FIRE_AFTER_S - time.perf_counter()
    if delay > 0:
        time.sleep(delay)
    out["fired_at"] = time.perf_counter()
    cancel.fire()
    out["fire_returned_at"] = time.perf_counter()


async def one_run(client: McpClient, server: StallServer) -> dict[str, Any]:
    cancel = CancelSignal()
    watcher = _WorkLegWatcher()
    times: dict[str, float] = {}
    firing = threading.Thread(target=_fire_later, args=(cancel, watcher, times), daemon=True)
    since = server.mark()
    firing.start()
    error: McpTransportError | None = None
    try:
        await client.call_tool(ServerEndpoint(server.url), "slow", {"seconds": 30}, budget_s=30,
                               cancel=cancel, observer=watcher)
    except McpTransportError as exc:
        error = exc
    raised_at = time.perf_counter()
    await client.drain()
    firing.join(5)
    notice = server.wait_for(lambda e: e.kind == "request" and e.method == "notifications/cancelled",
                             timeout=2, since=since)
    delete = server.wait_for(lambda e: e.kind == "delete", timeout=2, since=since)
    fired_at = times.get("fired_at")
    ok = (error is not None and error.kind == ErrorKind.CANCELLED and error.is_cancellation
          and error.in_flight is True and fired_at is not None)
    notice_id_matches = None
    if notice is not None and isinstance(notice.params, dict):
        work = next((e for e in server.events[since:] if e.kind == "stall"), None)
        notice_id_matches = work is not None and notice.params.get("requestId") == work.request_id
    return {
        "ok": ok,
        "kind": None if error is None else error.kind.value,
        "in_flight": None if error is None else error.in_flight,
        "fire_to_raised_ms": None if fired_at is None else (raised_at - fired_at) * 1000,
        "fire_call_ms": None if fired_at is None else (times["fire_returned_at"] - fired_at) * 1000,
        "leg_started_to_fire_ms": None if fired_at is None else (fired_at - watcher.work_started_at) * 1000,
        "fire_to_server_notice_ms": None if (notice is None or fired_at is None) else (notice.at - fired_at) * 1000,
        "notice_request_id_matches": notice_id_matches,
        "fire_to_server_delete_ms": None if (delete is None or fired_at is None) else (delete.at - fired_at) * 1000,
    }


async def run_all(url_server: StallServer, runs: int) -> list[dict[str, Any]]:
    client = McpClient()
    for _ in range(2):  # warm-up: imports, first connection
        await one_run(client, url_server)
    results = []
    started = time.monotonic()
    for _ in range(runs):
        results.append(await one_run(client, url_server))
        if time.monotonic() - started > TIME_CAP_S:
            print(f"  (time cap reached after {len(results)} runs)")
            break
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args(argv)
    print(f"[cancel_latency] {args.runs} runs, fire ~{FIRE_AFTER_S * 1000:.0f} ms after tools/call started ...",
          flush=True)
    with StallServer(stall_on="tools/call") as server:
        results = asyncio.run(run_all(server, args.runs))

    all_ok = all(r["ok"] for r in results)
    raised = [r["fire_to_raised_ms"] for r in results if r["fire_to_raised_ms"] is not None]
    notices = [r["fire_to_server_notice_ms"] for r in results if r["fire_to_server_notice_ms"] is not None]
    deletes = [r["fire_to_server_delete_ms"] for r in results if r["fire_to_server_delete_ms"] is not None]
    fire_calls = [r["fire_call_ms"] for r in results if r["fire_call_ms"] is not None]
    s_raised = summary(raised)
    met = (all_ok and len(raised) == len(results) and s_raised["median"] <= TARGET_MEDIAN_MS
           and s_raised["max"] <= TARGET_WORST_MS)

    def row(label: str, values: list[float], target: str, ok: str) -> list[Any]:
        s = summary(values) if values else {"n": 0, "min": float("nan"), "median": float("nan"),
                                            "p90": float("nan"), "max": float("nan")}
        return [label, s["n"], f"{s['min']:.3f}", f"{s['median']:.3f}", f"{s['p90']:.3f}", f"{s['max']:.3f}",
                target, ok]

    print("\ncancel while tools/call is stalled on the wire (ms)")
    print(table(["measure", "n", "min", "median", "p90", "max", "target", "verdict"], [
        row("fire() -> call_tool raised", raised, f"med<={TARGET_MEDIAN_MS:g} max<={TARGET_WORST_MS:g}",
            verdict(met)),
        row("fire() call itself (firing thread)", fire_calls, "-", "info"),
        row("fire() -> server saw notifications/cancelled", notices, "-", "info"),
        row("fire() -> server saw DELETE", deletes, "-", "info"),
    ]))
    kinds = sorted({str(r["kind"]) for r in results})
    ids_ok = all(r["notice_request_id_matches"] for r in results)
    print(f"\nkinds: {kinds}; all cancelled with in_flight=True: {all_ok}; "
          f"notice reached the server in {len(notices)}/{len(results)} runs, requestId matched: {ids_ok}")

    path = write_result(NAME, {
        "description": "CancelSignal.fire() from another thread ~100 ms into a stalled tools/call",
        "target": f"fire -> raised: median <= {TARGET_MEDIAN_MS} ms and max <= {TARGET_WORST_MS} ms over "
                  f"{RUNS} runs; every run raises kind cancelled with in_flight=True",
        "met": met, "unit": "ms", "runs": len(results),
        "fire_to_raised": s_raised,
        "fire_call": summary(fire_calls) if fire_calls else None,
        "fire_to_server_notice": summary(notices) if notices else None,
        "fire_to_server_delete": summary(deletes) if deletes else None,
        "notice_reached_server": len(notices), "notice_request_id_matched_all": ids_ok,
        "samples": results,
    })
    print(f"\nresult: {verdict(met)}  ({path.relative_to(path.parents[2])})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
