"""The README stays true to the code: its Architecture names every module of the package, and the
pictures it shows are the screenshot tests' ones, by a path relative to the README."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _architecture() -> str:
    return README[README.index("## Architecture"):]


def test_the_architecture_names_every_module_and_package() -> None:
    text = _architecture()
    package = ROOT / "inspector"
    modules = {path.stem for path in package.rglob("*.py") if path.stem != "__init__"}
    packages = {path.parent.name for path in package.rglob("__init__.py") if path.parent != package}
    missing = sorted(name for name in modules if not re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text))
    missing += sorted(f"{name}/" for name in packages if f"{name}/" not in text)
    assert not missing, f"the README's Architecture does not name: {missing}"


def test_the_readme_shows_the_window_as_the_screenshot_tests_render_it() -> None:
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README)
    assert pictures, "the README shows no picture of the window"
    made_by_tests = (ROOT / "tests" / "gui" / "test_screenshots.py").read_text(encoding="utf-8")
    for picture in pictures:
        assert not re.match(r"[a-z]+:", picture) and picture.startswith("docs/screenshots/"), picture
        assert (ROOT / picture).is_file(), picture
        assert f'"{Path(picture).stem}"' in made_by_tests, picture


def test_the_two_commands_come_first() -> None:
    assert re.findall(r"^## .+$", README, re.M)[0] == "## The two commands"
    block = README[README.index("## The two commands"):].split("```")[1]
    assert [line.split()[:2] for line in block.strip().splitlines()[1:]] == [["make", "run"], ["make", "test"]]


def test_first_steps_follow_the_two_commands_and_name_only_real_commands() -> None:
    """A new user reads the README from the top: after the two commands, a first hour in a few steps,
    whose command lines use sub-commands the parser knows (a renamed one would send them astray)."""
    from inspector.cli.parser import build_parser

    headings = re.findall(r"^## .+$", README, re.M)
    assert headings[:2] == ["## The two commands", "## First steps"]
    section = README[README.index("## First steps"):README.index("## Install")]
    known = set(build_parser()._subparsers._group_actions[0].choices)
    named = re.findall(r"run-inspector ([\w.-]+)", section)
    assert named, "the first steps show no command line"
    unknown = [word for word in named if word not in known and not word.endswith(".json") and not word.startswith("-")]
    assert unknown == []
    for scenario in re.findall(r"`([a-z]+-[a-z-]+)`", section):
        assert (ROOT / "inspector" / "agent" / "scenarios" / f"{scenario}.json").is_file(), scenario


def test_uninstalling_names_the_folders_and_the_keyring_service_the_program_uses(monkeypatch, tmp_path) -> None:
    """Removing the program leaves what it made: the README names where, as the code finds it (Linux,
    no XDG variables), so that someone who wants it gone knows what to delete."""
    from inspector.gui.settings import APPLICATION, ORGANIZATION
    from inspector.logfile import LOG_ENV, log_path
    from inspector.store.keyring_entries import KEYRING_SERVICE
    from inspector.store.paths import default_db_path

    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "RUN_INSPECTOR_DB", LOG_ENV):
        monkeypatch.delenv(name, raising=False)
    section = " ".join(README[README.index("**Uninstalling.**"):README.index("## The window")].split())

    def in_home(path: Path) -> str:
        return f"`~/{path.relative_to(tmp_path)}/`"

    assert in_home(default_db_path().parent) in section
    assert in_home(log_path().parent) in section
    assert f"`~/.config/{ORGANIZATION}/{APPLICATION}.ini`" in section  # QSettings' user INI file on Linux
    assert f"(service `{KEYRING_SERVICE}`" in section
    assert "make uninstall-desktop" in section and "pipx uninstall run-inspector" in section
