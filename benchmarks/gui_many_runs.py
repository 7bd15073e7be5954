"""A user's actions in the Runs tab with 25,000 runs selected: the GUI thread's longest gap each.

The window opens FILE as ``run-inspector FILE`` does (offscreen, a fresh HOME and database), which
imports it and selects every imported run. Once it settles, each action is done as a user does it
(a click on a row, Ctrl+A, a choice in the outcome filter, a click on a heading) and a 10 ms
heartbeat timer logs the longest gap until the window is quiet again. After each group of actions
(select: a click, then Ctrl+A; filter; sort: two clicks on a heading, each turning the order
round) the list is sorted newest first again and every run
selected as the import selected them, the same run current (measured too). Every group is done
``--repeats`` times; ``--verbose`` says each action's gap, the current row and the runs selected.

With ``--accessible on`` Qt's accessibility is active, as it is in a window a screen reader (or
any AT-SPI client) is reading: Qt then tells the reader of selection changes, and asks the model
for that. ``off`` leaves it as the offscreen platform has it (inactive).

    .venv/bin/python benchmarks/otlp_agent_import.py --spans 100000 --keep DIR   # DIR/agent.otlp.jsonl
    .venv/bin/python benchmarks/gui_many_runs.py DIR/agent.otlp.jsonl [--accessible on|off] [--repeats 3]
        [--actions select,filter,sort] [--verbose]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HOME"] = tempfile.mkdtemp(prefix="run-inspector-home-")
sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common  # noqa: E402, F401 - a private database

#: The window is quiet when no beat was later than this for QUIET_S.
QUIET_GAP_S = 0.05
QUIET_S = 1.0


class Heartbeat:
    """A 10 ms timer on the GUI thread; the gaps between its beats say how long the thread was held."""

    def __init__(self) -> None:
        from PySide6.QtCore import QTimer

        self.beats: list[float] = [time.perf_counter()]
        self.timer = QTimer()
        self.timer.setInterval(10)
        self.timer.timeout.connect(lambda: self.beats.append(time.perf_counter()))
        self.timer.start()

    def longest_since(self, since: float) -> float:
        beats = [since] + [beat for beat in self.beats if beat > since]
        return max((later - earlier for earlier, later in zip(beats, beats[1:], strict=False)), default=0.0)

    def quiet(self) -> bool:
        now = time.perf_counter()
        recent = [beat for beat in self.beats if beat > now - QUIET_S]
        return (len(recent) > QUIET_S / 0.02 and now - self.beats[-1] < QUIET_GAP_S
                and self.longest_since(now - QUIET_S) < QUIET_GAP_S)


def settle(app: object, beat: Heartbeat, condition: Callable[[], bool], then: Callable[[], None],
           timeout_s: float = 600.0) -> None:
    """Call ``then`` once ``condition()`` holds and the window is quiet (the app exits 2 after ``timeout_s``)."""
    from PySide6.QtCore import QTimer

    began = time.perf_counter()

    def check() -> None:
        if condition() and beat.quiet():
            then()
        elif time.perf_counter() - began > timeout_s:
            print("timed out", file=sys.stderr)
            app.exit(2)
        else:
            QTimer.singleShot(50, check)
    QTimer.singleShot(50, check)


def heading_click(view: object, column: str) -> Callable[[], None]:
    """A click on the heading of the run list's ``column``, as a user's mouse does it."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    def click() -> None:
        header = view.horizontalHeader()
        section = view.model().COLUMNS.index(column)
        QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         QPoint(header.sectionViewportPosition(section) + header.sectionSize(section) // 2,
                                header.height() // 2))
    return click


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", help="an OTLP JSON Lines file (otlp_agent_import.py --keep)")
    parser.add_argument("--accessible", choices=("on", "off"), default="on")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--verbose", action="store_true", help="each action's gap, current row and runs selected")
    parser.add_argument("--actions", default="select,filter,sort",
                        help="comma-separated: select (a click on a run, then Ctrl+A), filter (outcome 'failed', then "
                             "'Every outcome'), sort (two clicks on the Title heading, then two on Started: "
                             "each order, then that order turned round)")
    args = parser.parse_args()

    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtGui import QAccessible
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication(["run-inspector"])
    beat = Heartbeat()
    results: dict[str, list[float]] = {}
    started = time.perf_counter()

    def window() -> QMainWindow | None:
        return next((w for w in app.topLevelWidgets() if isinstance(w, QMainWindow) and w.isVisible()), None)

    def steps() -> list[tuple[str, Callable[[], None]]]:
        pane = window().runs_tab.run_list
        view, model = pane.view, pane.model

        def click_row(row: int) -> Callable[[], None]:
            def click() -> None:
                view.scrollTo(model.index(row, 0))
                rect = view.visualRect(model.index(row, 2))
                QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                                 rect.center())
            return click

        def keys(key: Qt.Key) -> Callable[[], None]:  # Ctrl and key
            def press() -> None:
                view.setFocus()
                QTest.keyClick(view, key, Qt.KeyboardModifier.ControlModifier)
            return press

        def outcome(status: str) -> Callable[[], None]:
            return lambda: pane.outcome_filter.setCurrentIndex(pane.outcome_filter.findData(status))

        # Every run selected again as the import selected them (newest first, the same run current).
        imported = [pane.current_run().id, *(run_id for run_id in pane.selected_run_ids()
                                              if run_id != pane.current_run().id)]

        def select_imported() -> None:
            view.sortByColumn(model.COLUMNS.index("started"), Qt.SortOrder.DescendingOrder)  # newest first
            pane.select_runs(imported)

        again = [("every run selected again (as by the import)", select_imported)]
        actions = {
            "select": [("select one run", click_row(3)), ("Ctrl+A", keys(Qt.Key.Key_A))],
            "filter": [("outcome filter 'failed'", outcome("failed")),
                       ("outcome filter 'Every outcome'", outcome(""))],
            # A heading's second click turns the order round: the current run (the oldest, the first title) last.
            "sort": [("sort by title", heading_click(view, "title")),
                     ("sort by title, again (descending)", heading_click(view, "title")),
                     ("sort by started", heading_click(view, "started")),
                     ("sort by started, again (descending)", heading_click(view, "started"))],
        }
        plan: list[tuple[str, Callable[[], None]]] = []
        for _ in range(args.repeats):
            for wanted in args.actions.split(","):
                plan += [*actions[wanted], *again]
        return plan

    def run_plan(plan: list[tuple[str, Callable[[], None]]]) -> None:
        if not plan:
            app.exit(0)
            return
        name, act = plan[0]
        since = time.perf_counter()
        act()

        def done() -> None:
            results.setdefault(name, []).append(beat.longest_since(since) * 1000)
            if args.verbose:
                pane = window().runs_tab.run_list
                print(f"{name}: {results[name][-1]:.0f} ms; current row {pane.view.currentIndex().row():,}, "
                      f"{len(pane.selected_run_ids()):,} selected of {pane.model.rowCount():,} rows read", flush=True)
            run_plan(plan[1:])
        settle(app, beat, lambda: True, done)

    imported: list[float] = []  # when the tab had shown and selected the imported runs
    hooked: list[object] = []

    def opened() -> bool:
        win = window()
        if win is None or not hasattr(win, "runs_tab"):
            return False
        if not hooked:  # after the tab's own slot: the end of the list read and the runs selected
            hooked.append(win.runs_tab.transfers.imported.connect(lambda _ids: imported.append(time.perf_counter())))
        pane = win.runs_tab.run_list
        return pane.view.selectionModel().hasSelection()  # the import selects the runs it stored

    def begin() -> None:
        if imported:  # the gap that holds the import's end: the list read again and every run selected
            before = max((moment for moment in beat.beats if moment < imported[0]), default=imported[0])
            after = min((moment for moment in beat.beats if moment > imported[0]), default=imported[0])
            print(f"the imported runs listed and selected: longest gap {(after - before) * 1000:.0f} ms")
        if args.accessible == "on":
            QAccessible.setActive(True)
        pane = window().runs_tab.run_list
        print(f"window settled after {time.perf_counter() - started:.1f} s; accessibility active: "
              f"{QAccessible.isActive()}; {len(pane.selected_run_ids()):,} runs selected, the current one in row "
              f"{pane.view.currentIndex().row():,}; load {os.getloadavg()[0]:.2f}")
        run_plan(steps())

    QTimer.singleShot(0, lambda: settle(app, beat, opened, begin))
    from inspector.gui.app import run_window

    status = run_window(None, open_file=args.file, language="en")
    for name, gaps in results.items():
        print(f"{name:40} longest gap ms: {', '.join(f'{gap:.0f}' for gap in gaps)}"
              f"  (median {statistics.median(gaps):.0f})")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return status


if __name__ == "__main__":
    sys.exit(main())
