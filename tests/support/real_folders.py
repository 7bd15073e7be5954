"""The user's own folders (run database, window settings, log, keyring files): a test run leaves them as it
found them. Read before any test isolates itself (tests/conftest.py), from the environment as it was."""

from __future__ import annotations

import os
import pwd
from collections.abc import Mapping
from pathlib import Path
from unittest.mock import patch

import platformdirs

from inspector.store.paths import APP_NAME

#: Files a folder's listing holds: relative path → (size, modification time in ns).
Listing = dict[str, tuple[int, int]]
#: Environment variables naming one of the user's files instead of a folder of the platform's.
NAMED_FILES = ("RUN_INSPECTOR_DB", "RUN_INSPECTOR_SETTINGS", "RUN_INSPECTOR_LOG")
#: Companions SQLite keeps beside a database (and a log's rotated copies beside it).
COMPANIONS = ("", "-wal", "-shm", "-journal", ".1")


def _platform_folders() -> list[Path]:
    """The platform's folders for Run Inspector's files and the keyring's, by this process's environment."""
    base = [platformdirs.user_data_path(name, appauthor=False) for name in (APP_NAME, "python_keyring")]
    ours = [getter(APP_NAME, appauthor=False) for getter in (
        platformdirs.user_config_path, platformdirs.user_state_path, platformdirs.user_log_path,
        platformdirs.user_cache_path)]
    return [*base, *ours, platformdirs.user_config_path() / "QtProject.conf"]  # Qt's file dialog's history


def user_places(environ: Mapping[str, str]) -> list[Path]:
    """Where the user's files are by ``environ`` and where a process started without it finds them (no XDG_*:
    under ``environ``'s HOME; no HOME either: the account's home folder); the files RUN_INSPECTOR_* name in
    ``environ`` too. A folder inside another one (Linux's log folder in the state folder) is listed with it."""
    places: list[Path] = []
    homes = [environ.get("HOME", "").strip(), pwd.getpwuid(os.getuid()).pw_dir]
    for seen in (dict(environ), *({"HOME": home} for home in dict.fromkeys(homes) if home)):
        with patch.dict(os.environ, seen, clear=True):
            places += _platform_folders()
    for name in NAMED_FILES:
        if environ.get(name, "").strip():
            named = Path(environ[name]).expanduser()
            places += [named.with_name(named.name + tail) for tail in COMPANIONS]
    unique = list(dict.fromkeys(places))
    return [place for place in unique if not any(place.is_relative_to(other) for other in unique if other != place)]


def _listing(place: Path) -> Listing | None:
    """``place``'s files (one file, or a folder's, all the way down); None when there is nothing. Links are
    followed (each folder walked once): a write through a link to a file or a folder elsewhere is one into the
    user's files all the same."""
    if place.is_file():
        status = place.stat()
        return {"": (status.st_size, status.st_mtime_ns)}
    if not place.is_dir():
        return None
    found: Listing = {}
    walked: set[str] = set()
    for folder, folders, names in os.walk(place, followlinks=True):
        walked.add(os.path.realpath(folder))
        folders[:] = [name for name in folders if os.path.realpath(os.path.join(folder, name)) not in walked]
        for name in names:
            path = Path(folder) / name
            try:
                status = path.stat() if path.exists() else path.lstat()  # a dangling link: the link's own
            except FileNotFoundError:  # gone while listed: the next look says so
                continue
            found[str(path.relative_to(place))] = (status.st_size, status.st_mtime_ns)
    return found


class RealFolders:
    """The user's folders as a test run found them; ``changes`` says what became different since the last look."""

    def __init__(self, places: list[Path]) -> None:
        self.places = places
        self.seen = {place: _listing(place) for place in places}

    @classmethod
    def of(cls, environ: Mapping[str, str]) -> RealFolders:
        return cls(user_places(environ))

    def changes(self) -> list[str]:
        """What was made, changed or removed in the user's folders since the last look (which this is now)."""
        said: list[str] = []
        for place in self.places:
            listed = _listing(place)
            before, now = self.seen[place] or {}, listed or {}
            self.seen[place] = listed
            for name in sorted(before.keys() | now.keys()):
                path = place / name if name else place
                if name not in before:
                    said.append(f"made {path}")
                elif name not in now:
                    said.append(f"removed {path}")
                elif before[name] != now[name]:
                    said.append(f"changed {path}")
        return said


def escaped(changes: list[str]) -> str:
    """The sentence a test (or the run) fails with when it wrote into the user's own folders."""
    return ("Written into the user's own folders, which tests must never reach: " + "; ".join(changes) + ". A "
            "process started with an environment of its own (env={...}, env -i) needs "
            "tests.support.isolation.clean_environment() (or {**os.environ, ...}); if the app itself was used "
            "outside the tests meanwhile, run again.")
