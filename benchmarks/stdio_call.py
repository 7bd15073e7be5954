"""Cost of one ``tools/call echo`` on a running stdio server process: our client vs the official SDK's.

The server is the official SDK server over stdio (``tests/support/stdio_server.py``, tools ``echo``
and ``hang``), one process per client, started from the same command. In one event loop:

* ours      ``await client.call_tool(server, "echo", {"text": "hi"})`` on a ``McpClient`` whose
            command server's process already runs (the operation's only leg is ``tools/call``;
            its own deadline, cancel binding, reports and stderr routing included)
* sdk       ``await session.call_tool("echo", {"text": "hi"})`` on an initialized
            ``mcp.ClientSession`` over ``mcp.client.stdio.stdio_client`` (the SDK validates the
            answer against the tool's output schema; its first call lists the tools once, in the
            warm-up)
* channel   reference only: ``StdioProcess.request`` (ours, the bare line without an operation
            around it) on a third process: the floor under "ours"

Calls alternate one by one (ours, sdk, channel; the order flips every repeat) after a warm-up,
in several repeats. Reported: median, p95, min, max per client (ms) and ``ours/sdk``. Also the
first operation, started from nothing: ours ``call_tool`` on a new client (legs start,
initialize, notifications/initialized, tools/call) vs the SDK's ``stdio_client`` +
``ClientSession`` + ``initialize()`` + the first ``call_tool`` (which also lists the tools once);
and the close of each (``client.close()`` / leaving the SDK's context managers).

The server writes one stderr line per ``echo``: ours reads it (the server's log, routed to the
operation); the SDK hands the server a file for stderr (``errlog``) and never reads it.

Target: median(ours) / median(sdk) <= 1.0 (a call on a running process costs no more than with the
SDK). With ``--profile`` (or on a miss), ours is profiled with cProfile: own time by place.

``--command "node …/server-everything/dist/index.js stdio" --tool echo --args '{"message": "hi"}'``
measures against another stdio server instead (its result goes to ``stdio_call_command.json``).

Run: ``python -m benchmarks.stdio_call [--calls N] [--repeats N] [--profile] [--command ...]``
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import json
import os
import pstats
import statistics
import sys
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO_ROOT, percentile, summary, table, verdict, write_result  # noqa: E402
from mcp import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from inspector.mcp import McpClient, OperationRecorder, ServerEndpoint  # noqa: E402
from inspector.mcp.channels.stdio import StdioProcess  # noqa: E402
from inspector.mcp.server_command import ServerCommand, parse_command_line  # noqa: E402

NAME = "stdio_call"
TARGET_RATIO = 1.0
DEFAULT_CALLS = 300
DEFAULT_REPEATS = 5
WARMUP_CALLS = 30
FIRST_OPERATION_RUNS = 5
TIME_CAP_S = 45.0  # the call repeats stop early (never below 2) past this
CLIENTS = ("ours", "sdk", "channel")


@dataclass(frozen=True)
class Target:
    """The server command, and the call made on it."""

    command: ServerCommand = ServerCommand(sys.executable, ("-m", "tests.support.stdio_server"), cwd=str(REPO_ROOT))
    tool: str = "echo"
    arguments: dict[str, Any] = field(default_factory=lambda: {"text": "hi"})


TARGET = Target()


def our_server() -> ServerEndpoint:
    return ServerEndpoint.for_command(TARGET.command)


def sdk_parameters() -> StdioServerParameters:
    command = TARGET.command
    return StdioServerParameters(command=command.program, args=list(command.args), env=dict(command.env) or None,
                                 cwd=command.cwd)


class Ours:
    """A client whose command server's process runs; one ``call_tool`` per call."""

    def __init__(self) -> None:
        self.client = McpClient()
        self.server = our_server()

    async def call(self) -> None:
        result = await self.client.call_tool(self.server, TARGET.tool, TARGET.arguments, budget_s=10)
        assert not result.is_error and result.content, result

    async def close(self) -> None:
        await self.client.close()


