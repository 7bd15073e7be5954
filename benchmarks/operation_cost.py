"""Cost of one "connect + call echo" operation: our client vs. the official SDK client.

The official SDK server (tests/support/sdk_server.py) runs under uvicorn in a separate process
(log level "error", no access log). In one event loop, interleaved round by round (the order
flips every round to cancel drift), we time:

* ours      ``await McpClient().call_tool(server, "echo", {"text": "hi"})`` + ``await client.drain()``
            (wire: POST initialize, POST notifications/initialized, POST tools/call, DELETE)
* sdk       ``async with mcp.Client(url, mode="legacy") as c: await c.call_tool("echo", ...)``
            (same handshake era; its wire: POST initialize, POST notifications/initialized,
            GET (standalone stream), POST tools/call, POST tools/list (output-schema
            validation of call_tool), DELETE)
* httpx     bare reference: one ``httpx.AsyncClient`` (TLS context built once, as ours does),
            three POSTs (initialize, notifications/initialized, tools/call, the answer read and
            decoded); the empty 202 of notifications/initialized is read, so tools/call reuses the
            keep-alive connection, as ours does. The session's DELETE and the close happen after
            the clock stops; "httpx+del" (DELETE and close included) is the fair floor for ours
* sdk-auto  (reference only) ``mcp.Client(url)`` in its default ``mode="auto"``: it probes
            ``server/discover`` and, against this 2026-era server, skips the handshake
            (wire: POST server/discover, POST tools/call, POST tools/list); a different protocol
            era, so not used for the ratio.

Target: median(ours) / median(sdk) <= 0.25, in each server profile (event-stream answers,
the SDK default, and ``json_response=True``). If the target is missed (or with ``--profile``),
ours is broken down per leg and profiled with cProfile; both go to the table and the result file.

Run: ``.venv/bin/python benchmarks/operation_cost.py [--rounds N] [--profile]``
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import pstats
import ssl
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import httpx  # noqa: E402
import mcp  # noqa: E402
from _common import SdkServerProcess, summary, table, verdict, write_result  # noqa: E402

from inspector.mcp import McpClient, OperationRecorder, ServerEndpoint  # noqa: E402

NAME = "operation_cost"
TARGET_RATIO = 0.25
WARMUP_ROUNDS = 8
DEFAULT_ROUNDS = 60
PROFILE_TIME_CAP_S = 45.0  # per server profile: rounds stop early (never below 30) past this
ACCEPT = "application/json, text/event-stream"
CLIENTS = ("ours", "sdk", "httpx", "sdk-auto")


def _decode(response: httpx.Response) -> dict[str, Any]:
    """The JSON-RPC message of an answer that is either JSON or an event stream."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        for line in response.text.splitlines():
            if line.startswith("data:"):
                message = json.loads(line[5:])
                if "id" in message:
                    return message
        raise RuntimeError("no answer in the event stream")
    return response.json()


async def op_ours(url: str) -> None:
    client = McpClient()
    result = await client.call_tool(ServerEndpoint(url), "echo", {"text": "hi"})
    await client.drain()
    assert result.content == "hi", result


async def op_sdk(url: str, mode: str = "legacy") -> None:
    async with mcp.Client(url, mode=mode) as client:
        result = await client.call_tool("echo", {"text": "hi"})
    assert result.content[0].text == "hi", result  # type: ignore[union-attr]


_SSL = ssl.create_default_context()  # built once: httpx.AsyncClient() alone would spend ~16 ms on it


async def op_httpx(url: str) -> tuple[float, float]:
    """Bare httpx: one AsyncClient, three POSTs; returns (seconds for the three POSTs, seconds
    including the session's DELETE and the close, which are done after the first clock stops).

    The (empty) 202 of ``notifications/initialized`` is read, so ``tools/call`` reuses the
    keep-alive connection, as our client does.
    """
    started = time.perf_counter()
    http = httpx.AsyncClient(verify=_SSL, trust_env=False, timeout=10)
    headers = {"Content-Type": "application/json", "Accept": ACCEPT}
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "bench", "version": "0"}}}
    r = await http.post(url, content=json.dumps(init), headers=headers)
    answer = _decode(r)
    headers["Mcp-Session-Id"] = r.headers["mcp-session-id"]
    headers["MCP-Protocol-Version"] = answer["result"]["protocolVersion"]
    note = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"})
    await http.post(url, content=note, headers=headers)
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": "hi"}}}
    r = await http.post(url, content=json.dumps(call), headers=headers)
    answer = _decode(r)
    three_posts = time.perf_counter() - started
    assert answer["result"]["content"][0]["text"] == "hi", answer
    await http.delete(url, headers=headers)
    await http.aclose()
    return three_posts, time.perf_counter() - started


async def _timed(op: Callable[[], Awaitable[Any]]) -> float:
    started = time.perf_counter()
    await op()
    return time.perf_counter() - started


