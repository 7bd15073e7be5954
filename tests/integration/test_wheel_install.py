"""The wheel is the whole application: installed into a fresh virtual environment outside the
checkout, it answers a call against the demo server it brings, and its window opens (offscreen)
with its icon and its German catalogue. Its dependencies come from the test environment's
site-packages (added by a ``.pth`` line, so nothing is downloaded): what is proven is that the
wheel itself carries every module, catalogue, scenario and icon."""

from __future__ import annotations

import fcntl
import gettext
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.timeout(300)

WINDOW_FOR_A_MOMENT = """
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
seen = {}
def look():
    window = next((w for w in app.topLevelWidgets() if type(w).__name__ == "MainWindow"), None)
    if window is None or not window.isVisible():
        QTimer.singleShot(50, look)  # not shown yet: look again
        return
    seen["icon"] = not app.windowIcon().isNull()
    seen["desktop"] = app.desktopFileName()
    seen["menu"] = [action.text() for action in window.menuBar().actions()]
    from inspector.gui.help_menu import DocumentationDialog
    seen["documentation"] = DocumentationDialog(window).text.text()
    app.quit()
QTimer.singleShot(50, look)
import inspector, inspector.gui.app as gui
status = gui.run_window(None, language="de")
print(inspector.__file__)
print(status, seen)
"""


@dataclass(frozen=True)
class Built:
    """The wheel built from a copy of the tracked files (``checkout``), whether that copy held compiled
    catalogues before the build, and pip's warnings while building it."""
    compiled_before: bool
    wheel: Path
    stderr: str
    checkout: Path


def _shared_folder(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """A folder of this run that every pytest-xdist worker sees (the parent of the workers' own base
    folders), so that the wheel is built and installed once per run, not once per worker (12 s each)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if "PYTEST_XDIST_WORKER" in os.environ else base) / name
    folder.mkdir(exist_ok=True)
    return folder


@contextmanager
def _alone(folder: Path) -> Iterator[None]:
    """Hold the lock of ``folder`` against the other workers for the time of the block."""
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """One wheel for this run's tests: built from the tracked files only (copied outside the checkout)."""
    work = _shared_folder(tmp_path_factory, "wheel-built")
    with _alone(work):
        done = work / "built.json"
        if not done.exists():
            done.write_text(json.dumps(_build(work)))
        found = json.loads(done.read_text())
    return Built(found["compiled_before"], Path(found["wheel"]), found["stderr"], Path(found["checkout"]))


def _build(work: Path) -> dict[str, object]:
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    source = work / "checkout"
    for name in filter(None, tracked.decode().split("\0")):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name, follow_symlinks=False)
    compiled_before = (source / "inspector" / "locale").exists()
    made = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(work / "dist"),
                           str(source)], capture_output=True, text=True, timeout=300)
    assert made.returncode == 0, made.stderr[-2000:]
    [wheel] = (work / "dist").glob("run_inspector-*.whl")
    return {"compiled_before": compiled_before, "wheel": str(wheel), "stderr": made.stderr, "checkout": str(source)}


