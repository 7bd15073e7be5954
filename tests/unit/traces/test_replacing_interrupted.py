"""An export's file is written beside its target as ``.NAME.XXXX.part`` and becomes the target only
when it is whole; a Ctrl-C or SIGTERM at any moment leaves neither. The full suite once caught a
SIGTERM that came just after the ``.part`` file was made and before its name was known: the command
said "nothing was written" and the ``.part`` stayed. Real signals, sent to this process."""

from __future__ import annotations

import os
import signal
import tempfile
import threading
from pathlib import Path

import pytest

from inspector.cli.stopping import Terminated, sigterm_as_ctrl_c
from inspector.traces.writer import replacing


@pytest.mark.parametrize("other_thread", [False, True])
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_just_after_the_part_file_is_made_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                    number: int, other_thread: bool) -> None:
    """``other_thread``: the process has another thread too (a window's, a test worker's). A first fix
    masked the signals in the main thread; in the full suite another thread took the signal and Python
    ran its handler in the main thread all the same (this test passed with it alone, on 2 of 3 runs of a
    folder with GUI tests it did not): the fix notes the signals in Python instead."""
    made = tempfile.mkstemp
    done = threading.Event()
    waiting = threading.Thread(target=done.wait, daemon=True)
    if other_thread:
        waiting.start()

    def made_then_signalled(*args, **kwargs):
        found = made(*args, **kwargs)
        os.kill(os.getpid(), number)  # arrives before the name is handed back
        for _ in range(10_000):  # bytecodes, at which Python runs a signal's handler
            pass
        return found

    monkeypatch.setattr(tempfile, "mkstemp", made_then_signalled)
    with pytest.raises(KeyboardInterrupt) as stopped, sigterm_as_ctrl_c(), replacing(tmp_path / "runs.json") as out:
        out.write("never whole")
    done.set()
    assert isinstance(stopped.value, Terminated) == (number == signal.SIGTERM)
    assert list(tmp_path.iterdir()) == []  # neither the file nor its .part


def test_a_file_written_whole_keeps_the_mode_of_the_one_it_replaces(tmp_path: Path) -> None:
    target = tmp_path / "runs.json"
    target.write_text("old")
    target.chmod(0o640)
    with replacing(target) as out:
        out.write("new")
    assert target.read_text() == "new" and (target.stat().st_mode & 0o777) == 0o640
    assert list(tmp_path.iterdir()) == [target]
