"""The command line as a user runs it: ``python -m inspector …`` in a process of its own, from the checkout;
or, where a test is about what it says and not about its process, in this process (``cli_here``)."""

from __future__ import annotations

import io
import locale
import os
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import chdir, redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TextIO
from unittest.mock import patch

ROOT = Path(__file__).resolve().parents[2]


#: Put before a command, runs it as a user whom file permissions bind: root passes them, so it runs without
#: that power (nothing is put before it for any other user).
BOUND_BY_PERMISSIONS = (["setpriv", "--bounding-set=-dac_override,-dac_read_search",
                         "--inh-caps=-dac_override,-dac_read_search"] if os.geteuid() == 0 else [])


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``run-inspector ARGS`` with this environment; its exit status, stdout and stderr as text."""
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def cli_here(*args: str, env: dict[str, str] | None = None,
             stdout: TextIO | None = None) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` in this process (``inspector.cli.main``), with ``env`` added to the environment
    for its time: its exit status, stdout and stderr as ``cli`` gives them, without a process's start
    (0.3 s and more each). As in a process of its own started that way: its folder is the checkout (a
    server it starts as ``python -m tests.support…`` is found); its output is no terminal but a pipe in
    UTF-8 (or PYTHONIOENCODING's encoding), read back as ``text=True`` reads it, 80 columns wide unless
    COLUMNS says; its standard input is empty and no terminal; its time zone is the environment's
    (``TZ``) and its language the environment's unless ``--lang`` says. Afterwards this process has its
    own time zone and language again. Given ``stdout`` (a terminal's, say), the output goes there
    instead and the result's stdout is empty."""
    from inspector.cli import main
    from inspector.i18n import current_language, set_language

    sizes = {"COLUMNS": os.environ.get("COLUMNS", "80"), "LINES": os.environ.get("LINES", "24")}
    added = {**sizes, **(env or {})}
    encoding = {**os.environ, **added}.get("PYTHONIOENCODING", "").split(":")[0] or "utf-8"
    out, err = (io.TextIOWrapper(io.BytesIO(), encoding=encoding, write_through=True) for _ in range(2))
    language = current_language()
    try:
        with patch.dict(os.environ, added), patch.object(sys, "stdin", io.StringIO()), chdir(ROOT), \
                redirect_stdout(stdout or out), redirect_stderr(err):
            time.tzset()  # the zone TZ names, as a process started with it reads it
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's refusals and --help: the status Python would end with
                code = _exit_status(exc)
    finally:
        time.tzset()  # this process's own zone again
        set_language(language)
    return subprocess.CompletedProcess(["run-inspector", *args], code, _read_back(out), _read_back(err))


def _exit_status(exc: SystemExit) -> int:
    """The status a process ends with on ``exc``: None is 0, a text is said on stderr and is 1."""
    if exc.code is None or isinstance(exc.code, int):
        return exc.code or 0
    print(exc.code, file=sys.stderr)
    return 1


def _read_back(stream: io.TextIOWrapper) -> str:
    """What was written to ``stream``, decoded as ``subprocess.run(text=True)`` decodes a pipe."""
    stream.flush()
    written = stream.buffer.getvalue()  # type: ignore[attr-defined]
    return io.TextIOWrapper(io.BytesIO(written), encoding=locale.getpreferredencoding(False)).read()


def without_reader(*args: str, buffered: bool = False,
                   env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``run-inspector ARGS`` in a process of its own writing into a pipe whose reader has gone before anything is
    written. ``buffered``: its standard output written in blocks, as a user's is (PYTHONUNBUFFERED left out of its
    environment: a short output then fails only when the command flushes it); else as each write comes."""
    environment = {name: value for name, value in {**os.environ, **(env or {})}.items()
                   if name != "PYTHONUNBUFFERED"}
    if not buffered:
        environment["PYTHONUNBUFFERED"] = "1"
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "inspector", *args], stdout=write_end, stderr=subprocess.PIPE,
                              stdin=subprocess.DEVNULL, text=True, timeout=60, cwd=ROOT, env=environment)
    finally:
        os.close(write_end)


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
