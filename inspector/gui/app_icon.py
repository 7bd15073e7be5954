"""The window's icon and the desktop's name for the application, read from the installed package."""

from __future__ import annotations

from typing import TYPE_CHECKING

from inspector.appinfo import APP_ID, ICON_SIZES, icon_png, icon_svg

if TYPE_CHECKING:
    from PySide6.QtGui import QGuiApplication, QIcon


def application_icon() -> QIcon:
    """The icon at every drawn size (crisp where a PNG exists), plus the SVG for any other size."""
    from PySide6.QtGui import QIcon, QPixmap

    icon = QIcon()
    for size in ICON_SIZES:
        pixmap = QPixmap()
        # Bytes, not a path: a zipped or otherwise packed install has no file to name.
        if pixmap.loadFromData(icon_png(size).read_bytes(), "PNG"):
            icon.addPixmap(pixmap)
    if icon.isNull():  # no PNG could be read: fall back to the scalable icon
        pixmap = QPixmap()
        if pixmap.loadFromData(icon_svg().read_bytes(), "SVG"):
            icon.addPixmap(pixmap)
    return icon


def present_application(app: QGuiApplication) -> None:
    """Tell the desktop who this is: the desktop entry's name (window class on Wayland) and the icon."""
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(application_icon())
