"""Where the run database lives: ``--db``, else ``RUN_INSPECTOR_DB``, else the user data folder."""

from __future__ import annotations

import os
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
    folder (made on the first start); ``None`` when the folder is there or may be made."""
    path = Path(path)
    folder = path.parent
    try:
        if folder.exists() or folder == default_db_path().parent:
            return None
    except OSError as exc:  # a name too long for the system (Python 3.11's exists() raises it)
        return unusable(path, exc)
    return StoreError(Message(N_("The run database {path} cannot be used: its folder {folder} does not exist. "
                                 "Create the folder, or name another file with --db or RUN_INSPECTOR_DB."),
                              {"path": path, "folder": folder}))


def unusable(path: str | os.PathLike[str], error: OSError) -> StoreError:
    """The refusal of a database path the system cannot even look at (a name too long, a loop of links)."""
    return StoreError(Message(N_("The run database {path} cannot be used: {reason}. Name another file with --db or "
                                 "RUN_INSPECTOR_DB."), {"path": path, "reason": os_reason(error)}))
