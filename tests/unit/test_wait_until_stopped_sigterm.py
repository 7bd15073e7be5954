"""SIGTERM while the serving command's main thread holds its stop event's lock: the handler, which runs in
that thread, set the event and so waited for that lock for ever. A killed window's demo server (told by
stdin's end and the kernel's SIGTERM at once) stayed up so, both threads on the lock (found beside the full
suite). Here the signal is raised exactly there, in a child process, which must end within seconds."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.support.isolation import clean_environment

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import signal, threading
    from inspector.cli.common import wait_until_stopped

    class Event(threading.Event):
        def wait(self, timeout=None):
            with self._cond:  # the lock Event.wait holds between its waits
                signal.raise_signal(signal.SIGTERM)
                signal.getsignal(signal.SIGTERM)  # a call: the handler has run by now
            return super().wait(timeout)

    wait_until_stopped(Event())
    print("stopped")
""")


def test_sigterm_while_the_stop_events_lock_is_held_stops_the_wait() -> None:
    done = subprocess.run([sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=30,
                          env=clean_environment())
    assert (done.returncode, done.stdout.strip()) == (0, "stopped"), done.stderr
