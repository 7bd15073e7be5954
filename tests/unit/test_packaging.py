"""The desktop's view of the application: one id everywhere, valid desktop entry and AppStream
metainfo (their own validators), icons inside the package, and `make install-desktop`/`uninstall-desktop`."""

from __future__ import annotations

import configparser
import fnmatch
import re
import shutil
import struct
import subprocess
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from inspector.appinfo import APP_ID, APP_NAME, COMMAND, ICON_SIZES, icon_png, icon_svg, version
from tests.support.isolation import clean_environment

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = ROOT / "packaging" / f"{APP_ID}.desktop"
METAINFO = ROOT / "packaging" / f"{APP_ID}.metainfo.xml"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def validator(program: str, debian_package: str) -> str:
    """The validator's path; a missing one fails the test (CI must prove the files valid, not skip)."""
    found = shutil.which(program)
    if found is None:
        pytest.fail(f"{program} is not installed: install the Debian package {debian_package} "
                    f"(apt-get install {debian_package}) so the packaging files can be checked")
    return found


def desktop_entry(path: Path = DESKTOP) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive in desktop entries
    parser.read(path, encoding="utf-8")
    return parser["Desktop Entry"]


def test_the_desktop_entry_passes_desktop_file_validate() -> None:
    done = subprocess.run([validator("desktop-file-validate", "desktop-file-utils"), str(DESKTOP)],
                          capture_output=True, text=True, timeout=60)
    # It prints errors, warnings and hints; any of them is something to fix.
    assert done.returncode == 0 and not done.stdout.strip() and not done.stderr.strip(), done.stdout + done.stderr


def test_the_metainfo_passes_appstreamcli_validate() -> None:
    done = subprocess.run([validator("appstreamcli", "appstream"), "validate", "--no-net", "--no-color",
                           str(METAINFO)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    # Only information lines (I:) and pedantic ones (P:) may remain; errors and warnings fail above or here.
    assert not [line for line in done.stdout.splitlines() if line.startswith(("E:", "W:"))], done.stdout


def test_the_desktop_entry_names_the_console_script_and_the_icon_by_the_application_id() -> None:
    entry = desktop_entry()
    assert COMMAND in PYPROJECT["project"]["scripts"]
    assert PYPROJECT["project"]["name"] == COMMAND
    assert entry["Exec"].split()[0] == COMMAND and entry["TryExec"] == COMMAND
    assert entry["Icon"] == APP_ID
    assert entry["Name"] == APP_NAME and entry["Terminal"] == "false"
    # On X11 Qt's window class instance is the program's name (argv[0]); on Wayland the app id.
    assert entry["StartupWMClass"] == COMMAND


def test_the_metainfo_uses_the_same_id_version_and_binary() -> None:
    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("name") == APP_NAME
    assert root.find("launchable").text == DESKTOP.name
    assert root.find("provides/binary").text == COMMAND
    assert root.findtext("project_license") == PYPROJECT["project"]["license"]
    assert root.find("content_rating").get("type") == "oars-1.1"
    assert PYPROJECT["project"]["version"] in [r.get("version") for r in root.iter("release")]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_every_icon_size_is_in_the_package_at_its_size() -> None:
    assert icon_svg().is_file() and b"<svg" in icon_svg().read_bytes()
    for size in ICON_SIZES:
        assert png_size(icon_png(size).read_bytes()) == (size, size), size


def test_the_package_data_globs_carry_every_icon_into_the_wheel() -> None:
    globs = PYPROJECT["tool"]["setuptools"]["package-data"]["inspector.resources"]
    folder = ROOT / "inspector" / "resources"
    files = [p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()
             and p.suffix in (".svg", ".png")]
    assert len(files) == len(ICON_SIZES) + 1
    assert all(any(fnmatch.fnmatch(name, pattern) for pattern in globs) for name in files), files


def test_the_committed_pngs_are_the_svg_rendered_now() -> None:
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "tools" / "render_icons.py"), "--check"], capture_output=True,
                          text=True, timeout=120, env=clean_environment({"QT_QPA_PLATFORM": "offscreen"}))
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_version_comes_from_the_installed_metadata() -> None:
    assert version() == PYPROJECT["project"]["version"]


