"""The Runs tab's search typed into a list of 25,000 imported runs: the GUI thread's longest gap.

The search looks in every run's steps as Find does in one run (62,500 steps of a 100,000-span trace).
The window opens a copy of DB (a database ``run-inspector import`` filled, e.g. from
``otlp_agent_import.py --spans 100000 --keep DIR``), each text is typed a key at a time
(``--key-ms`` apart, as a person types), and a 10 ms heartbeat timer logs the GUI thread's longest
gap from the first key until the list shows the runs found; the wait from the last key to then is
said too. ``--here`` reads the search on the GUI thread, as it was read before it had a thread.

``--actions`` adds what else reads the list anew while a search is set, each with the search text
``--with`` and with none, ``--repeats`` times (the median and each): ``language`` (German, then English
again), ``sort`` (a click on the Title heading, then on Started twice: newest first again) and ``shown``
(the Runs tab shown again after another connection stored a run while the Workbench was in front);
each action's gap lasts until the window is quiet (no beat later than 50 ms for a second).

    .venv/bin/python benchmarks/gui_runs_search.py DIR/runs.db [--texts TimeoutError,tool_error,zzz] [--here]
    .venv/bin/python benchmarks/gui_runs_search.py DIR/runs.db --actions language,sort,shown [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["HOME"] = tempfile.mkdtemp(prefix="run-inspector-home-")
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from gui_many_runs import Heartbeat, heading_click, settle  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", help="a run database with many imported runs (copied: it is left as it is)")
    parser.add_argument("--texts", default="TimeoutError,tool_error,zzzz")
    parser.add_argument("--key-ms", type=int, default=120, help="between two keys (default 120)")
    parser.add_argument("--here", action="store_true", help="read the search on the GUI thread (as before)")
    parser.add_argument("--actions", default="typing",
                        help="comma-separated: typing (each of --texts), language, sort, shown (default typing)")
    parser.add_argument("--with", dest="with_text", default="TimeoutError",
                        help="the search text set for language, sort and shown (default TimeoutError)")
    parser.add_argument("--repeats", type=int, default=3, help="of language, sort and shown (default 3)")
    args = parser.parse_args()
    copy = Path(tempfile.mkdtemp(prefix="run-inspector-search-")) / "runs.db"
    shutil.copyfile(args.db, copy)

    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMainWindow

    from inspector.gui.app import run_window
    from inspector.gui.language import switch_language
    from inspector.store import RunStore

    texts = args.texts.split(",")
    actions = args.actions.split(",")
    app = QApplication.instance() or QApplication(["run-inspector"])
    beat = Heartbeat()
    rows: list[str] = []
    gaps: dict[str, list[float]] = {}

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
        QTimer.singleShot(1500, lambda: type_text(0) if "typing" in actions else plan_actions())

    def finish() -> None:
        print("\n".join(rows))
        for name, each in gaps.items():
            print(f"{name:44} longest gap ms: median {statistics.median(each):5.0f}  "
                  f"({', '.join(f'{gap:.0f}' for gap in each)})")
        print(f"load average {os.getloadavg()[0]:.2f}")
        app.closeAllWindows()
        app.exit(0)

    def type_text(index: int) -> None:
        if index == len(texts):
            plan_actions()
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

    # -- the other reads of the list while a search is set ----------------------------------------

    def plan_actions() -> None:
        win = window()
        tab = win.runs_tab
        view, model = tab.run_view, tab.runs

        def stored_while_hidden() -> None:  # not measured: another connection stores a run, the poll sees it
            win.tabs.setCurrentWidget(win.workbench)
            with RunStore.open(copy) as store:
                store.finish_run(store.start_run("tools/call stored meanwhile", "live", None), "ok")

        def searched(text: str) -> Callable[[], None]:
            return lambda: tab.search.setText(text)

        done = {"language": [("German", lambda: switch_language("de")),
                             ("English again", lambda: switch_language("en"))],
                "sort": [("sort by title", heading_click(view, "title")),
                         ("sort by started", heading_click(view, "started")),
                         ("sort by started, newest first", heading_click(view, "started"))],
                "shown": [(None, stored_while_hidden), ("Runs tab shown", lambda: win.tabs.setCurrentWidget(tab))]}
        plan: list[tuple[str | None, Callable[[], None], Callable[[], bool]]] = []
        for _ in range(args.repeats):
            for text in (args.with_text, ""):
                said = f"search {text!r}" if text else "no search"
                plan.append((None, searched(text), lambda text=text: model.filter.text == text))
                for action in actions:
                    for name, act in done.get(action, []):
                        wait = (lambda: tab.freshness.stale) if name is None and action == "shown" else (lambda: True)
                        plan.append((f"{name}, {said}" if name else None, act, wait))
        run_plan(plan)

    def run_plan(plan: list[tuple[str | None, Callable[[], None], Callable[[], bool]]]) -> None:
        if not plan:
            finish()
            return
        name, act, condition = plan[0]
        since = time.perf_counter()
        act()

        def done() -> None:
            if name is not None:
                gaps.setdefault(name, []).append(beat.longest_since(since) * 1000)
            run_plan(plan[1:])
        settle(app, beat, condition, done, timeout_s=120.0)

    QTimer.singleShot(500, start)
    return run_window(str(copy), language="en")


if __name__ == "__main__":
    sys.exit(main())
