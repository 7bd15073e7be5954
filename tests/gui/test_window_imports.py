"""What the window's start imports before its first paint: only what that paint needs (issues 22, 27).

The window runs as its own process, offscreen, as ``run-inspector`` starts it (a first launch: the
demo entry is added and its server started); at the first paint of the main window the process
writes the names of every module it has loaded and quits. The demo server runs in a process of its
own, so neither it nor the MCP SDK it is built on is loaded here; the parts used later (the agent's
steps, the settings dialog with its sampling limits, JSON Schema for a tool's arguments, the
keyring, the trace readers and writers, the Runs tab) load when first used, after the paint.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Opens the window as `run-inspector` does; at its first paint writes sys.modules' names to argv[1].
_PROBE = r"""
import json, sys
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
from inspector.gui.app import run_window
from inspector.gui.main_window import MainWindow
out = sys.argv[1]
class FirstPaint(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint and isinstance(watched, MainWindow):
            with open(out, "w") as file:
                file.write(json.dumps(sorted(sys.modules)))
            app.removeEventFilter(self)
            QTimer.singleShot(0, watched.close)
        return False
spy = FirstPaint()
app.installEventFilter(spy)
sys.exit(run_window())
"""

#: Not loaded by the time the window has painted.
NOT_AT_FIRST_PAINT = (
    "mcp", "mcp_types", "uvicorn", "starlette",  # the MCP SDK server: the demo's, in its own process
    "inspector.demo", "inspector.agent", "inspector.transfer",
    # The trace files' readers and writers (the log file's scrubbing, traces.redact, may load: an
    # offscreen Qt warns at the first show, and Qt's warnings go to the log file).
    "inspector.traces.reader", "inspector.traces.writer", "inspector.traces.otlp",
    "inspector.gui.dialogs.settings_dialog", "inspector.gui.dialogs.sampling_tokens",
    "inspector.gui.dialogs.server_dialog", "inspector.gui.dialogs.database_dialog", "inspector.gui.runs.tab",
    "inspector.gui.play",  # the Play tab's page: built when it is first shown
    "jsonschema", "referencing", "keyring", "sqlite_utils",
)


def _loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(name for name in modules if any(name == n or name.startswith(n + ".") for n in names))


def test_the_first_paint_waits_for_no_part_used_later(tmp_path: Path) -> None:
    out = tmp_path / "modules.json"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "RUN_INSPECTOR_SETTINGS": str(tmp_path / "settings.ini"),
           "RUN_INSPECTOR_DB": str(tmp_path / "runs.db"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(out)], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    modules = set(json.loads(out.read_text(encoding="utf-8")))
    assert "inspector.gui.main_window" in modules and "inspector.gui.workbench.demo_service" in modules
    assert _loaded(modules, NOT_AT_FIRST_PAINT) == []
