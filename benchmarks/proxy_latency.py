"""Latency the recording proxy adds to an agent's call (issue 24): a call through the proxy against a direct one.

The agent is the official ``mcp`` SDK client (its own ``Client``, the handshake era, one session each
way); the server is the official SDK server (tests/support/sdk_server.py) under uvicorn in a child
process; the proxy is ``run-inspector proxy`` in a child process of its own, recording every call
into a temporary database (``--db``), as a user would run it. Calls of ``echo`` alternate between the
two sessions (the order flips every round to cancel drift). Reported: the median per call each way,
the added milliseconds and the ratio median(proxied) / median(direct), for a small argument and a
32 KB one (which travels twice, and is parsed and kept by the proxy's wire capture).

Run: ``.venv/bin/python benchmarks/proxy_latency.py [--rounds N]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import REPO_ROOT, SdkServerProcess, summary, table, write_result  # noqa: E402

NAME = "proxy_latency"
WARMUP_ROUNDS = 10
DEFAULT_ROUNDS = 200
TEXTS = {"small": "hi", "32KB": "lorem ipsum dolor " * (32 * 1024 // 18)}
#: What the proxy may add to a call's median (ratio), on a quiet machine.
TARGET_RATIO = 2.0


def _start_proxy(target: str, db: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "proxy", "--to", target, "--json", "--stop-with-stdin",
                             "--db", str(db)], cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    return proc, json.loads(line)["url"]


async def _measure(direct_url: str, proxied_url: str, rounds: int) -> dict[str, dict[str, list[float]]]:
    from mcp.client import Client

    times = {size: {"direct": [], "proxied": []} for size in TEXTS}
    async with Client(direct_url, mode="legacy") as direct, Client(proxied_url, mode="legacy") as proxied:
        clients = {"direct": direct, "proxied": proxied}
        for size, text in TEXTS.items():
            for round_ in range(WARMUP_ROUNDS + rounds):
                order = ("direct", "proxied") if round_ % 2 == 0 else ("proxied", "direct")
                for how in order:
                    started = time.perf_counter()
                    result = await clients[how].call_tool("echo", {"text": text})
                    elapsed = (time.perf_counter() - started) * 1000
                    assert result.content[0].text == text
                    if round_ >= WARMUP_ROUNDS:
                        times[size][how].append(elapsed)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS)
    args = parser.parse_args()
    with SdkServerProcess() as sdk, tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "runs.db"
        proxy, proxied_url = _start_proxy(sdk.url, db)
        try:
            times = asyncio.run(_measure(sdk.url, proxied_url, args.rounds))
        finally:
            assert proxy.stdin is not None
            proxy.stdin.close()
            proxy.wait(30)
        from inspector.store import RunStore

        with RunStore.open(db) as store:
            recorded = sum(1 for run in store.list_runs(limit=None) if run.title.startswith("tools/call echo"))
    rows, result, met = [], {}, True
    for size, by_way in times.items():
        medians = {way: statistics.median(values) for way, values in by_way.items()}
        ratio = medians["proxied"] / medians["direct"]
        met = met and ratio <= TARGET_RATIO
        result[size] = {"ways": {way: summary(values) for way, values in by_way.items()},
                        "added_ms": medians["proxied"] - medians["direct"], "ratio_proxied_to_direct": ratio}
        rows.append([size, f"{medians['direct']:.2f}", f"{medians['proxied']:.2f}",
                     f"{medians['proxied'] - medians['direct']:.2f}", f"{ratio:.3f}"])
    print(table(["argument", "direct ms", "proxied ms", "added ms", "ratio"], rows))
    expected = len(TEXTS) * (WARMUP_ROUNDS + args.rounds)
    print(f"runs recorded by the proxy: {recorded} of {expected} calls")
    path = write_result(NAME, {"rounds": args.rounds, "target_ratio": TARGET_RATIO, "recorded_runs": recorded,
                               "calls_through_proxy": expected, "results": result})
    print(f"written: {path}")
    return 0 if met and recorded == expected else 1


if __name__ == "__main__":
    sys.exit(main())