@pytest.fixture(scope="module")
def installed(built: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment outside the checkout with the wheel built from the tracked files (one per run)."""
    work = _shared_folder(tmp_path_factory, "wheel-installed")
    fresh = work / "venv"
    with _alone(work):
        if not (work / "installed").exists():
            _install(built.wheel, fresh)
            (work / "installed").touch()
    return fresh


def _install(wheel: Path, fresh: Path) -> None:
    if fresh.exists():  # left half-made by a worker whose install failed
        shutil.rmtree(fresh)
    # Without a pip of its own (seeding one takes 10 s): the test environment's pip installs into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True, timeout=120)
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(fresh / "bin" / "python"), "install",
                           "--no-deps", "-q", str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    purelib = "import sysconfig; print(sysconfig.get_path('purelib'))"
    site = subprocess.run([str(fresh / "bin" / "python"), "-c", purelib],
                          capture_output=True, text=True, check=True).stdout.strip()
    # The dependencies of the test environment, after the fresh one's own packages (never its editable
    # checkout: a directory named in a .pth line has its own .pth files left unread). Written after the
    # install, so that pip saw only the fresh environment.
    Path(site, "deps-from-the-test-venv.pth").write_text(sysconfig.get_path("purelib") + "\n")


def _run(fresh: Path, *args: str, timeout: float = 60, **options) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(fresh / "bin" / "run-inspector"), *args], capture_output=True, text=True,
                          timeout=timeout, cwd=fresh.parent, **options)


def test_the_installed_command_calls_the_demo_server_it_brings(installed: Path) -> None:
    # It binds a port of its own choosing and says where once it listens (a port chosen here and let go
    # could be taken by another pytest-xdist worker before the demo server bound it).
    demo = subprocess.Popen([str(installed / "bin" / "run-inspector"), "serve-demo", "--port", "0", "--json"],
                            cwd=installed.parent, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        said = demo.stdout.readline() if demo.stdout is not None else ""
        assert said, "the demo server did not start"
        url = json.loads(said)["url"]
        assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp"), url
        done = _run(installed, "call", url, "echo", "--args", '{"text": "from the wheel"}', "--no-store",
                    "--lang", "de")
    finally:
        demo.terminate()
        demo.wait(10)
    assert done.returncode == 0, done.stderr
    assert "from the wheel" in done.stdout and "Budget" in done.stdout


def test_the_installed_window_opens_with_its_icon_and_german_catalogue(installed: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([str(installed / "bin" / "python"), "-c", WINDOW_FOR_A_MOMENT], capture_output=True,
                          text=True, timeout=120, cwd=installed.parent, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    location, outcome = done.stdout.strip().splitlines()[-2:]
    assert str(installed) in location  # the installed package, not the checkout
    assert outcome.startswith("0 ") and "'icon': True" in outcome
    assert "io.github.runinspector.RunInspector" in outcome and "Datei" in outcome  # the menu in German
    # No README beside the installed package: Help › Documentation names the metadata's home page.
    homepage = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Homepage"]
    assert f"unter {homepage};" in outcome


def test_a_wheel_built_from_a_clean_checkout_has_both_compiled_catalogues(built: Built, tmp_path: Path) -> None:
    assert not built.compiled_before  # nothing compiled is tracked
    with zipfile.ZipFile(built.wheel) as archive:
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


def test_an_editable_install_as_make_run_makes_it_prints_no_setuptools_note(built: Built, tmp_path: Path) -> None:
    """`make run` on a fresh clone installs the checkout editable: pip used to print setuptools' boxed
    "Editable installation. ... Please be careful with folders in your working directory ..." note, which
    says nothing to someone who only wants the window. Whether pip passes a build's warnings on depends on
    its version, so the note is made an error in the build: the install fails if setuptools still says it."""
    fresh = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(fresh)], check=True, timeout=120)
    env = {**os.environ, "PYTHONWARNINGS": "error:Editable installation"}
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(fresh / "bin" / "python"), "install",
                           "--no-deps", "-q", "-e", str(built.checkout)], capture_output=True, text=True, timeout=300,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "BuildBackendWarning" not in done.stderr and "Editable installation" not in done.stderr, done.stderr


def test_the_wheel_holds_the_package_its_metadata_and_the_licence_text(built: Built) -> None:
    """MIT asks for its text with every copy: the metadata's License-Expression alone named it."""
    with zipfile.ZipFile(built.wheel) as archive:
        names = archive.namelist()
        [info] = {name.split("/")[0] for name in names if ".dist-info/" in name}
        metadata = archive.read(f"{info}/METADATA").decode()
        licence = archive.read(f"{info}/licenses/LICENSE").decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    assert licence.startswith("MIT License") and "Run Inspector authors" in licence
    assert {name.split("/")[0] for name in names} == {"inspector", info}
    assert not [name for name in names if "__pycache__" in name or name.endswith((".pyc", ".po", ".pot"))]
