"""Settings that could not be saved (a read-only file or folder, a folder that is a file): QSettings keeps
them in memory and says only ``AccessError``, so the window went on as if they were saved, and the next
start came up with the old ones. After File › Settings… the window says why, from a check made as Qt
writes (the file opened for writing, a new file beside it)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from inspector.i18n import _
from inspector.i18n.messages import translate
from inspector.i18n.os_reasons import os_reason


def unwritable(path: Path) -> OSError | None:
    """Why the settings file at ``path`` cannot be written, ``None`` when nothing stops it now. Qt writes a
    new file beside it and renames it over the old one, refusing an old one it cannot write: both are
    tried, and nothing is written (the new file is nameless and goes when closed)."""
    try:
        if path.exists():
            os.close(os.open(path, os.O_WRONLY))
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError as exc:
        return exc
    return None


def unsaved_settings_note(qsettings: QSettings) -> str | None:
    """The sentence for settings :meth:`QSettings.sync` could not write, ``None`` when they were written.
    Qt's status keeps its first error for good, so the file is looked at again: one made writable since
    is not named."""
    if qsettings.status() != QSettings.Status.AccessError:
        return None
    path = Path(qsettings.fileName())
    error = unwritable(path)
    if error is None:
        return None
    return _("The settings could not be saved to {path}: {reason}. They apply until Run Inspector closes; "
             "make the file and its folder writable, then choose them again in File › Settings… to keep "
             "them.").format(path=path, reason=translate(os_reason(error)))


__all__ = ["unsaved_settings_note", "unwritable"]
