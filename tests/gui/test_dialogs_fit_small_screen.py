"""With large fonts on a small screen, the Settings and Compare dialogs fit the screen: OK, Cancel
and Close stay on it (a form wider than the screen scrolls sideways). At 16 pt the settings (a check
box's words do not wrap) were 1503 px wide in German and 1177 px in English, OK beyond a 1024 or 1280 px
screen; Compare opened at 1100 × 680 whatever the screen, Close below a 600 px one. In German its steps'
Differences column was left 100 px, most of it beyond the table's edge (the runs' columns 284 px each for
"fehlgeschlagen: Zeitüberschreitung · 0,5 s"): it keeps its floor, within the table or a scroll away.

The screen is real to Qt: a process of its own opens the dialogs on an offscreen screen of that size,
with the application font set as a user's desktop sets it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.gui.runs.compare_dialog import DIFFERENCES_FLOOR_PX
from tests.support.screens import offscreen_platform

ROOT = Path(__file__).resolve().parents[2]

#: Opens the two dialogs and reports where they and their buttons are.
PROBE = r"""
import json, sys
from pathlib import Path
from PySide6.QtCore import QEventLoop, QPoint, QRect, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication, QFormLayout, QPushButton, QScrollArea
app = QApplication([])
font = QFont(app.font())
font.setPointSizeF(float(sys.argv[2]))
QApplication.setFont(font)
from inspector.gui.language import switch_language
switch_language(sys.argv[1])
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.runs.compare_dialog import CompareDialog
from inspector.gui.settings import AppSettings
from inspector.store import RunStore, resolve_db_path
from inspector.store.secrets import NoSecretKeeper
from inspector.transfer.importing import import_trace
store = RunStore.open(resolve_db_path())
traces = Path("tests/fixtures/otel")
first, second = (import_trace(store, traces / name).run_ids[0] for name in ("mcp_sdk.jsonl", "traceloop.jsonl"))

def measured(dialog):
    dialog.show()
    app.processEvents()
    screen = dialog.screen().availableGeometry()
    frame = dialog.frameGeometry()
    scroll = dialog.findChild(QScrollArea)
    # The dialog's own buttons (OK, Cancel, Close); those in a scrolled form are a scroll away.
    buttons = [button for button in dialog.findChildren(QPushButton) if button.isVisible()
               and (scroll is None or not scroll.widget().isAncestorOf(button))]
    return {"screen": [screen.width(), screen.height()], "size": [frame.width(), frame.height()],
            "inside": screen.contains(frame),
            "buttons off the screen": [button.text() for button in buttons
                                       if not screen.contains(QRect(button.mapToGlobal(QPoint(0, 0)), button.size()))],
            "sideways": scroll.horizontalScrollBar().maximum() if scroll is not None else None,
            # Nothing cut off: the rows have at least their least width (scrolled to, where the screen is narrower).
            "whole": scroll is None or scroll.widget().width() >= scroll.widget().minimumSizeHint().width()}

settings = SettingsDialog(AppSettings(), str(resolve_db_path()), secrets=NoSecretKeeper())
found = {"settings": measured(settings)}
form = settings.findChild(QFormLayout)
rows = [(form.itemAt(row, QFormLayout.ItemRole.LabelRole), form.itemAt(row, QFormLayout.ItemRole.FieldRole))
        for row in range(form.rowCount())]
found["settings"]["rows under their labels"] = sum(label.geometry().bottom() < field.geometry().top()
                                                   for label, field in rows if label and field)
settings.reject()
compare = CompareDialog(store, resolve_db_path(), first, second)
loop = QEventLoop()
compare.ready.connect(loop.quit)
QTimer.singleShot(20000, loop.quit)
loop.exec()
found["compare"] = measured(compare)
header, column = compare.view.horizontalHeader(), compare.model.COLUMNS.index("differences")
found["compare"]["differences"] = {"width": header.sectionSize(column), "end": header.sectionPosition(column)
                                   + header.sectionSize(column), "room": compare.view.viewport().width(),
                                   "sideways": compare.view.horizontalScrollBar().maximum()}
compare.close()
store.close()
print(json.dumps(found))
sys.stdout.flush()
"""


def dialogs_on_screen(size: str, language: str, points: int, tmp_path: Path) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": offscreen_platform(size),
           "RUN_INSPECTOR_SETTINGS": str(tmp_path / "settings.ini"), "RUN_INSPECTOR_DB": str(tmp_path / "runs.db")}
    done = subprocess.run([sys.executable, "-c", PROBE, language, str(points)], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(("size", "language"), [("1024x600", "de"), ("1024x600", "en"), ("1280x720", "de")])
def test_settings_and_compare_fit_a_small_screen_at_16_points(size, language, tmp_path) -> None:
    found = dialogs_on_screen(size, language, 16, tmp_path)
    for name in ("settings", "compare"):
        dialog = found[name]
        assert dialog["inside"], (name, dialog)
        assert dialog["buttons off the screen"] == [], (name, dialog)
    # The check box's words that do not fit are one scroll away, not cut off (in English on a 1024 px screen and
    # in German on a 1280 px one they fit since the rows too wide beside their labels go under them).
    assert found["settings"]["whole"], found["settings"]
    # The steps' differences too.
    differences = found["compare"]["differences"]
    assert differences["width"] >= DIFFERENCES_FLOOR_PX, differences
    assert differences["end"] <= differences["room"] + differences["sideways"], differences


@pytest.mark.parametrize("language", ["de", "en"])
def test_at_the_default_font_the_settings_and_the_differences_need_no_sideways_scrolling(tmp_path, language) -> None:
    found = dialogs_on_screen("1024x600", language, 10, tmp_path)
    assert found["settings"]["inside"], found["settings"]
    assert found["settings"]["sideways"] == 0, found["settings"]
    assert found["settings"]["rows under their labels"] == 0, found["settings"]  # the room for them beside
    assert found["compare"]["size"][0] <= 1024 and found["compare"]["size"][1] <= 600, found["compare"]
    # The steps' differences whole in the table, at least their floor wide: no scrolling to read them.
    differences = found["compare"]["differences"]
    assert differences["width"] >= DIFFERENCES_FLOOR_PX, differences
    assert differences["end"] <= differences["room"] and differences["sideways"] == 0, differences


@pytest.mark.parametrize("language", ["de", "en"])
def test_on_an_800_px_screen_the_settings_need_no_sideways_scrolling(tmp_path, language) -> None:
    """On an 800 × 600 screen the German settings scrolled sideways: the sampling check box's words (733 px at
    10 pt, they do not wrap) beside their label made the form 927 px wide. Its words are short now, the rest a
    note under it, and a row too wide beside its label goes under it where the screen is that narrow."""
    settings = dialogs_on_screen("800x600", language, 10, tmp_path)["settings"]
    assert settings["inside"] and settings["buttons off the screen"] == [], settings
    assert settings["sideways"] == 0, settings
