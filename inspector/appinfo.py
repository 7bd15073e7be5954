"""Who the application is to the desktop: one id, one name, one version, the icon's files.

The id is the reverse-DNS name the desktop entry, the AppStream metainfo, the icon files and
``QGuiApplication.setDesktopFileName`` all share (packaging/ and inspector/resources/ are named
after it; tests/unit/test_packaging.py checks they agree). This module imports nothing heavy: the
command line may ask for the version without loading Qt.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

#: The application id (reverse DNS): file names, icon name, AppStream id, desktop entry.
APP_ID = "io.github.runinspector.RunInspector"
#: The name people see in menus and title bars (a proper name, never translated).
APP_NAME = "Run Inspector"
#: The distribution whose metadata holds the version, and the console script it installs.
DISTRIBUTION = "run-inspector"
COMMAND = "run-inspector"
#: The PNG sizes desktop environments ask for (hicolor's apps folders), besides the scalable SVG.
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)


def version() -> str:
    """The application's version (one answer everywhere: :func:`inspector.version.app_version`)."""
    from .version import app_version

    return app_version()


def icons() -> Traversable:
    """The icon folder inside the installed package (never the working directory)."""
    return resources.files("inspector.resources").joinpath("icons")


def icon_svg() -> Traversable:
    """The scalable icon, ``<APP_ID>.svg``."""
    return icons().joinpath(f"{APP_ID}.svg")


def icon_png(size: int) -> Traversable:
    """The icon drawn at ``size`` × ``size`` pixels, ``<size>/<APP_ID>.png``."""
    return icons().joinpath(str(size), f"{APP_ID}.png")
