"""A command "server" that never answers and ignores the end of stdin and SIGTERM:
``python -m tests.support.stdio_mute [marker]``. Says "mute" on stderr once it runs."""

from __future__ import annotations

import signal
import sys
import time

if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print("mute", file=sys.stderr, flush=True)
    time.sleep(3600)
