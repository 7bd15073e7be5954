"""Settings on a read-only disk (a home on a read-only share, a live system): File › Settings… could not
save them and said nothing, and the next start came up with the old ones. The disk is real: the settings'
folder bound read-only onto itself in a mount namespace of the process's own (``unshare``), where the
settings dialog's OK is pressed offscreen."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The settings dialog's OK with a new budget, then what the box over the window says (or "nothing said").
PRESS_OK = """
from PySide6.QtWidgets import QApplication, QMessageBox, QWidget
from inspector.gui.dialogs.settings_dialog import SettingsDialog
from inspector.gui.settings import AppSettings
app = QApplication([])
window = QWidget()
dialog = SettingsDialog(AppSettings(), "/tmp/runs.db", window)
dialog.budget.setText("35")
dialog.accept()
box = window.findChild(QMessageBox, "settings-unsaved")
print("SAID:", box.text() if box is not None else "nothing said")
"""


def test_settings_on_a_read_only_disk_are_said_not_to_be_saved(tmp_path: Path) -> None:
    folder = tmp_path / "config"
    folder.mkdir()
    settings = folder / "settings.ini"
    settings.write_text("[operations]\ndefault_budget_s=25\n", encoding="utf-8")
    command = shlex.join([sys.executable, "-c", PRESS_OK])
    script = (f"mount --bind {shlex.quote(str(folder))} {shlex.quote(str(folder))} && "
              f"mount -o remount,ro,bind {shlex.quote(str(folder))} && exec {command}")
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
                          capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "RUN_INSPECTOR_SETTINGS": str(settings), "QT_QPA_PLATFORM": "offscreen",
                               "LANGUAGE": "en"})
    said = done.stdout.partition("SAID: ")[2].strip()
    assert said == (f"The settings could not be saved to {settings}: the file system is read-only. They apply "
                    "until Run Inspector closes; make the file and its folder writable, then choose them again "
                    "in File › Settings… to keep them."), (done.stdout, done.stderr)
    assert settings.read_text(encoding="utf-8") == "[operations]\ndefault_budget_s=25\n"
