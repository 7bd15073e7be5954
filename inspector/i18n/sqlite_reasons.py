"""Why SQLite refused, in words of ours.

``str()`` of a ``sqlite3.Error`` is SQLite's own English ("file is not a database"), which a German
sentence around it carried as it is. :func:`sqlite_reason` says SQLite's common reasons as a
translatable sentence part, whose English is SQLite's text byte for byte (``--json`` and stored
sentences are unchanged); any other text is left as SQLite said it. No SQLite here: the text is read.
"""

from __future__ import annotations

from typing import Any

from . import N_
from .messages import Message

#: SQLite's own words for its common result codes (``sqlite3_errstr``), as the messages' English.
_KNOWN = frozenset({
    N_("file is not a database"),
    N_("database disk image is malformed"),
    N_("database is locked"),
    N_("database table is locked"),
    N_("attempt to write a readonly database"),
    N_("database or disk is full"),
    N_("disk I/O error"),
    N_("unable to open database file"),
    N_("out of memory"),
    N_("access permission denied"),
    N_("string or blob too big"),
    N_("locking protocol"),
    N_("database schema has changed"),
})


def sqlite_reason(error: Any) -> Message | str:
    """Our words for SQLite's ``error`` (an exception, or its text): a reason SQLite gives often is said
    in the current language where it is shown; any other is SQLite's text as it is."""
    text = str(error)
    return Message(text) if text in _KNOWN else text


__all__ = ["sqlite_reason"]
