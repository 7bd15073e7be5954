"""The command line as a user runs it: ``python -m inspector …`` in a process of its own, from the checkout."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``run-inspector ARGS`` with this environment; its exit status, stdout and stderr as text."""
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)
