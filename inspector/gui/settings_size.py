"""A settings file too large to be settings (a few kilobytes is usual) is not read: Qt reads a settings
file whole into memory as it opens it (a 200 MB file took the window to 760 MB at start) and writes it
whole again on each setting saved. Nor is one that is no file (a folder, a named pipe, a device such as
/dev/zero): Qt waited at start for a pipe's writer for ever (the window never came), and found a folder
unwritable, saving nothing without a word. The window then runs with its defaults in a stand-in file of
its own, and the user's file is left exactly as it is (nothing is saved over it); the settings box says so."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from inspector.i18n import _
from inspector.i18n.formatting import format_size

#: The largest settings file read. The window's own writes stay far below it: remembered arguments
#: are at most :data:`MAX_REMEMBERED_ARGUMENTS_CHARS` a tool.
MAX_SETTINGS_BYTES = 4_000_000
#: The longest arguments (as JSON) remembered for a tool; longer ones are pasted data, not retyped.
MAX_REMEMBERED_ARGUMENTS_CHARS = 64_000

_stand_in: tempfile.TemporaryDirectory[str] | None = None


def oversized(path: Path) -> int | None:
    """The size of the file at ``path`` when it is larger than :data:`MAX_SETTINGS_BYTES`, else ``None``."""
    try:
        size = path.stat().st_size
    except OSError:  # missing (the usual first start) or not to be looked at: Qt finds out as before
        return None
    return size if size > MAX_SETTINGS_BYTES else None


def not_a_file(path: Path) -> bool:
    """True when something is at ``path`` (a link followed) that is no regular file: a folder, a named pipe,
    a socket or a device. Nothing is opened (opening a pipe waits for its writer)."""
    try:
        mode = path.stat().st_mode
    except OSError:  # missing (the usual first start): Qt makes it when a setting is saved
        return False
    return not stat.S_ISREG(mode)


def user_settings_file(organization: str, application: str) -> Path:
    """Where Qt keeps the user's INI settings of ``application``, found without opening that file (Qt
    reads a file whole as it opens it): the path of a name beside it that holds no settings."""
    probe = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, organization,
                      f"{application} (size check)")
    return Path(probe.fileName()).with_name(f"{application}.ini")


def stand_in_settings() -> QSettings:
    """Settings for this session only, in a folder of its own removed when the process ends: every
    caller gets the same file, so what is chosen now holds until the window closes."""
    global _stand_in
    if _stand_in is None:
        _stand_in = tempfile.TemporaryDirectory(prefix="run-inspector-settings-")
    return QSettings(os.path.join(_stand_in.name, "settings.ini"), QSettings.Format.IniFormat)


def not_a_file_note(path: Path) -> str:
    """What the window says of a settings file :func:`not_a_file` found to be no file."""
    return _("The settings file {path} is not a file (a folder, a pipe or a device), so it was not read and the "
             "defaults apply. It is left as it is: settings chosen now hold until the window closes and are not "
             "saved. Move it away to have settings saved again.").format(path=path)


def oversized_settings_note(path: Path, size: int) -> str:
    """What the window says of a settings file :func:`oversized` found too large."""
    return _("The settings file {path} is {size}, too large to be settings (at most {most}), so it was not read "
             "and the defaults apply. The file is left as it is: settings chosen now hold until the window "
             "closes and are not saved. Move the file away or delete it to have settings saved again.").format(
        path=path, size=format_size(size), most=format_size(MAX_SETTINGS_BYTES))
