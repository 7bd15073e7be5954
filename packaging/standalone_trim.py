"""What the standalone build leaves out (packaging/run-inspector.spec uses it; tests/unit/test_packaging.py
checks the rules without building): Babel's locale data and Qt's translations for languages the
application does not speak, Qt plugins for platforms and formats it never uses, and the Qt libraries
only those plugins needed. Pure functions of a file's place in the bundle, so the rules read as lists.

Babel: ``inspector.i18n`` formats with ``Locale.parse(language)`` for a language of ``LANGUAGES`` only
("en", "de"), so ``root`` (every locale's last parent) and ``en*``/``de*`` are kept. Qt: the window
loads ``qtbase_<language>.qm`` (inspector/gui/language.py) and nothing else of Qt's translations.
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatch

#: Platforms a desktop user has (xcb: X11, wayland) and the ones the tests and the smoke test use.
KEPT_PLATFORMS = ("libqxcb.so", "libqwayland.so", "libqoffscreen.so", "libqminimal.so")
#: Whole plugin folders for hardware and input paths a desktop window never takes (framebuffer, EGL
#: full-screen devices, evdev and TUIO input read directly instead of through the display server).
DROPPED_PLUGIN_FOLDERS = ("egldeviceintegrations", "generic")
#: The pictures a result may carry (inspector/gui/widgets/image_decode.py: PNG, built into QtGui, JPEG,
#: GIF, WebP) and the SVG of the application icon.
KEPT_IMAGE_FORMATS = ("libqjpeg.so", "libqgif.so", "libqwebp.so", "libqsvg.so")
#: Qt libraries only the dropped plugins link (QtNetwork: the VNC platform and TUIO input).
DROPPED_QT_LIBRARIES = ("libQt6Network.so.*", "libQt6EglFSDeviceIntegration.so.*", "libQt6EglFsKmsSupport.so.*")
#: Python packages a run never imports that the analysis finds through optional imports: the build
#: tools (PyInstaller's own hooks, cffi's), httpx's command line (pygments, rich), the test tools, and
#: OpenTelemetry beyond the API the MCP SDK uses and the protocol messages the OTLP receiver reads
#: (its SDK, exporters and instrumentations come in through the entry points of whatever else the
#: build's environment holds).
EXCLUDED_MODULES = ("tkinter", "pytest", "_pytest", "hypothesis", "setuptools", "pkg_resources", "distutils",
                    "pygments", "rich", "opentelemetry.sdk", "opentelemetry.exporter", "opentelemetry.instrumentation")

QT = "PySide6/Qt/"


def _parts(dest: str) -> list[str]:
    return dest.replace("\\", "/").split("/")


def keeps_babel_locale(dest: str, languages: Iterable[str]) -> bool:
    """False for ``babel/locale-data/<locale>.dat`` of a language not spoken (``root`` always stays)."""
    parts = _parts(dest)
    if parts[:2] != ["babel", "locale-data"] or len(parts) != 3 or not parts[2].endswith(".dat"):
        return True
    locale = parts[2].removesuffix(".dat")
    return locale == "root" or locale.split("_", 1)[0] in set(languages)


def keeps_qt_file(dest: str, languages: Iterable[str]) -> bool:
    """False for a Qt translation, plugin or library the application never loads."""
    dest = dest.replace("\\", "/")
    if not dest.startswith(QT):
        return True
    folder, _, name = dest.removeprefix(QT).partition("/")
    if folder == "translations":
        return name in {f"qtbase_{language}.qm" for language in languages}
    if folder == "qml":
        return False
    if folder == "lib":
        return not any(fnmatch(name, pattern) for pattern in DROPPED_QT_LIBRARIES)
    if folder != "plugins":
        return True
    kind, _, plugin = name.partition("/")
    if kind in DROPPED_PLUGIN_FOLDERS:
        return False
    if kind == "platforms":
        return plugin in KEPT_PLATFORMS
    if kind == "imageformats":
        return plugin in KEPT_IMAGE_FORMATS
    return True


def keeps(dest: str, languages: Iterable[str]) -> bool:
    """Whether the file that would land at ``dest`` in the bundle is kept."""
    languages = tuple(languages)
    return keeps_babel_locale(dest, languages) and keeps_qt_file(dest, languages)


def trimmed(entries: Iterable[tuple], languages: Iterable[str]) -> list[tuple]:
    """PyInstaller's TOC entries ``(dest, source, typecode)`` without the files left out."""
    languages = tuple(languages)
    return [entry for entry in entries if keeps(entry[0], languages)]
