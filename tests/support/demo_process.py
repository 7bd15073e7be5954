"""The demo server as a user starts it (`run-inspector serve-demo --port 0`), in a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def serve_demo() -> Iterator[str]:
    """Its address while it runs; killed afterwards."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", "serve-demo", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        first = process.stdout.readline()
        assert first.startswith("The demo MCP server is listening at "), first
        yield first.rsplit(" ", 1)[1].strip()
    finally:
        process.kill()
        process.communicate(timeout=15)