class Sdk:
    """The official SDK's stdio client and an initialized session."""

    def __init__(self) -> None:
        self.stack = AsyncExitStack()
        self.errlog = open(os.devnull, "w")  # noqa: SIM115 - closed in close()
        self.session: ClientSession | None = None

    async def open(self) -> None:
        read, write = await self.stack.enter_async_context(stdio_client(sdk_parameters(), errlog=self.errlog))
        self.session = await self.stack.enter_async_context(ClientSession(read, write))
        await self.session.initialize()

    async def call(self) -> None:
        assert self.session is not None
        result = await self.session.call_tool(TARGET.tool, TARGET.arguments)
        assert not result.is_error and result.content[0].text, result  # type: ignore[union-attr]

    async def close(self) -> None:
        await self.stack.aclose()
        self.errlog.close()


class Channel:
    """Reference: our stdio line without an operation around it (handshake made by hand)."""

    def __init__(self) -> None:
        self.process: StdioProcess | None = None

    async def open(self) -> None:
        self.process = await StdioProcess.start(TARGET.command)
        await self.process.request({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}})
        await self.process.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    async def call(self) -> None:
        assert self.process is not None
        answer = await self.process.request({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                             "params": {"name": TARGET.tool, "arguments": TARGET.arguments}})
        assert answer["result"]["content"][0]["text"], answer

    async def close(self) -> None:
        if self.process is not None:
            await self.process.close()


async def measure_calls(calls: int, repeats: int) -> dict[str, Any]:
    ours, sdk, channel = Ours(), Sdk(), Channel()
    await ours.call()  # starts its process
    await sdk.open()
    await channel.open()
    clients = {"ours": ours, "sdk": sdk, "channel": channel}
    samples: dict[str, list[float]] = {name: [] for name in CLIENTS}
    cpu: dict[str, list[float]] = {name: [] for name in CLIENTS}
    per_repeat: dict[str, list[float]] = {name: [] for name in CLIENTS}
    try:
        for _ in range(WARMUP_CALLS):
            for name in CLIENTS:
                await clients[name].call()
        started = time.monotonic()
        for repeat in range(repeats):
            order = list(CLIENTS) if repeat % 2 == 0 else list(reversed(CLIENTS))
            block: dict[str, list[float]] = {name: [] for name in CLIENTS}
            gc.collect()
            for _ in range(calls):
                for name in order:
                    began, cpu_began = time.perf_counter(), time.process_time()
                    await clients[name].call()
                    block[name].append((time.perf_counter() - began) * 1000)
                    cpu[name].append((time.process_time() - cpu_began) * 1000)
            for name in CLIENTS:
                samples[name].extend(block[name])
                per_repeat[name].append(statistics.median(block[name]))
            if repeat + 1 >= 2 and time.monotonic() - started > TIME_CAP_S:
                print(f"  (time cap reached after {repeat + 1} repeats)")
                break
    finally:
        for client in (ours, sdk, channel):
            await client.close()
    return {"samples_ms": samples, "cpu_ms": cpu, "repeat_medians_ms": per_repeat}


async def first_operation_ours() -> dict[str, float]:
    client = McpClient()
    recorder = OperationRecorder()
    began = time.perf_counter()
    result = await client.call_tool(our_server(), TARGET.tool, TARGET.arguments, budget_s=30, observer=recorder)
    answered = time.perf_counter()
    await client.close()
    closed = time.perf_counter()
    assert not result.is_error, result
    legs = {leg.method: leg.elapsed_ms or 0.0 for leg in recorder.legs}
    return {"first_answer": (answered - began) * 1000,
            "start + handshake": legs["start"] + legs["initialize"] + legs["notifications/initialized"],
            "first tools/call": legs["tools/call"], "close": (closed - answered) * 1000}


