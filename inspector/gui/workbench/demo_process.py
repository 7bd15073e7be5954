"""The demo server's own process: ``run-inspector serve-demo --json --stop-with-stdin``, its output, its end.

The window never shares its interpreter with the demo server (its threads would compete with the
GUI thread for the interpreter lock, and importing the MCP SDK would delay the first paint). The
child prints one JSON object on stdout: ``{"url": ...}`` once it listens, or ``{"error": ...}``
when it cannot start. It stops when its stdin closes: :meth:`DemoProcess.stop` closes it, and so
does the system when the window ends in any other way (a crash, SIGKILL). Its log lines (stderr)
are handed on as they come. Nothing here waits on the GUI thread for the child to start: two
reader threads report through callbacks, which the caller turns into queued signals.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import IO

#: How long :meth:`DemoProcess.stop` waits for the child to end by itself, then after SIGTERM.
STOP_TIMEOUT_S = 3.0
KILL_TIMEOUT_S = 2.0


def demo_command(port: int, language: str | None = None) -> list[str]:
    """The command line of the child: this program's ``serve-demo`` (the frozen app is its own command),
    speaking ``language``: its texts (tools, results, resources, prompts) and its log on stderr (in the
    Server log) read as the window does, from its start on."""
    words = ["serve-demo", "--port", str(port), "--json", "--stop-with-stdin"]
    if language:
        words += ["--lang", language]
    if getattr(sys, "frozen", False):
        return [sys.executable, *words]
    return [sys.executable, "-m", "inspector", *words]


class DemoProcess:
    """One child process serving the demo on ``port`` (0: any free port).

    Callbacks, each on a reader thread: ``ready(url)`` once it listens; ``line(text)`` for each
    line of its log; ``ended(reason)`` when it is gone (``reason`` is its error, its last words on
    stderr, or ``None`` when it said nothing; see :attr:`status` for its exit status).
    """

    def __init__(self, port: int, *, ready: Callable[[str], None], ended: Callable[[str | None], None],
                 line: Callable[[str], None], command: Callable[[int, str | None], list[str]] = demo_command,
                 language: str | None = None) -> None:
        self.port = port
        self._ready, self._ended, self._line = ready, ended, line
        self._command = command
        self._language = language
        self._process: subprocess.Popen[str] | None = None
        self._error: str | None = None
        self._last_stderr: str | None = None
        self._stderr_done = threading.Event()
        self._readers: list[threading.Thread] = []
        #: The child's exit status, once it ended.
        self.status: int | None = None
        self.url: str | None = None

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def alive(self) -> bool:
        """Is the child still there (spawned, not yet ended)?"""
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        """Spawn the child (returns at once; raises :class:`OSError` when it cannot be spawned)."""
        command = self._command(self.port, self._language)
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONUNBUFFERED="1")
        options: dict = {}
        if sys.platform == "win32":
            options["creationflags"] = subprocess.CREATE_NEW_PROCESS_GROUP  # Ctrl-C is the window's to handle
        else:
            options["start_new_session"] = True
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.PIPE, text=True, encoding="utf-8", errors="replace",
                                         env=env, **options)
        self._readers = [
            threading.Thread(target=self._read_stderr, args=(self._process.stderr,), name="demo-process-stderr",
                             daemon=True),
            threading.Thread(target=self._read_stdout, args=(self._process.stdout,), name="demo-process-stdout",
                             daemon=True)]
        for reader in self._readers:
            reader.start()

    def stop(self, *, at_once: bool = False) -> None:
        """Close its stdin and wait for it to end (bounded: then SIGTERM, then SIGKILL), and for its
        readers. ``at_once``: SIGTERM straight away (a child not yet listening has nothing to finish).
        Safe to call twice."""
        process = self._process
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
        except OSError:
            pass
        if at_once and process.poll() is None:
            process.terminate()
        for wait_s, push in ((STOP_TIMEOUT_S, process.terminate), (KILL_TIMEOUT_S, process.kill),
                             (KILL_TIMEOUT_S, None)):
            try:
                process.wait(wait_s)
                break
            except subprocess.TimeoutExpired:
                if push is not None:
                    push()
        for reader in self._readers:
            if reader is not threading.current_thread():
                reader.join(KILL_TIMEOUT_S)

    # -- on the reader threads -----------------------------------------------------------------------

    def _read_stdout(self, stream: IO[str]) -> None:
        for text in stream:
            text = text.rstrip("\r\n")
            document = _json_object(text)
            if document is not None and isinstance(document.get("url"), str) and self.url is None:
                self.url = document["url"]
                self._ready(self.url)
            elif document is not None and isinstance(document.get("error"), dict):
                self._error = str(document["error"].get("message") or "") or None
            elif text:
                self._line(text)
        assert self._process is not None
        self.status = self._process.wait()
        self._stderr_done.wait(KILL_TIMEOUT_S)  # its last words on stderr belong to its end
        self._ended(self._error or self._last_stderr)

    def _read_stderr(self, stream: IO[str]) -> None:
        try:
            for text in stream:
                text = text.rstrip("\r\n")
                if text:
                    self._last_stderr = text.removeprefix("run-inspector: ")
                    self._line(text)
        finally:
            self._stderr_done.set()


def _json_object(text: str) -> dict | None:
    if not text.startswith("{"):
        return None
    try:
        document = json.loads(text)
    except ValueError:
        return None
    return document if isinstance(document, dict) else None


__all__ = ["DemoProcess", "demo_command"]
