"""The window's unexpected errors (an exception in a slot) reach the log file with their traceback, and
without the secret the exception's text quotes; the terminal still shows the traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLANTED = "sk-planted-window-77aa"

SCRIPT = f"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from inspector.gui.app import run_window

def a_slot_that_fails():
    raise RuntimeError("refresh failed: Authorization: Bearer {PLANTED}")

app = QApplication(sys.argv[:1])
QTimer.singleShot(0, a_slot_that_fails)  # both run once the window's event loop turns
QTimer.singleShot(0, app.closeAllWindows)
sys.exit(run_window(sys.argv[1]))
"""


def test_an_exception_in_a_slot_of_the_window_is_logged_without_its_secret(tmp_path: Path) -> None:
    log = Path(os.environ["RUN_INSPECTOR_LOG"])
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "runs.db")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "a_slot_that_fails" in done.stderr  # the previous hook still prints it
    logged = log.read_text(encoding="utf-8")
    assert "Unhandled exception in the window" in logged
    assert "in a_slot_that_fails" in logged and "RuntimeError: refresh failed: Authorization: " in logged
    assert PLANTED not in logged


QT_WARNING_SCRIPT = f"""
import sys
from PySide6.QtCore import QTimer, qWarning
from PySide6.QtWidgets import QApplication
from inspector.gui.app import run_window

app = QApplication(sys.argv[:1])
QTimer.singleShot(0, lambda: qWarning("a Qt warning quoting Authorization: Bearer {PLANTED}"))
QTimer.singleShot(0, app.closeAllWindows)
sys.exit(run_window(sys.argv[1]))
"""


def test_a_qt_warning_in_the_window_is_logged_without_its_secret_and_still_printed(tmp_path: Path) -> None:
    log = Path(os.environ["RUN_INSPECTOR_LOG"])
    done = subprocess.run([sys.executable, "-c", QT_WARNING_SCRIPT, str(tmp_path / "runs.db")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "a Qt warning quoting Authorization: " in done.stderr  # printed as Qt prints it, too
    logged = log.read_text(encoding="utf-8")
    assert "WARNING Qt: a Qt warning quoting Authorization: " in logged
    assert PLANTED not in logged
