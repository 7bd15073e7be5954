"""The Runs tab's search typed into a list of 25,000 imported runs: the GUI thread's longest gap.

The search looks in every run's steps as Find does in one run (62,500 steps of a 100,000-span trace).
The window opens a copy of DB (a database ``run-inspector import`` filled, e.g. from
``otlp_agent_import.py --spans 100000 --keep DIR``), each text is typed a key at a time
(``--key-ms`` apart, as a person types), and a 10 ms heartbeat timer logs the GUI thread's longest
gap from the first key until the list shows the runs found; the wait from the last key to then is
said too. ``--here`` reads the search on the GUI thread, as it was read before it had a thread.

    .venv/bin/python benchmarks/gui_runs_search.py DIR/runs.db [--texts TimeoutError,tool_error,zzz] [--here]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HOME"] = tempfile.mkdtemp(prefix="run-inspector-home-")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from gui_many_runs import Heartbeat  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="a run database with many imported runs (copied: it is left as it is)")
    parser.add_argument("--texts", default="TimeoutError,tool_error,zzzz")
    parser.add_argument("--key-ms", type=int, default=120, help="between two keys (default 120)")
    parser.add_argument("--here", action="store_true", help="read the search on the GUI thread (as before)")
    args = parser.parse_args()
    copy = Path(tempfile.mkdtemp(prefix="run-inspector-search-")) / "runs.db"
    shutil.copyfile(args.db, copy)

    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMainWindow

    from inspector.gui.app import run_window

    texts = args.texts.split(",")
    app = QApplication.instance() or QApplication(["run-inspector"])
    beat = Heartbeat()
    rows: list[str] = []

    def window() -> QMainWindow | None:
        return next((w for w in app.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible()), None)

    def start() -> None:
        shown = window()
        if shown is None or shown.runs_tab.runs.rowCount() == 0:
            QTimer.singleShot(200, start)
            return
        shown.tabs.setCurrentWidget(shown.runs_tab)
        if args.here:
            shown.runs_tab.run_list._search_reads = None  # noqa: SLF001 - the search as it was read before
        QTimer.singleShot(1500, lambda: type_text(0))

    def type_text(index: int) -> None:
        if index == len(texts):
            print("\n".join(rows))
            app.closeAllWindows()
            app.exit(0)
            return
        tab = window().runs_tab
        text = texts[index]
        tab.search.clear()  # every run listed again (not measured)
        QTimer.singleShot(1500, lambda: key(tab, text, index, 0, time.perf_counter() + 0.0))

    def key(tab: object, text: str, index: int, at: int, began: float) -> None:
        if at == 0:
            began = time.perf_counter()
        if at < len(text):
            tab.search.setFocus()
            QTest.keyClick(tab.search, text[at], Qt.KeyboardModifier.NoModifier)
            QTimer.singleShot(args.key_ms, lambda: key(tab, text, index, at + 1, began))
            return
        last = time.perf_counter()

        def done() -> None:
            if tab.runs.filter.text != text:
                QTimer.singleShot(5, done)
                return
            found = time.perf_counter()

            def say() -> None:  # the beats after the list was shown end the gap that holds it
                rows.append(f"{text:<16} gui longest gap {beat.longest_since(began) * 1000:7.0f} ms   "
                            f"last key to list {(found - last) * 1000:6.0f} ms   runs {tab.runs.rowCount()}")
                type_text(index + 1)
            QTimer.singleShot(1000, say)
        done()

    QTimer.singleShot(500, start)
    return run_window(str(copy), language="en")


if __name__ == "__main__":
    sys.exit(main())
