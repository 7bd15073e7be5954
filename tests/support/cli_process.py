"""The command line as a user runs it: ``python -m inspector …`` in a process of its own, from the checkout;
or, where a test is about what it says and not about its process, in this process (``cli_here``)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest.mock import patch

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``run-inspector ARGS`` with this environment; its exit status, stdout and stderr as text."""
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def cli_here(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` in this process (``inspector.cli.main``), with ``env`` added to the environment
    for its time: its exit status, stdout and stderr as ``cli`` gives them, without a process's start
    (0.3 s and more each). Its output is no terminal, and its width is a pipe's (80 columns unless
    COLUMNS says), as in a process of its own."""
    from inspector.cli import main

    out, err = io.StringIO(), io.StringIO()
    sizes = {"COLUMNS": os.environ.get("COLUMNS", "80"), "LINES": os.environ.get("LINES", "24")}
    with patch.dict(os.environ, {**sizes, **(env or {})}), redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's refusals
            code = exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["run-inspector", *args], code, out.getvalue(), err.getvalue())


def start_cli(*args: str, language: str = "en") -> subprocess.Popen[bytes]:
    """Start ``run-inspector --lang LANGUAGE ARGS`` and leave it running (to be stopped by a signal)."""
    return subprocess.Popen([sys.executable, "-m", "inspector", "--lang", language, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT)


def wait_for(found: Callable[[], bool], process: subprocess.Popen[bytes], what: str) -> None:
    """Wait up to 30 s until ``found()``; the process must still run meanwhile."""
    deadline = time.monotonic() + 30
    while not found():
        assert process.poll() is None, f"it ended before {what}: {process.communicate()}"
        assert time.monotonic() < deadline, f"no {what}"
        time.sleep(0.01)


def stopped(process: subprocess.Popen[bytes], signum: int) -> tuple[str, str]:
    """Send ``signum``; the process must end with status 130 and no traceback. Its stdout and stderr."""
    process.send_signal(signum)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, (process.returncode, stderr.decode())
    assert b"Traceback" not in stderr
    return stdout.decode(), stderr.decode()


def main_output(capsys, *argv: str) -> str:  # type: ignore[no-untyped-def]
    """Run the command line in this process (``inspector.cli.main``); it must succeed. Its stdout."""
    from inspector.cli import main

    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def probe_line(out: str) -> str:
    """The one ``server/discover`` line of a command's leg table."""
    [line] = [line for line in out.splitlines() if line.strip().startswith("server/discover")]
    return line
