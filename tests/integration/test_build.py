"""A wheel built from the tracked sources carries the compiled catalogues (none is committed)."""

from __future__ import annotations

import gettext
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_a_wheel_built_from_a_clean_checkout_has_both_compiled_catalogues(tmp_path: Path) -> None:
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    source = tmp_path / "checkout"
    for name in filter(None, tracked.decode().split("\0")):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    assert not (source / "inspector" / "locale").exists()  # nothing compiled is tracked
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                            str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    [wheel] = (tmp_path / "dist").glob("run_inspector-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for language in ("en", "de"):
            assert f"inspector/locale/{language}/LC_MESSAGES/run-inspector.mo" in names
        archive.extract("inspector/locale/de/LC_MESSAGES/run-inspector.mo", tmp_path / "unpacked")
    with (tmp_path / "unpacked" / "inspector/locale/de/LC_MESSAGES/run-inspector.mo").open("rb") as stream:
        german = gettext.GNUTranslations(stream)
    assert german.gettext("cancelled") == "abgebrochen"
    singular, plural = "Run {id}: {title} — {status}, {count} step", "Run {id}: {title} — {status}, {count} steps"
    assert german.ngettext(singular, plural, 3).endswith("{count} Schritte")
    assert german.ngettext(singular, plural, 1).endswith("{count} Schritt")
    assert "BuildBackendWarning" not in built.stderr
