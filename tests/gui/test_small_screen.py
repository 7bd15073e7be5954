"""The first window fits the screen it opens on; on a 1024×600 screen every action is reachable.

The screen is real to Qt: a process of its own starts the window on an offscreen screen of that
size (the platform's screens cannot change once the application exists)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize

from inspector.gui.main_window import DEFAULT_SIZE, first_size
from tests.support.screens import offscreen_platform

ROOT = Path(__file__).resolve().parents[2]

#: Opens the window as a launch does (demo server started), and reports where its parts are.
PROBE = r"""
import json, sys
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication
app = QApplication([])
from inspector.gui.app import open_window
from inspector.gui.settings import AppSettings
from inspector.store import RunStore, resolve_db_path
from inspector.store.secrets import NoSecretKeeper
store = RunStore.open(resolve_db_path())
window = open_window(store, resolve_db_path(), AppSettings(), secrets=NoSecretKeeper())
window.show()
app.processEvents()
screen = window.screen().availableGeometry()
frame = window.frameGeometry()
def reachable(widget):
    # Shown, inside the window, with some of it not covered or cut.
    if not widget.isVisible() or widget.visibleRegion().isEmpty():
        return False
    top_left = widget.mapTo(window, QPoint(0, 0))
    return window.rect().contains(QRect(top_left, widget.size()))
log_shown_at_start = window.log_dock.isVisible()
if not log_shown_at_start:  # a short screen: the log is one menu action away
    window.log_dock.toggleViewAction().trigger()
    app.processEvents()
bench = window.workbench
parts = {"run": bench.run_button, "cancel": bench.cancel_button, "tools": bench.tools,
         "arguments": bench.arguments, "operations": bench.operations,
         "result": bench.result, "status": window.status, "servers": window.servers,
         "add server": window.servers.add_button, "test": window.servers.test_button,
         "server log": window.log_dock}
print(json.dumps({"screen": [screen.width(), screen.height()],
                  "window": [frame.width(), frame.height()],
                  "inside": screen.contains(frame), "log shown at start": log_shown_at_start,
                  "minimum": [window.minimumSizeHint().width(), window.minimumSizeHint().height()],
                  "unreachable": [name for name, widget in parts.items() if not reachable(widget)]}))
window.shut_down()
store.close()
window.deleteLater()
app.sendPostedEvents()
sys.stdout.flush()
"""


def open_on_screen(size: str, tmp_path: Path) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": offscreen_platform(size),
           "RUN_INSPECTOR_SETTINGS": str(tmp_path / "settings.ini"), "RUN_INSPECTOR_DB": str(tmp_path / "runs.db")}
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_first_window_takes_the_default_size_or_the_smaller_screen() -> None:
    assert first_size(QRect(0, 0, 1920, 1080)) == DEFAULT_SIZE == QSize(1200, 760)
    assert first_size(QRect(0, 0, 1024, 600)) == QSize(1024, 600)
    assert first_size(QRect(0, 0, 1280, 600)) == QSize(1200, 600)
    assert first_size(None) == DEFAULT_SIZE


@pytest.mark.parametrize("size", ["1024x600", "1920x1080"])
def test_every_action_is_reachable_on_the_screen_the_window_opens_on(size: str, tmp_path: Path) -> None:
    seen = open_on_screen(size, tmp_path)
    assert seen["inside"], seen
    assert seen["minimum"][0] <= seen["screen"][0] and seen["minimum"][1] <= seen["screen"][1], seen
    assert seen["unreachable"] == [], seen
    # The Server log starts hidden only where the height is short (View → Server log shows it).
    assert seen["log shown at start"] == (size != "1024x600"), seen


SETTINGS_PROBE = r"""
import json, sys
from PySide6.QtWidgets import QApplication, QDialogButtonBox
app = QApplication([])
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.settings import AppSettings
from inspector.store.secrets import NoSecretKeeper
dialog = SettingsDialog(AppSettings(), "/tmp/runs.db", None, NoSecretKeeper())
dialog.show()
app.processEvents()
screen = dialog.screen().availableGeometry()
ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
corner = ok.mapToGlobal(ok.rect().bottomRight())
print(json.dumps({"dialog": [dialog.width(), dialog.height()], "screen": [screen.width(), screen.height()],
                  "ok inside": screen.contains(corner) and ok.isVisible()}))
