"""Shared helpers for the benchmarks: environment, statistics, tables, result files, and the
two loopback servers (a raw-socket server that can stall, and the official SDK server in a
separate process).

Not a benchmark itself; every benchmark script imports it. Only 127.0.0.1 is ever used.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import queue
import socket
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
#: ``BENCH_RECORD=1`` (``make bench-record``, ``run_all.py --record``): write the tracked results
#: that the repository keeps. Otherwise results go to an untracked folder, so that a run on any
#: machine leaves the repository as it was.
RECORD_ENV = "BENCH_RECORD"
RECORDED_DIR = BENCH_DIR / "results"
SCRATCH_DIR = BENCH_DIR / "latest"
RESULTS_DIR = RECORDED_DIR if os.environ.get(RECORD_ENV) == "1" else SCRATCH_DIR


if str(REPO_ROOT) not in sys.path:  # the scripts run standalone: make `inspector`/`tests` importable
    sys.path.insert(0, str(REPO_ROOT))


def _private_folders() -> None:
    """Every benchmark (and every process it starts) keeps its files in a temporary folder, as the tests
    do: its run database, window settings and log, never the user's, and no keyring; set before anything
    opens one, removed when the benchmark ends. (The database and data folder only: a benchmark's
    internal error went to the user's log, its window's settings to the user's config folder.)"""
    import atexit
    import shutil
    import tempfile

    from tests.support.isolation import isolating_variables

    folder = tempfile.mkdtemp(prefix="run-inspector-bench-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ.update(isolating_variables(Path(folder)))


_private_folders()


# -- environment, statistics, output ------------------------------------------------------------

def environment() -> dict[str, Any]:
    """What the numbers were measured on."""
    try:
        import httpx
        httpx_version = httpx.__version__
    except Exception:  # pragma: no cover - reported, never fatal
        httpx_version = None
    try:
        from importlib.metadata import version
        mcp_version = version("mcp")
    except Exception:  # pragma: no cover
        mcp_version = None
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "httpx": httpx_version,
        "mcp_sdk": mcp_version,
        "load_average_1_5_15": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
    }


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile, q in [0, 100]."""
    data = sorted(values)
    if not data:
        return float("nan")
    if len(data) == 1:
        return data[0]
    pos = (len(data) - 1) * q / 100.0
    low = int(pos)
    high = min(low + 1, len(data) - 1)
    return data[low] + (data[high] - data[low]) * (pos - low)


def summary(values: Sequence[float]) -> dict[str, float | int]:
    """min / median / p90 / max / mean of a sample (same unit as the input)."""
    return {
        "n": len(values),
        "min": min(values),
        "median": statistics.median(values),
        "p90": percentile(values, 90),
        "max": max(values),
        "mean": statistics.fmean(values),
    }


def rounded(obj: Any, digits: int = 4) -> Any:
    """Round every float in a JSON-able structure (result files stay readable)."""
    if isinstance(obj, float):
        return round(obj, digits)
    if isinstance(obj, dict):
        return {key: rounded(value, digits) for key, value in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [rounded(value, digits) for value in obj]
    return obj


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], left: Iterable[int] = (0,)) -> str:
    """A plain-text table; the columns in ``left`` are left-aligned, the others right-aligned."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    left_columns = set(left)

    def line(row: list[str]) -> str:
        return "  ".join(row[i].ljust(widths[i]) if i in left_columns else row[i].rjust(widths[i])
                         for i in range(len(row))).rstrip()

    out = [line(cells[0]), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in cells[1:])
    return "\n".join(out)


def write_result(name: str, data: dict[str, Any]) -> Path:
    """Write ``<name>.json`` (with the environment) to :data:`RESULTS_DIR` and return its path."""
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    path = RESULTS_DIR / f"{name}.json"
    payload = {"benchmark": name, "environment": environment(), **data}
    path.write_text(json.dumps(rounded(payload), indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return path


class PythonSpinner:
    """A thread running pure Python while the block runs, as the network engine's thread does while
    operations start: the GUI thread then waits for the interpreter lock at each call into Python."""

    def __enter__(self) -> PythonSpinner:
        self._spinning = True
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()
        time.sleep(0.05)
        return self

    def _spin(self) -> None:
        total = 0
        while self._spinning:
            for number in range(1000):
                total += number

    def __exit__(self, *exc: object) -> None:
        self._spinning = False
        self._thread.join()


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# -- a raw-socket MCP server that can stall ------------------------------------------------------

@dataclass
class ServerEvent:
    at: float  # time.perf_counter() when the server saw it
    kind: str  # "accept", "request", "stall", "delete", "closed_by_client"
    method: str | None = None
    request_id: Any = None
    params: Any = None
    connection: int = 0


@dataclass
class StallServer:
    """A tiny HTTP/1.1 MCP server on 127.0.0.1, one thread per connection.

    ``stall_on`` names the JSON-RPC method that is read and then never answered (the connection
    is held open until the client closes it): ``"initialize"`` stalls the very first request,
    ``"tools/call"`` answers the handshake at once and stalls the work request, ``None`` never
    stalls (``tools/call`` then echoes). ``handshake_delay_s`` delays the answer to
    ``initialize``. Every request is recorded with its ``perf_counter`` time.
    """

    stall_on: str | None = "tools/call"
    handshake_delay_s: float = 0.0
    protocol_version: str = "2025-11-25"
    events: list[ServerEvent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self._stop = threading.Event()
        self._cond = threading.Condition()
        self._connections: list[socket.socket] = []
        self._threads: list[threading.Thread] = []
        self._sessions = 0
        self._conn_ids = 0
        self._accept_thread = threading.Thread(target=self._accept_loop, name=f"stall-{self.port}",
                                               daemon=True)

    # lifecycle
    def __enter__(self) -> StallServer:
        self._accept_thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        with self._cond:
            conns = list(self._connections)
        for conn in conns:
            try:
                conn.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        self._accept_thread.join(2)
        for thread in list(self._threads):
            thread.join(2)
        self._listener.close()

    # observation
    def _record(self, event: ServerEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def mark(self) -> int:
        """Index to pass to :meth:`wait_for` so only later events count."""
        with self._cond:
            return len(self.events)

    def wait_for(self, predicate: Callable[[ServerEvent], bool], timeout: float,
                 since: int = 0) -> ServerEvent | None:
        """Block until an event (from index ``since`` on) satisfies ``predicate``."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for event in self.events[since:]:
                    if predicate(event):
                        return event
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)

    # serving
    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._cond:
                self._conn_ids += 1
                cid = self._conn_ids
                self._connections.append(conn)
            self._record(ServerEvent(time.perf_counter(), "accept", connection=cid))
            thread = threading.Thread(target=self._serve, args=(conn, cid), daemon=True)
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
            thread.start()

    def _serve(self, conn: socket.socket, cid: int) -> None:
        conn.settimeout(0.25)
        buffer = b""
        try:
            while not self._stop.is_set():
                head_end = buffer.find(b"\r\n\r\n")
                if head_end < 0:
                    chunk = self._recv(conn)
                    if chunk is None:
                        continue
                    if not chunk:
                        return
                    buffer += chunk
                    continue
                head = buffer[:head_end].decode("latin-1")
                lines = head.split("\r\n")
                method_line = lines[0].split(" ")
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0") or 0)
                while len(buffer) < head_end + 4 + length:
                    chunk = self._recv(conn)
                    if chunk is None:
                        if self._stop.is_set():
                            return
                        continue
                    if not chunk:
                        return
                    buffer += chunk
                body = buffer[head_end + 4: head_end + 4 + length]
                buffer = buffer[head_end + 4 + length:]
                if not self._handle(conn, cid, method_line[0], headers, body):
                    return
        finally:
            with self._cond:
                if conn in self._connections:
                    self._connections.remove(conn)
            conn.close()

    def _recv(self, conn: socket.socket) -> bytes | None:
        try:
            return conn.recv(65536)
        except TimeoutError:
            return None
        except OSError:
            return b""

    def _send(self, conn: socket.socket, status: str, body: bytes = b"",
              extra: dict[str, str] | None = None) -> None:
        headers = {"Content-Length": str(len(body))}
        if body:
            headers["Content-Type"] = "application/json"
        headers.update(extra or {})
        head = f"HTTP/1.1 {status}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items()) + "\r\n"
        conn.sendall(head.encode("latin-1") + body)

    def _handle(self, conn: socket.socket, cid: int, verb: str, headers: dict[str, str],
                body: bytes) -> bool:
        """Answer one request; False ends the connection."""
        now = time.perf_counter()
        if verb == "DELETE":
            self._record(ServerEvent(now, "delete", connection=cid))
            self._send(conn, "200 OK")
            return True
        if verb != "POST":
            self._send(conn, "405 Method Not Allowed")
            return True
        try:
            message = json.loads(body)
        except ValueError:
            self._send(conn, "400 Bad Request")
            return True
        method = message.get("method")
        rid = message.get("id")
        params = message.get("params")
        self._record(ServerEvent(now, "request", method, rid, params, cid))
        if self.stall_on is not None and method == self.stall_on:
            self._record(ServerEvent(time.perf_counter(), "stall", method, rid, None, cid))
            self._hold(conn, cid)
            return False
        if rid is None:  # a notification: accepted, no body
            self._send(conn, "202 Accepted")
            return True
        if method == "initialize":
            if self.handshake_delay_s:
                if self._stop.wait(self.handshake_delay_s):
                    return False
            with self._cond:
                self._sessions += 1
                session = f"stall-session-{self._sessions}"
            result = {"protocolVersion": self.protocol_version,
                      "capabilities": {"tools": {}},
                      "serverInfo": {"name": "stall-server", "version": "1"}}
            self._reply(conn, rid, result, {"Mcp-Session-Id": session})
            return True
        if method == "tools/call":
            text = json.dumps((params or {}).get("arguments", {}))
            self._reply(conn, rid, {"content": [{"type": "text", "text": text}], "isError": False})
            return True
        if method == "tools/list":
            self._reply(conn, rid, {"tools": []})
            return True
        self._reply(conn, rid, {})
        return True

    def _reply(self, conn: socket.socket, rid: Any, result: dict[str, Any],
               extra: dict[str, str] | None = None) -> None:
        body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode()
        self._send(conn, "200 OK", body, extra)

    def _hold(self, conn: socket.socket, cid: int) -> None:
        """Never answer: keep reading until the client goes away or the server stops."""
        while not self._stop.is_set():
            chunk = self._recv(conn)
            if chunk is None:
                continue
            if not chunk:
                self._record(ServerEvent(time.perf_counter(), "closed_by_client", connection=cid))
                return


# -- the official SDK server in a separate process ------------------------------------------------

class SdkServerProcess:
    """``build_sdk_server().streamable_http_app()`` under uvicorn in a child process.

    uvicorn binds a free port itself; the child prints ``READY <port>`` once it is serving, and
    ``EVENT started|cancelled|finished`` when the ``slow`` tool reaches those points. Lines are
    read by a thread and stamped with the parent's ``perf_counter`` on arrival.
    """

    def __init__(self, *, json_response: bool = False, log_level: str = "error", trace: bool = False) -> None:
        self.json_response = json_response
        self.trace = trace
        self.log_level = log_level
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.lines: queue.Queue[tuple[float, str]] = queue.Queue()
        self._reader: threading.Thread | None = None
        self._stderr_reader: threading.Thread | None = None
        self.stderr_tail: list[str] = []

    def __enter__(self) -> SdkServerProcess:
        cmd = [sys.executable, "-u", str(BENCH_DIR / "_sdk_server_main.py"), "--log-level", self.log_level]
        if self.json_response:
            cmd.append("--json-response")
        if self.trace:
            cmd.append("--trace")
        env = dict(os.environ)
        env["PYTHONPATH"] = str(REPO_ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     env=env, cwd=str(REPO_ROOT))
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._drain_stderr, daemon=True)
        self._stderr_reader.start()
        try:
            _, line = self.lines.get(timeout=20)
        except queue.Empty:
            self.__exit__(None, None, None)
            raise RuntimeError("the SDK server process did not become ready within 20 s") from None
        if not line.startswith("READY "):
            self.__exit__(None, None, None)
            raise RuntimeError(f"the SDK server process said {line!r} instead of READY")
        self.url = f"http://127.0.0.1:{int(line.split()[1])}/mcp"
        return self

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((time.perf_counter(), line.strip()))
        self.lines.put((time.perf_counter(), "EOF"))

    def _drain_stderr(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr_tail = (self.stderr_tail + [line.rstrip()])[-50:]

    def wait_line(self, prefix: str, timeout: float) -> tuple[float, str] | None:
        """The next line starting with ``prefix`` (others are dropped), or None on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            try:
                at, line = self.lines.get(timeout=remaining)
            except queue.Empty:
                return None
            if line.startswith(prefix):
                return at, line
            if line == "EOF":
                return None

    def clear_lines(self) -> None:
        while True:
            try:
                self.lines.get_nowait()
            except queue.Empty:
                return

    def __exit__(self, *exc: object) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        # The pipes reach EOF once the child is gone; let the reader threads finish first.
        for thread in (self._reader, self._stderr_reader):
            if thread is not None:
                thread.join(2)
        for stream in (self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass


def spin_until(app: Any, condition: Callable[[], bool], timeout_s: float = 30.0) -> None:
    """Let the Qt ``app`` process events until ``condition()`` holds; ``TimeoutError`` after ``timeout_s``."""
    end = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.001)

