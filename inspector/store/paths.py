"""Where the run database lives: ``--db``, else ``RUN_INSPECTOR_DB``, else the user data folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import platformdirs

from inspector.i18n import N_
from inspector.i18n.messages import Message
from inspector.i18n.os_reasons import os_reason

from .errors import StoreError

APP_NAME = "run-inspector"
DB_ENV = "RUN_INSPECTOR_DB"
DB_FILENAME = "runs.db"


def default_db_path() -> Path:
    """``runs.db`` in the platform's user data folder (e.g. ``~/.local/share/run-inspector``)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_FILENAME


def resolve_db_path(option: str | os.PathLike[str] | None = None) -> Path:
    """The database to use: the command-line option wins, then the environment, then the default."""
    if option:
        return Path(option).expanduser()
    from_env = os.environ.get(DB_ENV, "").strip()
    if from_env:
        return Path(from_env).expanduser()
    return default_db_path()


def missing_folder(path: str | os.PathLike[str]) -> StoreError | None:
    """The refusal of a database whose folder does not exist, unless that folder is the user data
    folder (made on the first start), or that is a link to a place whose folder does not exist;
    ``None`` when the folder is there or may be made."""
    path = Path(path)
    folder = path.parent
    try:
        if folder.exists() or folder == default_db_path().parent:
            return _dangling_link(path) if path.is_symlink() else None
    except OSError as exc:  # a name too long for the system (Python 3.11's exists() raises it)
        return unusable(path, exc)
    return StoreError(Message(N_("The run database {path} cannot be used: its folder {folder} does not exist. "
                                 "Create the folder, or name another file with --db or RUN_INSPECTOR_DB."),
                              {"path": path, "folder": folder}))


def _dangling_link(path: Path) -> StoreError | None:
    """The refusal of a link (through any links) to a place that does not exist, in a folder that does not
    exist either, where SQLite said only "unable to open database file"; ``None`` when the place's folder
    is there (the database is made at the place, as for a path that is not a link). A loop of links is
    said by :func:`unusable`."""
    try:
        os.stat(path)
    except FileNotFoundError:
        target = Path(os.path.realpath(path))
        if target.parent.exists():
            return None
        return StoreError(Message(N_("The run database {path} is a link to {target}, which does not exist, and "
                                     "its folder {folder} does not exist either. Correct the link, or name another "
                                     "file with --db or RUN_INSPECTOR_DB."),
                                  {"path": path, "target": target, "folder": target.parent}))
    return None


def unusable(path: str | os.PathLike[str], error: OSError) -> StoreError:
    """The refusal of a database path the system cannot even look at (a name too long, a loop of links)."""
    return StoreError(Message(N_("The run database {path} cannot be used: {reason}. Name another file with --db or "
                                 "RUN_INSPECTOR_DB."), {"path": path, "reason": os_reason(error)}))


def special_file(path: str | os.PathLike[str]) -> StoreError | None:
    """The refusal of a database path at a device, a named pipe or a socket (a link followed), where SQLite
    says only "disk I/O error" or, for a device such as /dev/null, opens it and makes its log and index
    files beside it; ``None`` for a regular file, a folder or nothing there (said elsewhere). Nothing is
    opened."""
    try:
        mode = os.stat(path).st_mode
    except OSError:  # not there yet (it is made), or not to be looked at: opening it says why
        return None
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        kind = N_("it is a device, not a regular file")
    elif stat.S_ISFIFO(mode):
        kind = N_("it is a named pipe, not a regular file")
    elif stat.S_ISSOCK(mode):
        kind = N_("it is a socket, not a regular file")
    else:
        return None
    return StoreError(Message(N_("The run database {path} cannot be opened: {reason}. Choose another file with --db "
                                 "or RUN_INSPECTOR_DB."), {"path": path, "reason": Message(kind)}))