def make(target: str, data: Path, *extra: str) -> None:
    if shutil.which("make") is None:
        pytest.fail("make is needed: install-desktop and uninstall-desktop are make targets")
    env = clean_environment({"HOME": str(data.parent / "home"), "XDG_DATA_HOME": str(data)})
    done = subprocess.run(["make", "--no-print-directory", target, *extra], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_install_desktop_puts_the_entry_and_icons_in_the_xdg_folders_and_uninstall_removes_them(tmp_path) -> None:
    data = tmp_path / "share"
    mine = data / "icons" / "hicolor" / "48x48" / "apps" / "someone.else.png"
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"not ours")
    before = {p for p in data.rglob("*") if p.is_file()}
    make("install-desktop", data, "DESKTOP_EXEC=/opt/run inspector/bin/run-inspector")
    expected = {data / "applications" / f"{APP_ID}.desktop",
                data / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg"}
    expected |= {data / "icons" / "hicolor" / f"{s}x{s}" / "apps" / f"{APP_ID}.png" for s in ICON_SIZES}
    assert all(path.is_file() for path in expected)
    assert (data / f"icons/hicolor/16x16/apps/{APP_ID}.png").read_bytes() == icon_png(16).read_bytes()
    assert not (tmp_path / "home").exists()  # XDG_DATA_HOME is where it goes, not ~/.local/share
    installed = desktop_entry(data / "applications" / f"{APP_ID}.desktop")
    # Exec names the program found at install time (a checkout's venv is not on the menu's PATH).
    assert installed["Exec"] == '"/opt/run inspector/bin/run-inspector" %f'  # quoted: the path has a space
    assert installed["TryExec"] == "/opt/run inspector/bin/run-inspector"
    assert installed["Icon"] == APP_ID
    done = subprocess.run([validator("desktop-file-validate", "desktop-file-utils"),
                           str(data / "applications" / f"{APP_ID}.desktop")], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stdout.strip(), done.stdout + done.stderr
    make("uninstall-desktop", data)
    left = {p for p in data.rglob("*") if p.is_file()}
    assert not (left & expected)
    # Only our files went; the menu database's cache (update-desktop-database's) may stay.
    assert before <= left and {p.name for p in left - before} <= {"mimeinfo.cache"}


def test_the_metainfo_screenshots_are_pictures_the_screenshot_tests_make() -> None:
    shots = [image.text for image in ET.parse(METAINFO).getroot().iter("image")]
    made_by_tests = (ROOT / "tests" / "gui" / "test_screenshots.py").read_text(encoding="utf-8")
    published = re.search(r"^PUBLISHED_SHOTS := (.+)$", (ROOT / "Makefile").read_text(), re.M).group(1).split()
    assert shots and len(shots) == len(published)
    for url in shots:
        name = url.rsplit("/", 1)[1]
        assert url.startswith("https://") and "/docs/screenshots/" in url
        assert name.removesuffix(".png") in published and f'"{name.removesuffix(".png")}"' in made_by_tests
        assert png_size((ROOT / "docs" / "screenshots" / name).read_bytes()) == (1280, 800)


def test_the_metainfo_addresses_are_the_repository_the_application_id_names() -> None:
    # io.github.OWNER.Name: the project lives at github.com/OWNER/<the command's name>.
    owner = APP_ID.split(".")[2]
    repository = f"https://github.com/{owner}/{COMMAND}"
    root = ET.parse(METAINFO).getroot()
    urls = {url.get("type"): url.text for url in root.iter("url")}
    assert urls == {"homepage": repository, "bugtracker": f"{repository}/issues", "vcs-browser": repository}
    assert root.find("developer").get("id") == f"io.github.{owner}"
    raw = f"https://raw.githubusercontent.com/{owner}/{COMMAND}/main/docs/screenshots/"
    assert all(image.text.startswith(raw) for image in root.iter("image"))
    assert PYPROJECT["project"]["urls"] == {"Homepage": repository, "Issues": f"{repository}/issues",
                                            "Source": repository}
