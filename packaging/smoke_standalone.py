"""Smoke test of the standalone build (``make standalone`` runs it; ``make check-pipx`` runs it on a pipx
install of the wheel): the program says its version, serves the demo server and calls a tool on it,
shows the stored run with English and German dates and numbers (the Babel locale data the build
keeps), and opens its window offscreen, which is still alive after a few seconds and ends when
terminated. Exit status 0 when all of that held."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


#: How the stored run's start and a duration read in each language the application speaks.
FORMATS = {"en": (r"[A-Z][a-z]{2,3} \d\d?, \d{4}, \d\d?:\d\d:\d\d [AP]M", r" \d+\.\d+ s "),
           "de": (r"\d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d", r" \d+,\d+ s ")}


def _formats_hold(program: str, env: dict[str, str]) -> bool:
    for language, patterns in FORMATS.items():
        shown = subprocess.run([program, "runs", "show", "1", "--lang", language], capture_output=True, text=True,
                               env=env, timeout=60)
        held = shown.returncode == 0 and all(re.search(pattern, shown.stdout) for pattern in patterns)
        print(f"runs show 1 --lang {language}: {'dates and numbers as expected' if held else 'NOT as expected'}")
        if not held:
            print(shown.stdout + shown.stderr)
            return False
    return True


def main(program: str) -> int:
    folder = tempfile.mkdtemp(prefix="run-inspector-standalone-")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RUN_INSPECTOR_DB": f"{folder}/runs.db",
           "XDG_DATA_HOME": f"{folder}/data", "XDG_CONFIG_HOME": f"{folder}/config",
           "XDG_STATE_HOME": f"{folder}/state"}
    started = time.perf_counter()
    version = subprocess.run([program, "--version"], capture_output=True, text=True, env=env, timeout=60)
    print(f"--version: {version.stdout.strip()} ({time.perf_counter() - started:.2f} s)")
    if version.returncode != 0 or "unknown" in version.stdout:
        return 1
    port = _free_port()
    demo = subprocess.Popen([program, "serve-demo", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        call = subprocess.run([program, "call", f"http://127.0.0.1:{port}/mcp", "echo", "--args",
                               '{"text": "standalone"}', "--lang", "de"], capture_output=True, text=True, env=env,
                              timeout=60)
    finally:
        demo.terminate()
        demo.wait(10)
    print(f"call: exit {call.returncode}, {'answered' if 'standalone' in call.stdout else 'no answer'}")
    if call.returncode != 0 or "standalone" not in call.stdout or not _formats_hold(program, env):
        return 1
    window = subprocess.Popen([program], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    time.sleep(5)
    alive = window.poll() is None
    window.terminate()
    window.wait(10)
    print(f"window: {'alive after 5 s, ended when terminated' if alive else 'ended early'}")
    return 0 if alive else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
