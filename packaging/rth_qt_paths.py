"""Run-time hook of the standalone build, in place of PyInstaller's ``pyi_rth_pyside6``: Qt's plugin and QML
folders inside the bundle, set before anything starts, without importing PySide6 (that hook imports
PySide6.QtCore in every process, about 70 ms before a command-line call even begins). The other thing
that hook does, an embedded qt.conf naming the bundle's Qt folder, PySide6 from PyPI does itself when it
is first imported: in the bundle, QLibraryInfo names its plugins and translations (qtbase_de.qm loads),
and packaging/smoke_standalone.py opens the window on the offscreen platform plugin."""

import os
import sys

_qt = os.path.join(sys._MEIPASS, "PySide6")  # noqa: SLF001 (PyInstaller's bundle folder)
if not sys.platform.startswith("win"):
    _qt = os.path.join(_qt, "Qt")
os.environ["QT_PLUGIN_PATH"] = os.path.join(_qt, "plugins")
os.environ["QML2_IMPORT_PATH"] = os.path.join(_qt, "qml")
if sys.platform.startswith("win"):
    os.environ["PATH"] = sys._MEIPASS + os.pathsep + os.environ.get("PATH", "")  # noqa: SLF001
del _qt
