"""Child process: the flooding server of tests/support/log_flood.py, for benchmarks/gui_log_flood.py.
Not a benchmark.

Prints ``READY <url>`` once serving. A line ``listen-flood N`` on standard input writes N log
messages on the standalone stream of every session still standing (the window's listening
session, once the operations' sessions are over), then prints ``FLOODED <streams>``; a
``tools/call`` of ``flood`` writes its lines on its own session's stream. Only 127.0.0.1.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from tests.support.log_flood import LogFlood  # noqa: E402


def main() -> None:
    with LogFlood() as flood:
        print(f"READY {flood.url}", flush=True)
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["listen-flood"]:
                print(f"FLOODED {flood.flood_listening(int(words[1]))}", flush=True)


if __name__ == "__main__":
    main()
