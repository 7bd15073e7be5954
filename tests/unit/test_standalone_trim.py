"""What the standalone build leaves out (packaging/standalone_trim.py), checked without building: the
locale data and Qt translations of every language the application speaks stay, the platform and image
plugins the window uses stay, and no module the application imports is excluded. (The build itself and
the formatting in it: packaging/smoke_standalone.py, run by `make standalone`.)"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import babel
import PySide6
import pytest

from inspector.gui.widgets.image_decode import RASTER_TYPES
from inspector.i18n.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]


def _load_trim():
    # By its path: "packaging" is also the name of a library on sys.path.
    spec = importlib.util.spec_from_file_location("standalone_trim", ROOT / "packaging" / "standalone_trim.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


trim = _load_trim()


def test_babel_keeps_root_and_every_locale_of_the_languages_spoken_and_nothing_else() -> None:
    folder = Path(babel.__file__).parent / "locale-data"
    kept = {path.stem for path in folder.glob("*.dat") if trim.keeps(f"babel/locale-data/{path.name}", LANGUAGES)}
    assert {"root", "en", "de", "en_GB", "de_CH", "de_AT"} <= kept
    assert all(name == "root" or name.split("_")[0] in LANGUAGES for name in kept), kept
    assert not {"fr", "ja", "sr_Latn", "zh_Hant_HK"} & kept
    assert trim.keeps("babel/global.dat", LANGUAGES)  # likely subtags, plural rules: every locale needs it


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_each_language_keeps_its_babel_locale_and_the_qt_translation_the_window_loads(language: str) -> None:
    assert trim.keeps(f"babel/locale-data/{language}.dat", LANGUAGES)
    assert trim.keeps(f"PySide6/Qt/translations/qtbase_{language}.qm", LANGUAGES)
    if language != "en":  # English is Qt's own; the other languages' file must exist to be kept
        assert (Path(PySide6.__file__).parent / "Qt" / "translations" / f"qtbase_{language}.qm").is_file()


def test_qt_keeps_the_desktop_platforms_the_icon_and_every_picture_format_a_result_may_carry() -> None:
    for name in ("libqxcb.so", "libqwayland.so", "libqoffscreen.so"):
        assert trim.keeps(f"PySide6/Qt/plugins/platforms/{name}", LANGUAGES), name
    for name in ("libqvnc.so", "libqeglfs.so", "libqlinuxfb.so"):
        assert not trim.keeps(f"PySide6/Qt/plugins/platforms/{name}", LANGUAGES), name
    for qt_format in set(RASTER_TYPES.values()) - {"png"}:  # PNG is built into QtGui
        assert trim.keeps(f"PySide6/Qt/plugins/imageformats/libq{qt_format}.so", LANGUAGES), qt_format
    assert trim.keeps("PySide6/Qt/plugins/imageformats/libqsvg.so", LANGUAGES)  # the application icon
    assert trim.keeps("PySide6/Qt/plugins/iconengines/libqsvgicon.so", LANGUAGES)
    assert not trim.keeps("PySide6/Qt/plugins/imageformats/libqtiff.so", LANGUAGES)
    assert not trim.keeps("PySide6/Qt/translations/qt_help_de.qm", LANGUAGES)
    assert not trim.keeps("PySide6/Qt/translations/qtbase_fr.qm", LANGUAGES)
    assert not trim.keeps("PySide6/Qt/lib/libQt6Network.so.6", LANGUAGES)
    assert trim.keeps("PySide6/Qt/lib/libQt6Widgets.so.6", LANGUAGES)
    assert trim.keeps("PySide6/Qt/lib/libicudata.so.73", LANGUAGES)  # QtCore links it
    entries = [("PySide6/Qt/plugins/platforms/libqvnc.so", "/x", "BINARY"), ("inspector/locale/de/x.mo", "/y", "DATA")]
    assert trim.trimmed(entries, LANGUAGES) == entries[1:]


def test_no_module_the_application_imports_is_excluded_from_the_build() -> None:
    imported: set[str] = set()
    for path in (ROOT / "inspector").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported |= {node.module, *(f"{node.module}.{alias.name}" for alias in node.names)}
    excluded = [name for name in imported
                if any(name == gone or name.startswith(f"{gone}.") for gone in trim.EXCLUDED_MODULES)]
    assert not excluded
    # The MCP SDK's own OpenTelemetry imports (the API: trace, propagate, context) stay in.
    assert not any(f"opentelemetry.{api}".startswith(gone) for api in ("trace", "propagate", "context")
                   for gone in trim.EXCLUDED_MODULES)
