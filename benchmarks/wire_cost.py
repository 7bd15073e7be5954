"""Cost of keeping every leg's exchange (issue 25): a call with ``wire="full"`` against ``wire="off"``.

The official SDK server (tests/support/sdk_server.py) runs under uvicorn in a separate process. In
one event loop, interleaved round by round (the order flips every round to cancel drift), we time
``await McpClient(wire=...).call_tool(server, "echo", {"text": TEXT})`` + ``await client.drain()``:

* off     nothing of the wire kept;
* headers the heads of each leg's request and answer, redacted;
* full    heads and bodies (bounded, 64 KB per leg), redacted with the export redactor's token
          patterns (``inspector.traces.redact.redact_text``), as the command line and the window do.

Each for a small argument (``"hi"``) and a large one (32 KB of text, which travels twice: in the
request and in the answer). Reported: medians, and the ratio median(full) / median(off).

Run: ``.venv/bin/python benchmarks/wire_cost.py [--rounds N]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import SdkServerProcess, summary, table, write_result  # noqa: E402

from inspector.mcp import McpClient, OperationRecorder, ServerEndpoint  # noqa: E402
from inspector.traces.redact import redact_text  # noqa: E402

NAME = "wire_cost"
LEVELS = ("off", "headers", "full")
WARMUP_ROUNDS = 5
DEFAULT_ROUNDS = 40
TEXTS = {"small": "hi", "32KB": "lorem ipsum dolor " * (32 * 1024 // 18)}


async def _one(server: ServerEndpoint, level: str, text: str) -> float:
    client = McpClient(wire=level, wire_patterns=redact_text)
    recorder = OperationRecorder()
    started = time.perf_counter()
    await client.call_tool(server, "echo", {"text": text}, observer=recorder)
    await client.drain()
    elapsed = (time.perf_counter() - started) * 1000
    if level == "off":
        assert all(leg.exchange is None for leg in recorder.legs)
    else:
        assert all(leg.exchange is not None for leg in recorder.legs)
    return elapsed


async def _measure(url: str, rounds: int) -> dict[str, dict[str, list[float]]]:
    server = ServerEndpoint(url)
    times: dict[str, dict[str, list[float]]] = {size: {level: [] for level in LEVELS} for size in TEXTS}
    for size, text in TEXTS.items():
        for round_ in range(WARMUP_ROUNDS + rounds):
            order = LEVELS if round_ % 2 == 0 else tuple(reversed(LEVELS))
            for level in order:
                gc.collect()
                elapsed = await _one(server, level, text)
                if round_ >= WARMUP_ROUNDS:
                    times[size][level].append(elapsed)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=DEFAULT_ROUNDS)
    args = parser.parse_args()
    with SdkServerProcess() as sdk:
        times = asyncio.run(_measure(sdk.url, args.rounds))
    rows, result = [], {}
    for size, by_level in times.items():
        medians = {level: statistics.median(values) for level, values in by_level.items()}
        ratio = medians["full"] / medians["off"]
        result[size] = {"levels": {level: summary(values) for level, values in by_level.items()},
                        "ratio_full_to_off": ratio,
                        "ratio_headers_to_off": medians["headers"] / medians["off"]}
        rows.append([size, *(f"{medians[level]:.2f}" for level in LEVELS), f"{ratio:.3f}"])
    print(table(["argument", *(f"{level} ms" for level in LEVELS), "full/off"], rows))
    path = write_result(NAME, {"rounds": args.rounds, "results": result})
    print(f"written: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