async def first_operation_sdk() -> dict[str, float]:
    sdk = Sdk()
    began = time.perf_counter()
    await sdk.open()
    opened = time.perf_counter()
    await sdk.call()
    answered = time.perf_counter()
    await sdk.close()
    closed = time.perf_counter()
    return {"first_answer": (answered - began) * 1000, "start + handshake": (opened - began) * 1000,
            "first tools/call": (answered - opened) * 1000, "close": (closed - answered) * 1000}


async def measure_first(runs: int) -> dict[str, dict[str, list[float]]]:
    out: dict[str, dict[str, list[float]]] = {"ours": {}, "sdk": {}}
    for run in range(runs):
        pair = [("ours", first_operation_ours), ("sdk", first_operation_sdk)]
        if run % 2:
            pair.reverse()
        for name, operation in pair:
            for part, value in (await operation()).items():
                out[name].setdefault(part, []).append(value)
    return out


async def profile_ours(calls: int = 1000) -> dict[str, Any]:
    """cProfile over ``calls`` of ours on a running process: own time by place, top functions."""
    ours = Ours()
    try:
        for _ in range(WARMUP_CALLS):
            await ours.call()
        profiler = cProfile.Profile()
        began = time.perf_counter()
        profiler.enable()
        for _ in range(calls):
            await ours.call()
        profiler.disable()
        wall = time.perf_counter() - began
    finally:
        await ours.close()
    stats = pstats.Stats(profiler)
    places = {"waiting in epoll (the server's turn)": 0.0, "inspector (ours)": 0.0, "asyncio": 0.0,
              "other Python and C": 0.0}
    entries = []
    for (filename, line, func), (_cc, nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        own = tt * 1000 / calls
        if "select.epoll" in func or "poll" == func:
            places["waiting in epoll (the server's turn)"] += own
        elif "/inspector/" in filename:
            places["inspector (ours)"] += own
        elif "/asyncio/" in filename or "selectors.py" in filename:
            places["asyncio"] += own
        else:
            places["other Python and C"] += own
        entries.append({"function": f"{Path(filename).name}:{line}({func})", "calls_per_op": nc / calls,
                        "own_ms_per_op": own, "cumulative_ms_per_op": ct * 1000 / calls})
    text = io.StringIO()
    pstats.Stats(profiler, stream=text).sort_stats("tottime").print_stats(15)
    return {"calls": calls, "wall_ms_per_call_under_profiler": wall * 1000 / calls, "own_ms_by_place": places,
            "top_own": sorted(entries, key=lambda e: e["own_ms_per_op"], reverse=True)[:15]}


def _p95(values: list[float]) -> float:
    return percentile(values, 95)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=DEFAULT_CALLS, help="calls per client in each repeat")
    parser.add_argument("--repeats", type=int, default=DEFAULT_REPEATS)
    parser.add_argument("--first-runs", type=int, default=FIRST_OPERATION_RUNS)
    parser.add_argument("--profile", action="store_true", help="always profile ours with cProfile")
    parser.add_argument("--command", help="another stdio server to call, as a command line (default: the SDK "
                                          "server of tests/support/stdio_server.py)")
    parser.add_argument("--tool", default="echo", help="the tool to call (with --command)")
    parser.add_argument("--args", default='{"text": "hi"}', help="its arguments, as JSON (with --command)")
    args = parser.parse_args(argv)
    global TARGET
    if args.command:
        TARGET = Target(parse_command_line(args.command), args.tool, json.loads(args.args))

    print(f"[stdio_call] {args.repeats} repeats of {args.calls} calls per client (after {WARMUP_CALLS} warm-up), "
          f"alternating; then {args.first_runs} first operations each ...", flush=True)
    calls = asyncio.run(measure_calls(args.calls, args.repeats))
    first = asyncio.run(measure_first(args.first_runs))

    samples = calls["samples_ms"]
    stats = {name: summary(values) | {"p95": _p95(values)} for name, values in samples.items()}
    ratio = stats["ours"]["median"] / stats["sdk"]["median"]
    ratio_p95 = stats["ours"]["p95"] / stats["sdk"]["p95"]
    met = ratio <= TARGET_RATIO
    cpu = {name: statistics.median(values) for name, values in calls["cpu_ms"].items()}

    served_by = args.command or "the official SDK server over stdio"
    print(f"\ntools/call {TARGET.tool} on a running stdio process, per call (ms); server: {served_by}")
    print(table(["client", "n", "median", "p95", "min", "max", "CPU median", "repeat medians"],
                [[name, s["n"], f"{s['median']:.3f}", f"{s['p95']:.3f}", f"{s['min']:.3f}", f"{s['max']:.3f}",
                  f"{cpu[name]:.3f}", " ".join(f"{m:.3f}" for m in calls["repeat_medians_ms"][name])]
                 for name, s in stats.items()]))
    print("  (CPU: the benchmark process's own processor time per call, the client's work; the server's is not in it)")
    print()
    print(table(["ours/sdk median", "ours/sdk p95", "ours/sdk CPU", "ours/channel median", "target", "verdict"],
                [[f"{ratio:.3f}", f"{ratio_p95:.3f}", f"{cpu['ours'] / cpu['sdk']:.3f}",
                  f"{stats['ours']['median'] / stats['channel']['median']:.3f}", f"<= {TARGET_RATIO}", verdict(met)]],
                left=()))
    print("  (few calls on a loaded machine make the latency ratio noisy; the CPU ratio moves little)")

    first_stats = {name: {part: statistics.median(values) for part, values in parts.items()}
                   for name, parts in first.items()}
    print(f"\nthe first operation, from no process (medians of {args.first_runs} runs, ms)")
    parts = ["start + handshake", "first tools/call", "first_answer", "close"]
    print(table(["client"] + parts, [[name] + [f"{first_stats[name][part]:.1f}" for part in parts]
                                     for name in ("ours", "sdk")]))
    print("  (sdk's first tools/call also lists the tools once, to validate the answer against the output schema)")

    result: dict[str, Any] = {
        "description": "tools/call echo on a running stdio server process (official SDK server): ours vs the "
                       "official SDK's stdio client, alternating call by call; plus the first operation",
        "target": f"median(ours)/median(sdk) <= {TARGET_RATIO}", "met": met, "unit": "ms",
        "calls_per_repeat": args.calls, "repeats": len(calls["repeat_medians_ms"]["ours"]),
        "server": served_by, "tool": TARGET.tool,
        "stats": stats, "client_cpu_median_ms": cpu, "ratio_ours_to_sdk_cpu": cpu["ours"] / cpu["sdk"],
        "ratio_ours_to_sdk_median": ratio, "ratio_ours_to_sdk_p95": ratio_p95,
        "repeat_medians_ms": calls["repeat_medians_ms"],
        "first_operation_median_ms": first_stats, "first_operation_samples_ms": first,
    }
    if args.profile or not met:
        profile = asyncio.run(profile_ours())
        result["cprofile_ours"] = profile
        print(f"\ncProfile of ours ({profile['calls']} calls, {profile['wall_ms_per_call_under_profiler']:.3f} "
              f"ms/call under the profiler): own time by place, ms/call")
        print(table(["place", "ms/call"], [[place, f"{ms:.3f}"] for place, ms in
                                           sorted(profile["own_ms_by_place"].items(), key=lambda kv: -kv[1])]))
        print(table(["function", "calls/op", "own ms/op", "cum ms/op"],
                    [[e["function"], f"{e['calls_per_op']:.0f}", f"{e['own_ms_per_op']:.4f}",
                      f"{e['cumulative_ms_per_op']:.4f}"] for e in profile["top_own"][:12]]))
    path = write_result(NAME if not args.command else f"{NAME}_command", result)
    print(f"\nresult: {verdict(met)}  ({path.relative_to(path.parents[2])})")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
