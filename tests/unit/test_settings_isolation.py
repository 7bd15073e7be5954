"""Each test has window settings of its own, and so has every process it starts: a test that selects a
server (the window remembers it as the one selected last) cannot decide which server the next test's
window selects, nor write the user's own settings. Two tests in order: the second sees nothing of the first."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.gui.settings import SETTINGS_ENV, AppSettings, open_qsettings

ROOT = Path(__file__).resolve().parents[2]
SHOWN = "from inspector.gui.settings import open_qsettings; print(open_qsettings().fileName())"


def _assert_own_settings(database: Path) -> None:
    """The settings file is in this test's own folder, beside its run database."""
    assert Path(open_qsettings().fileName()).parent == database.parent


def test_a_test_that_selects_a_server_writes_its_own_settings(_isolated_run_database: Path) -> None:
    _assert_own_settings(_isolated_run_database)  # before anything is written
    settings = AppSettings()
    settings.last_server = "http://127.0.0.1:9/mcp"
    settings.qsettings.sync()
    assert AppSettings().last_server == "http://127.0.0.1:9/mcp"


def test_the_next_test_sees_no_server_selected_before(_isolated_run_database: Path) -> None:
    _assert_own_settings(_isolated_run_database)
    assert AppSettings().last_server == ""


def test_a_process_a_test_starts_uses_the_tests_settings(_isolated_run_database: Path) -> None:
    env = {key: value for key, value in os.environ.items()}
    done = subprocess.run([sys.executable, "-c", SHOWN], capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).parent == _isolated_run_database.parent
    # Without the variable (a window started as a user starts it), Qt's own place is this test's too.
    del env[SETTINGS_ENV]
    done = subprocess.run([sys.executable, "-c", SHOWN], capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).is_relative_to(_isolated_run_database.parent)


def test_a_settings_file_named_from_the_home_folder_is_there_as_the_database_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """RUN_INSPECTOR_SETTINGS=~/ri.ini made a folder named "~" in the working folder and kept the settings
    there, where RUN_INSPECTOR_DB=~/runs.db is the home folder's: "~" is the home folder in both."""
    from inspector.gui.settings import settings_file
    from inspector.store import resolve_db_path

    home, here = tmp_path / "home", tmp_path / "here"
    home.mkdir()
    here.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(here)
    monkeypatch.setenv(SETTINGS_ENV, "~/ri.ini")
    monkeypatch.setenv("RUN_INSPECTOR_DB", "~/runs.db")
    settings = AppSettings()
    settings.language = "de"
    settings.qsettings.sync()
    assert settings_file() == Path(settings.qsettings.fileName()) == home / "ri.ini"
    assert resolve_db_path() == home / "runs.db"
    assert (home / "ri.ini").is_file() and list(here.iterdir()) == []
    assert AppSettings().language == "de"
