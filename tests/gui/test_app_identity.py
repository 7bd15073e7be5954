"""The window tells the desktop who it is: the desktop entry's name and the icon from the package."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QIcon, QImage
from PySide6.QtWidgets import QApplication

from inspector.appinfo import APP_ID, ICON_SIZES, icon_png
from inspector.gui.app import run_window
from inspector.gui.dialogs.database_dialog import DatabaseChoice


def test_starting_the_window_sets_the_desktop_file_name_and_the_icon_at_every_size(qtbot, tmp_path) -> None:
    app = QApplication.instance()
    app.setDesktopFileName("")
    app.setWindowIcon(QIcon())
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    # The quickest way through run_window: the database cannot be used and the user quits.
    assert run_window(str(blocker / "runs.db"), choose=lambda problem, path: (DatabaseChoice.QUIT, None)) == 2
    assert app.desktopFileName() == APP_ID
    icon = app.windowIcon()
    assert {size.width() for size in icon.availableSizes()} >= set(ICON_SIZES)
    # The 16 px picture is the drawn one (not the large one scaled down).
    drawn = QImage.fromData(icon_png(16).read_bytes()).convertToFormat(QImage.Format.Format_ARGB32)
    shown = icon.pixmap(QSize(16, 16)).toImage().convertToFormat(QImage.Format.Format_ARGB32)
    assert shown == drawn