async def measure(url: str, rounds: int) -> dict[str, list[float]]:
    samples: dict[str, list[float]] = {name: [] for name in CLIENTS}
    samples["httpx+del"] = []

    async def one_round(record: bool, flip: bool) -> None:
        order = list(CLIENTS)
        if flip:
            order.reverse()
        for which in order:
            if which == "ours":
                seconds = await _timed(lambda: op_ours(url))
            elif which == "sdk":
                seconds = await _timed(lambda: op_sdk(url, "legacy"))
            elif which == "sdk-auto":
                seconds = await _timed(lambda: op_sdk(url, "auto"))
            else:
                three, total = await op_httpx(url)
                if record:
                    samples["httpx+del"].append(total * 1000)
                seconds = three
            if record:
                samples[which].append(seconds * 1000)

    for i in range(WARMUP_ROUNDS):
        await one_round(False, i % 2 == 1)
    gc.collect()
    started = time.monotonic()
    for i in range(rounds):
        await one_round(True, i % 2 == 1)
        if i + 1 >= 30 and time.monotonic() - started > PROFILE_TIME_CAP_S:
            print(f"  (time cap reached after {i + 1} rounds)")
            break
    return samples


async def profile_ours(url: str, operations: int = 40) -> dict[str, Any]:
    """cProfile over ``operations`` of ours; the top entries by cumulative and by own time."""
    for _ in range(3):
        await op_ours(url)
    profiler = cProfile.Profile()
    started = time.perf_counter()
    profiler.enable()
    for _ in range(operations):
        await op_ours(url)
    profiler.disable()
    wall = time.perf_counter() - started
    stats = pstats.Stats(profiler)
    entries = []
    for (filename, line, func), (_cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        entries.append({"function": f"{Path(filename).name}:{line}({func})", "path": filename,
                        "calls": nc, "own_ms_per_op": tt * 1000 / operations,
                        "cumulative_ms_per_op": ct * 1000 / operations})
    categories = _categorize(stats, operations)
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(25)
    by_cum = sorted(entries, key=lambda e: e["cumulative_ms_per_op"], reverse=True)[:40]
    by_own = sorted(entries, key=lambda e: e["own_ms_per_op"], reverse=True)[:25]
    return {"operations": operations, "wall_ms_per_op_under_profiler": wall * 1000 / operations,
            "own_time_by_category_ms_per_op": categories,
            "top_cumulative": by_cum, "top_own": by_own, "report": text.getvalue()}


_CATEGORIES = [
    # (label, predicate on (path, function name)) -- first match wins
    ("waiting in epoll (server + loopback)", lambda path, fn: "select.epoll" in fn),
    ("failed imports (importlib; httpcore's `import sniffio`)",
     lambda path, fn: "importlib" in path or fn in ("<built-in method posix.stat>",)),
    ("socket syscalls (connect/send/recv/close)", lambda path, fn: "_socket.socket" in fn or "socket.close" in fn
     or fn.startswith("<method 'recv")),
    ("httpx", lambda path, fn: "/httpx/" in path),
    ("httpcore + h11", lambda path, fn: "/httpcore/" in path or "/h11/" in path),
    ("anyio", lambda path, fn: "/anyio/" in path),
    ("asyncio", lambda path, fn: "/asyncio/" in path or "selectors.py" in path),
    ("inspector (ours)", lambda path, fn: "/inspector/" in path),
    ("C builtins (str ops, isinstance...; partly called by the failed imports)", lambda path, fn: path == "~"),
    ("other Python (json, ssl, stdlib)", lambda path, fn: True),
]


def _categorize(stats: pstats.Stats, operations: int) -> dict[str, float]:
    """Own time per operation (ms), summed by where the code lives."""
    totals = {label: 0.0 for label, _ in _CATEGORIES}
    for (filename, _line, func), (_cc, _nc, tt, _ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        for label, match in _CATEGORIES:
            if match(filename, func):
                totals[label] += tt * 1000 / operations
                break
    return totals


async def breakdown_ours(url: str, operations: int = 30) -> dict[str, Any]:
    """Wall time of ours by part, from the operation's own reports (medians, ms)."""
    parts: dict[str, list[float]] = {"setup before leg 1": [], "initialize": [], "notifications/initialized": [],
                                     "tools/call": [], "between legs + result": [], "call_tool total": [],
                                     "drain (DELETE + close)": [], "operation total": []}
    for _ in range(operations + 3):
        recorder = _StampedRecorder()
        client = McpClient()
        started = time.perf_counter()
        await client.call_tool(ServerEndpoint(url), "echo", {"text": "hi"}, observer=recorder)
        returned = time.perf_counter()
        await client.drain()
        drained = time.perf_counter()
        legs = {leg.method: leg.elapsed_ms or 0.0 for leg in recorder.legs}
        parts["setup before leg 1"].append((recorder.first_leg_at - started) * 1000)
        for method in ("initialize", "notifications/initialized", "tools/call"):
            parts[method].append(legs.get(method, float("nan")))
        total = (returned - started) * 1000
        parts["call_tool total"].append(total)
        parts["between legs + result"].append(total - sum(legs.values()) - parts["setup before leg 1"][-1])
        parts["drain (DELETE + close)"].append((drained - returned) * 1000)
        parts["operation total"].append((drained - started) * 1000)
    return {name: statistics.median(values[3:]) for name, values in parts.items()}


class _StampedRecorder(OperationRecorder):
    def __init__(self) -> None:
        super().__init__()
        self.first_leg_at = 0.0

    def leg_started(self, report: Any) -> None:
        if not self.legs_started:
            self.first_leg_at = time.perf_counter()
        super().leg_started(report)


def run_profile(label: str, json_response: bool, rounds: int, want_profile: bool) -> dict[str, Any]:
    with SdkServerProcess(json_response=json_response) as server:
        samples = asyncio.run(measure(server.url, rounds))
        stats = {name: summary(values) for name, values in samples.items()}
        ratio = stats["ours"]["median"] / stats["sdk"]["median"]
        result: dict[str, Any] = {
            "profile": label, "json_response": json_response, "rounds": len(samples["ours"]),
            "unit": "ms", "stats": stats, "ratio_ours_to_sdk_median": ratio,
            "ratio_ours_to_sdk_p90": stats["ours"]["p90"] / stats["sdk"]["p90"],
            "ratio_ours_to_httpx_del_median": stats["ours"]["median"] / stats["httpx+del"]["median"],
            "target_ratio": TARGET_RATIO, "met": ratio <= TARGET_RATIO, "samples_ms": samples,
        }
        if want_profile or ratio > TARGET_RATIO:
            result["breakdown_ours_ms"] = asyncio.run(breakdown_ours(server.url))
            result["cprofile_ours"] = asyncio.run(profile_ours(server.url))
        return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS)
    parser.add_argument("--profile", action="store_true", help="always profile ours with cProfile")
    parser.add_argument("--only", choices=["event-stream", "json"], help="run one server profile only")
    args = parser.parse_args(argv)

    profiles = [("event-stream", False), ("json", True)]
    if args.only:
        profiles = [p for p in profiles if p[0] == args.only]
    results = []
    for label, json_response in profiles:
        print(f"[operation_cost] profile {label}: warm-up {WARMUP_ROUNDS} rounds, then {args.rounds} rounds ...",
              flush=True)
        results.append(run_profile(label, json_response, args.rounds, args.profile))

    rows = []
    for res in results:
        for name in ("ours", "sdk", "httpx", "httpx+del", "sdk-auto"):
            s = res["stats"][name]
            rows.append([f"{res['profile']}/{name}", s["n"], f"{s['median']:.2f}", f"{s['p90']:.2f}",
                         f"{s['min']:.2f}", f"{s['max']:.2f}"])
    print("\nconnect + call echo, per operation (ms); server: official SDK in a separate process")
    print(table(["profile/client", "n", "median", "p90", "min", "max"], rows))
    print()
    ratio_rows = [[res["profile"], f"{res['ratio_ours_to_sdk_median']:.3f}", f"{res['ratio_ours_to_sdk_p90']:.3f}",
                   f"{res['ratio_ours_to_httpx_del_median']:.2f}", f"<= {TARGET_RATIO}", verdict(res["met"])]
                  for res in results]
    print(table(["profile", "ours/sdk median", "ours/sdk p90", "ours/(httpx+del)", "target", "verdict"],
                ratio_rows))
    for res in results:
        prof = res.get("cprofile_ours")
        if not prof:
            continue
        print(f"\nwhere ours spends an operation ({res['profile']}), wall-clock medians from its own reports:")
        print(table(["part", "ms"], [[name, f"{value:.2f}"] for name, value in res["breakdown_ours_ms"].items()]))
        print(f"\ncProfile of ours ({res['profile']}, {prof['operations']} operations, "
              f"{prof['wall_ms_per_op_under_profiler']:.1f} ms/op under the profiler): own time by place, ms/op")
        print(table(["place", "ms/op"], [[name, f"{value:.2f}"] for name, value in
                                         sorted(prof["own_time_by_category_ms_per_op"].items(),
                                                key=lambda kv: -kv[1])]))
        print("top functions by own time:")
        print(table(["function", "calls/op", "own ms/op", "cum ms/op"],
                    [[e["function"], f"{e['calls'] / prof['operations']:.0f}", f"{e['own_ms_per_op']:.3f}",
                      f"{e['cumulative_ms_per_op']:.3f}"] for e in prof["top_own"][:10]]))
        prof.pop("report", None)

    met = all(res["met"] for res in results)
    path = write_result(NAME, {
        "description": "connect + call echo per operation: ours vs the official SDK client (mode=legacy), "
                       "interleaved; SDK server in a separate process",
        "target": f"median(ours)/median(sdk) <= {TARGET_RATIO} in every profile",
        "met": met, "profiles": results,
    })
    print(f"\nresult: {verdict(met)}  ({path.relative_to(path.parents[2])})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