dialog.grab().save(sys.argv[1])
"""


def test_the_settings_dialog_fits_a_small_screen_and_scrolls_with_ok_in_view(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": offscreen_platform("1024x600"),
           "RUN_INSPECTOR_SETTINGS": str(tmp_path / "settings.ini")}
    shot = Path(__file__).parent / "screenshots" / "settings-1024x600.png"
    done = subprocess.run([sys.executable, "-c", SETTINGS_PROBE, str(shot)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["dialog"][1] <= seen["screen"][1] and seen["ok inside"], seen


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_window_1024_wide_shows_the_runs_tab_with_a_step_in_either_language(qtbot, runs_tab_showing,
                                                                             language: str) -> None:
    """German buttons and filters are longer: side by side, the timeline and the step detail would hold
    the window at 1,140 pixels. A tab too narrow for both puts the detail under the timeline."""
    from PySide6.QtCore import QPoint, Qt

    from inspector.store import RunStore, resolve_db_path
    from tests.support.sample_runs import mixed_run

    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store, "scenario " + "with a long title " * 8)
    # The language before the window is made, as a user's is; wide first: the detail beside the timeline.
    shown = runs_tab_showing(run_id, language=language, language_first=True, size=(1600, 900))
    window, tab = shown.window, shown.tab
    tab.select_step(0)
    qtbot.waitUntil(lambda: tab.lower.orientation() == Qt.Orientation.Horizontal)
    window.resize(1024, 700)  # then narrow: the detail goes under the timeline, the window fits
    qtbot.waitUntil(lambda: window.width() == 1024)
    # Nothing is held wider than the window: the panes fit, the detail's right edge is in view.
    assert window.main.minimumSizeHint().width() <= 1024 and window.main.width() <= 1024
    assert tab.detail.mapTo(window, QPoint(tab.detail.width(), 0)).x() <= window.width()
    assert tab.lower.orientation() == Qt.Orientation.Vertical
    assert tab.detail.isVisible() and tab.detail.width() >= tab.detail.minimumSizeHint().width()
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: tab.lower.orientation() == Qt.Orientation.Horizontal)  # wide again: beside it


@pytest.mark.parametrize("language", ["en", "de"])
def test_a_step_shown_in_a_low_window_scrolls_the_detail_and_the_window_keeps_its_height(qtbot, runs_tab_showing,
                                                                                        language: str) -> None:
    """200 % scaling on a 1,920 by 1,080 screen is 960 by 540 logical pixels, a maximized window about 516
    under a taskbar. Showing a step held the window 556 high (the detail's lines, the timeline and the list
    one above the other): it grew past the screen's bottom, the status line and Copy result out of reach.
    The detail now scrolls up and down where the window is too low for it."""
    from PySide6.QtCore import Qt

    from inspector.store import RunStore, resolve_db_path
    from tests.support.sample_runs import mixed_run

    with RunStore.open(resolve_db_path()) as store:
        run_id = mixed_run(store)
    shown = runs_tab_showing(run_id, language=language, language_first=True, size=(960, 516))
    window, tab = shown.window, shown.tab
    tab.select_step(0)
    qtbot.waitUntil(lambda: tab.detail.step is not None)
    qtbot.wait(50)
    assert tab.lower.orientation() == Qt.Orientation.Vertical
    assert window.minimumSizeHint().height() <= 516, window.minimumSizeHint()
    assert window.height() == 516
    # The whole detail is a scroll away: its last button can be scrolled into view.
    scroll = tab.detail_scroll
    assert tab.detail.height() >= tab.detail.minimumSizeHint().height()
    assert scroll.verticalScrollBar().isVisible()
    scroll.ensureWidgetVisible(tab.detail.note_button)
    assert not tab.detail.note_button.visibleRegion().isEmpty()
    # Nothing is held wider than before: the window still fits a screen 1,024 wide.
    assert window.minimumSizeHint().width() <= 1024
    # Where the timeline can spare the room (125 % on a 1,366 by 768 screen), the detail is shown whole.
    window.resize(1093, 614)
    qtbot.waitUntil(lambda: scroll.viewport().height() >= scroll.whole_height())
    qtbot.waitUntil(lambda: not scroll.verticalScrollBar().isVisible())
    assert not tab.detail.copy_result.visibleRegion().isEmpty()
