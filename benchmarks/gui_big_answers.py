"""The Workbench against large and hostile answers: how long the window freezes and how much memory
it takes, from pressing Run (or adding the server, for a tool list) to the Result shown.

Each case is a real server on 127.0.0.1 (the fault server of the tests, in a process of its own)
answering one thing: 5,000 content blocks; 100 embedded text resources of 15 KB; one text block of
50 MB (beyond the client's 2 MiB body limit: the operation fails, bounded); one text block of
1.5 MB in one line and one in 150,000 lines; 2,000 images; structured content nested 10,000 deep
(more than the JSON reader takes: refused), 900 deep (taken) and 20,000 keys wide; 20,000 tools
with 1,000-character descriptions (20 pages); a tool whose input schema is nested
5,000 deep and 400 deep, and one with 100, 300 and 1,000 properties (the server added: its only tool
is chosen by itself, its form built). One with 10,000 properties is left out: the window builds its
form for minutes (see the README).

Freeze: the largest gap between the ticks of a 10 ms QTimer on the GUI thread. Memory: the
process's peak resident set (VmHWM, reset before each case) above its resident set at the start
of the case. Offscreen Qt, a temporary run database. Target: no gap over 100 ms in any case.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
_TMP = Path(tempfile.mkdtemp(prefix="gui-big-answers-"))
os.environ["RUN_INSPECTOR_SETTINGS"] = str(_TMP / "settings.ini")

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))
from _common import REPO_ROOT, spin_until, table, verdict, write_result  # noqa: E402

if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))
from tests.support.fault_server import Exchange, FaultServer  # noqa: E402

FREEZE_TARGET_MS = 100.0
TICK_MS = 10
#: A 1x1 PNG, base64 (made by Qt).
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAACXBIWXMAAA9hAAAPYQGoP6dpAAAADUlEQVQImWP4z8DwHwAFAAH/"
       "q842iQAAAABJRU5ErkJggg==")


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": 1}
    for _ in range(depth):
        value = {"a": value}
    return value


def deep_schema(depth: int) -> bytes:
    """An input schema nested ``depth`` objects deep, as JSON text (deeper than ``json.dumps`` goes)."""
    return b'{"type":"object","properties":{"a":' * depth + b'{"type":"string"}' + b"}}" * depth


def answer(result: dict[str, Any]) -> Callable[[Exchange], None]:
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send_result({"tools": [{"name": "big", "inputSchema": {"type": "object"}}]})
        else:
            exchange.send_result(result)
    return work


def raw_answer(body: bytes) -> Callable[[Exchange], None]:
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send_result({"tools": [{"name": "big", "inputSchema": {"type": "object"}}]})
        else:
            exchange.send(200, b'{"jsonrpc":"2.0","id":%d,"result":' % exchange.request.rpc_id + body + b"}")
    return work


def tool_list(count: int, page: int, description_chars: int) -> Callable[[Exchange], None]:
    tools = [{"name": f"tool_{n:05d}", "description": f"Tool {n}. " + "d" * description_chars,
              "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}} for n in range(count)]

    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            start = int((exchange.request.params or {}).get("cursor") or 0)
            result: dict[str, Any] = {"tools": tools[start:start + page]}
            if start + page < count:
                result["nextCursor"] = str(start + page)
            exchange.send_result(result)
        else:
            exchange.send_result({"content": [{"type": "text", "text": "ok"}]})
    return work


def schema_tool(schema: bytes) -> Callable[[Exchange], None]:
    def work(exchange: Exchange) -> None:
        if exchange.request.rpc_method == "tools/list":
            exchange.send(200, b'{"jsonrpc":"2.0","id":%d,"result":{"tools":[{"name":"big","inputSchema":'
                          % exchange.request.rpc_id + schema + b"}]}}")
        else:
            exchange.send_result({"content": [{"type": "text", "text": "ok"}]})
    return work


def wide_schema(count: int) -> bytes:
    return json.dumps({"type": "object", "properties": {f"p{n:05d}": {"type": "string", "description": "x" * 40}
                                                        for n in range(count)}}).encode()


def _status(key: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1]) * 1024
    return 0


def _reset_peak() -> None:
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        pass


class Bench:
    def __init__(self) -> None:
        from PySide6.QtWidgets import QApplication

        self.app = QApplication.instance() or QApplication([])

    def measure(self, number: int, name: str, action: str) -> dict[str, Any]:
        """``action``: "call" (Run the tool big), "list" (add the server: its tools listed, the first
        chosen, its form built)."""
        from PySide6.QtCore import QElapsedTimer, QTimer

        from inspector.gui.main_window import MainWindow
        from inspector.gui.settings import AppSettings
        from inspector.store import RunStore, ServerRegistry
        from inspector.store.secrets import NoSecretKeeper

        db = _TMP / f"case-{number}.db"
        with served(number) as url:
            store = RunStore.open(db)
            if action != "list":
                ServerRegistry(store.db).save_server(url, name="big", budget_s=60, era="handshake")
            window = MainWindow(store, db, AppSettings(), secrets=NoSecretKeeper())
            window.resize(1280, 800)
            window.show()
            tools = window.workbench.tools
            if action != "list":
                spin_until(self.app, lambda: tools.model.rowCount() > 0, 60)
            settle = time.monotonic() + 0.3
            spin_until(self.app, lambda: time.monotonic() > settle, 5)
            gaps: list[int] = []
            clock, tick, last = QElapsedTimer(), QTimer(), [0]
            tick.setInterval(TICK_MS)

            def beat() -> None:
                now = clock.elapsed()
                gaps.append(now - last[0])
                last[0] = now

            tick.timeout.connect(beat)
            _reset_peak()
            rss_before = _status("VmRSS:")
            clock.start()
            tick.start()
            began = time.perf_counter()
            shown = ""
            if action == "call":
                assert tools.select_tool("big")
                task = window.workbench.run_current_tool()
                spin_until(self.app, lambda: not task.running, 120)
                outcome = task.outcome
                shown = f"{outcome.record.status if outcome and outcome.record else outcome.internal_error}"
            elif action == "list":
                window.admin.save_server(url, "big", 60, {}, set())
                spin_until(self.app, lambda: tools.task is not None and not tools.task.running, 120)
                shown = f"{tools.model.rowCount()} tools"
            # The shown result painted: a few more turns of the loop with the ticks running.
            settle = time.monotonic() + 0.3
            spin_until(self.app, lambda: time.monotonic() > settle, 5)
            elapsed = time.perf_counter() - began
            tick.stop()
            peak = _status("VmHWM:")
            window.shut_down()
            window.deleteLater()
            store.close()
            self.app.processEvents()
        return {"case": name, "longest_gap_ms": max(gaps, default=0), "total_s": round(elapsed, 2),
                "memory_mb": round(max(0, peak - rss_before) / 2**20, 1), "shown": shown}


def cases() -> list[tuple[str, Callable[[], Callable[[Exchange], None]], str]]:
    """(name, what makes its server's work handler, action): made in the server's process only."""
    return [
        ("5,000 content blocks", lambda: answer({"content": [
            {"type": "resource_link", "uri": f"demo://r/{n}", "name": f"r{n}"} for n in range(5000)]}), "call"),
        ("embedded text resources 100 x 15 KB", lambda: answer({"content": [
            {"type": "resource", "resource": {"uri": f"demo://t/{n}", "text": "line\n" * 3000}}
            for n in range(100)]}), "call"),
        ("text block of 50 MB",
         lambda: raw_answer(b'{"content":[{"type":"text","text":"' + b"x" * 50_000_000 + b'"}]}'), "call"),
        ("text block of 1.5 MB, one line",
         lambda: answer({"content": [{"type": "text", "text": "x" * 1_500_000}]}), "call"),
        ("text block of 1.5 MB, 150,000 lines",
         lambda: answer({"content": [{"type": "text", "text": "line word\n" * 150_000}]}), "call"),
        ("2,000 images",
         lambda: answer({"content": [{"type": "image", "mimeType": "image/png", "data": PNG}] * 2000}), "call"),
        ("structured content 10,000 deep", lambda: raw_answer(
            b'{"content":[{"type":"text","text":"deep"}],"structuredContent":' + b'{"a":' * 10_000 + b"1"
            + b"}" * 10_000 + b"}"), "call"),
        ("structured content 900 deep", lambda: answer({"content": [{"type": "text", "text": "deep"}],
                                                "structuredContent": nested(900)}), "call"),
        ("structured content 20,000 keys", lambda: answer({"content": [{"type": "text", "text": "wide"}],
                                                   "structuredContent": {f"k{n}": {"v": n} for n in range(20_000)}}),
         "call"),
        ("20,000 tools, 1,000-char descriptions", lambda: tool_list(20_000, 1_000, 1_000), "list"),
        ("input schema 5,000 deep", lambda: schema_tool(deep_schema(5_000)), "list"),
        ("input schema 400 deep", lambda: schema_tool(deep_schema(400)), "list"),
        ("input schema 100 properties", lambda: schema_tool(wide_schema(100)), "list"),
        ("input schema 300 properties", lambda: schema_tool(wide_schema(300)), "list"),
        ("input schema 1,000 properties", lambda: schema_tool(wide_schema(1_000)), "list"),
    ]


def main() -> int:
    bench = Bench()
    only = os.environ.get("BENCH_CASE")
    rows = []
    for number, (name, _work, action) in enumerate(cases()):
        if only and only not in name:
            continue
        row = bench.measure(number, name, action)
        print(f"{row['case']}: longest gap {row['longest_gap_ms']} ms, {row['total_s']} s, "
              f"+{row['memory_mb']} MB peak, {row['shown']}", flush=True)
        rows.append(row)
    print(table(["case", "longest gap ms", "total s", "peak MB", "shown"],
                [[r["case"], r["longest_gap_ms"], r["total_s"], r["memory_mb"], r["shown"]] for r in rows]))
    worst = max((r["longest_gap_ms"] for r in rows), default=0)
    print(f"{verdict(worst <= FREEZE_TARGET_MS)}: longest GUI gap {worst} ms (target <= {FREEZE_TARGET_MS:.0f} ms)")
    write_result("gui_big_answers", {"cases": rows, "target_ms": FREEZE_TARGET_MS})
    return 0 if worst <= FREEZE_TARGET_MS else 1


@contextlib.contextmanager
def served(number: int) -> Iterator[str]:
    """The server of case ``number`` in a process of its own (its JSON writing does not share this
    process's interpreter lock or memory with the window); yields its URL."""
    child = subprocess.Popen([sys.executable, __file__, "--serve", str(number)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline() if child.stdout else ""
        if not line.startswith("READY "):
            raise RuntimeError(f"the server of case {number} did not start")
        yield line.split()[1]
    finally:
        if child.stdin:
            child.stdin.close()
        child.wait(30)


def serve(number: int) -> None:
    with FaultServer(work=cases()[number][1]()) as server:
        print(f"READY {server.url}", flush=True)
        sys.stdin.read()  # until the benchmark closes it


if __name__ == "__main__":
    if sys.argv[1:2] == ["--serve"]:
        serve(int(sys.argv[2]))
    else:
        raise SystemExit(main())
