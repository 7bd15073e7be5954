"""A process a test starts with an environment of its own (a clean start, ``env={...}`` built from nothing)
still keeps its files in the test's folder; and the run watches the user's own folders, saying what a test
made, changed or removed there. Such processes (the late-stop and sign-in-stop children, the icon check)
used the user's run database, log folder, window settings and keyring."""

from __future__ import annotations

import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

from tests.support.isolation import ROOT, clean_environment
from tests.support.real_folders import RealFolders, user_places

WHERE = """
import json, keyring, platformdirs
from inspector.gui.settings import settings_file
from inspector.logfile import log_path
from inspector.store.paths import resolve_db_path
print(json.dumps({"database": str(resolve_db_path()), "log": str(log_path()), "settings": str(settings_file()),
                  "data": platformdirs.user_data_dir("run-inspector"), "state": platformdirs.user_state_dir(),
                  "config": platformdirs.user_config_dir(), "keyring": type(keyring.get_keyring()).__name__}))
"""


def test_a_process_started_with_an_environment_of_its_own_uses_the_tests_folder(_isolated_run_database: Path) -> None:
    env = clean_environment({"HOME": "/nonexistent"})  # nothing may come from the home folder either
    done = subprocess.run([sys.executable, "-c", WHERE], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=env)
    assert done.returncode == 0, done.stderr
    where = json.loads(done.stdout)
    assert where.pop("keyring") == "Keyring"  # keyring.backends.fail: it keeps nothing
    folder = _isolated_run_database.parent
    assert {name: Path(path).is_relative_to(folder) for name, path in where.items()} == dict.fromkeys(where, True)
    assert "LANG" not in env  # its language is its own affair, as it was


def test_what_is_given_comes_last() -> None:
    env = clean_environment({"PATH": "/bin", "MODE": "one"}, {"MODE": "two"})
    assert (env["PATH"], env["MODE"], env["PYTHONPATH"]) == ("/bin", "two", str(ROOT))
    assert "HOME" not in env and env["RUN_INSPECTOR_LOG"] == os.environ["RUN_INSPECTOR_LOG"]


def test_the_users_places_are_those_of_the_environment_and_of_a_clean_start(tmp_path: Path) -> None:
    places = user_places({"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_STATE_HOME": str(tmp_path / "state"),
                          "RUN_INSPECTOR_DB": str(tmp_path / "mine.db")})
    home = Path(pwd.getpwuid(os.getuid()).pw_dir)
    for place in (tmp_path / "data" / "run-inspector", tmp_path / "data" / "python_keyring",
                  tmp_path / "state" / "run-inspector", tmp_path / "mine.db", tmp_path / "mine.db-wal",
                  home / ".local" / "share" / "run-inspector", home / ".config" / "run-inspector",
                  home / ".local" / "state" / "run-inspector", home / ".config" / "QtProject.conf"):
        assert place in places, place
    assert home / ".local" / "state" / "run-inspector" / "log" not in places  # listed with the state folder


def test_the_watch_says_what_was_made_changed_and_removed_once(tmp_path: Path) -> None:
    data, conf = tmp_path / "data", tmp_path / "QtProject.conf"
    (data / "log").mkdir(parents=True)
    (data / "runs.db").write_text("kept")
    (data / "old.txt").write_text("old")
    watched = RealFolders([data, conf, tmp_path / "absent"])
    assert watched.changes() == []
    (data / "log" / "run-inspector.log").write_text("Internal error")
    (data / "runs.db").write_text("kept, and more")
    (data / "old.txt").unlink()
    conf.write_text("[FileDialog]")
    assert watched.changes() == [f"made {data / 'log' / 'run-inspector.log'}", f"removed {data / 'old.txt'}",
                                 f"changed {data / 'runs.db'}", f"made {conf}"]
    assert watched.changes() == []  # said once: the next test is not blamed for it


def test_the_watch_sees_a_write_through_a_link_to_a_file_or_a_folder(tmp_path: Path) -> None:
    """A user's database or log folder may be a link to another disk: what a test writes through the link is
    written into the user's files all the same (the watch compared the links' own sizes and times)."""
    elsewhere, data = tmp_path / "elsewhere", tmp_path / "data"
    (elsewhere / "logs").mkdir(parents=True)
    (elsewhere / "runs.db").write_text("kept")
    (elsewhere / "logs" / "run-inspector.log").write_text("one line")
    data.mkdir()
    (data / "runs.db").symlink_to(elsewhere / "runs.db")
    (data / "log").symlink_to(elsewhere / "logs")
    (data / "here").symlink_to(data)  # a link to its own folder is walked once
    (data / "gone").symlink_to(tmp_path / "absent")  # a dangling link is a file like another
    watched = RealFolders([data])
    assert watched.changes() == []
    (data / "runs.db").write_text("kept, and more")
    (data / "log" / "run-inspector.log").write_text("one line, and another")
    (data / "log" / "run-inspector.log.1").write_text("rotated")
    assert watched.changes() == [f"changed {data / 'log' / 'run-inspector.log'}",
                                 f"made {data / 'log' / 'run-inspector.log.1'}", f"changed {data / 'runs.db'}"]


def test_the_users_places_are_also_those_of_a_process_given_only_home(tmp_path: Path) -> None:
    """The user's XDG_* named other folders and HOME is not the account's (a container, sudo -E): a process a
    test starts with HOME alone (``env={"HOME": ...}``) keeps its files under that HOME, which was not watched."""
    home = tmp_path / "home"
    places = user_places({"HOME": str(home), "XDG_DATA_HOME": str(tmp_path / "data"),
                          "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_STATE_HOME": str(tmp_path / "state")})
    for place in (home / ".local" / "share" / "run-inspector", home / ".config" / "run-inspector",
                  home / ".local" / "state" / "run-inspector", home / ".config" / "QtProject.conf",
                  tmp_path / "data" / "run-inspector"):
        assert place in places, place
