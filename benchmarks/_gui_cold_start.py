"""Child process of gui_window.py: open the window as `run-inspector` does and print the
monotonic time of its first paint, then quit. Not a benchmark on its own."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QEvent, QObject, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

app = QApplication(sys.argv[:1])

from inspector.gui.app import run_window  # noqa: E402
from inspector.gui.main_window import MainWindow  # noqa: E402


class FirstPaint(QObject):
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and isinstance(watched, MainWindow):
            print(f"painted {time.monotonic():.6f}", flush=True)
            app.removeEventFilter(self)
            QTimer.singleShot(0, watched.close)
        return False


spy = FirstPaint()
app.installEventFilter(spy)
sys.exit(run_window(sys.argv[1]))
