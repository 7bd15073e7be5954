"""A settings file that is no file (a folder, a named pipe, a link to /dev/zero) is not opened: Qt waited
for a pipe's writer for ever at start (the window never came), found a folder unwritable without a word,
and (as root) replaced the device a link led to with its INI file as the window closed.
The box over the window says so, the defaults apply, and the thing at the path is left as it was."""

from __future__ import annotations

import errno
import os
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from inspector.gui.app import run_window
from inspector.gui.settings import open_qsettings
from inspector.gui.settings_size import not_a_file
from tests.gui.test_unreadable_settings import close_when_shown


def _said(path: Path) -> str:
    return (f"The settings file {path} is not a file (a folder, a pipe or a device), so it was not read and the "
            "defaults apply. It is left as it is: settings chosen now hold until the window closes and are not "
            "saved. Move it away to have settings saved again.")


@pytest.mark.parametrize("kind", ["folder", "link to a folder"])
def test_a_settings_path_that_is_no_file_is_said_and_left_as_it_was(qtbot, tmp_path: Path, _isolated_settings: Path,
                                                                    capsys, kind: str) -> None:
    if kind == "folder":
        _isolated_settings.mkdir()
    else:
        (tmp_path / "elsewhere").mkdir()
        _isolated_settings.symlink_to(tmp_path / "elsewhere")
    seen: dict[str, str] = {}
    QTimer.singleShot(50, lambda: close_when_shown(seen))
    assert run_window(str(tmp_path / "runs.db"), language="en") == 0  # the window saves its layout as it closes
    assert seen.get("said") == _said(_isolated_settings)
    assert seen["said"] in capsys.readouterr().err
    assert _isolated_settings.is_dir() and list(_isolated_settings.iterdir()) == []
    assert _isolated_settings.is_symlink() == (kind == "link to a folder")


def test_a_device_is_no_settings_file() -> None:
    """Checked without a window: as root, the window saved its layout through a link to /dev/zero by
    renaming a new file over it (the device node became a 733-byte INI file)."""
    assert not_a_file(Path("/dev/null")) and not_a_file(Path("/dev/zero"))
    assert not not_a_file(Path(__file__)) and not not_a_file(Path("/nowhere/settings.ini"))


def _let_readers_go(fifo: Path, stop: threading.Event) -> None:
    """Until ``stop`` (or a minute), opens ``fifo`` for writing (and closes it: the reader reads its end)
    whenever a reader has it open, so that a reader waiting on it is let go."""
    deadline = time.monotonic() + 60
    while not stop.is_set() and time.monotonic() < deadline:
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: no reader
                raise
        time.sleep(0.01)


def test_a_named_pipe_for_settings_is_not_opened(_isolated_settings: Path) -> None:
    """Without the check the settings waited here until the pipe had a writer (this test's helper lets each
    reader go, so that it fails rather than hangs); the pipe is no settings file now."""
    os.mkfifo(_isolated_settings)
    stop = threading.Event()
    threading.Thread(target=_let_readers_go, args=(_isolated_settings, stop), daemon=True).start()
    settings = open_qsettings()
    assert settings.fileName() != str(_isolated_settings)
    stop.set()  # (not when the test fails: Qt may open the pipe again as the settings go)
