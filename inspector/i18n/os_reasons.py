"""Why the operating system refused a file, a folder or a port, in words of ours.

``OSError.strerror`` is the C library's English ("No such file or directory"), which a German
sentence around it would carry as it is. :func:`os_reason` says the common reasons as a
translatable sentence part; any other is left as the system said it. No I/O.
"""

from __future__ import annotations

import errno
import os
from typing import Protocol

from . import N_
from .messages import Message

_BY_ERRNO: dict[int, str] = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("the operation is not permitted"),
    errno.ENOSPC: N_("no space is left on the device"),
    errno.EDQUOT: N_("the disk quota is used up"),
    errno.EFBIG: N_("the file is too large for its file system or for the limits of this process"),
    errno.EROFS: N_("the file system is read-only"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EEXIST: N_("it exists already"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.ELOOP: N_("too many levels of symbolic links"),
    errno.EMFILE: N_("too many files are open"),
    errno.EADDRINUSE: N_("the address is in use already"),
    errno.EADDRNOTAVAIL: N_("the address cannot be used from this machine"),
}


class SaysWhy(Protocol):
    """An ``OSError``, or what carries one's reason (the MCP client's ``SystemReason``)."""

    errno: int | None
    strerror: str | None


def os_reason(error: SaysWhy) -> Message | str:
    """Our words for ``error``'s reason. A reason of our own making (an ``OSError`` raised with a
    phrase marked for translation, "it is a folder, not a file") is said in the language too; any
    other is the system's own text (or the error's type)."""
    code, said = error.errno, error.strerror
    if code is not None and code in _BY_ERRNO and said == os.strerror(code):
        return Message(_BY_ERRNO[code])
    if said and "{" not in said and "}" not in said:
        return Message(said)  # looked up in the catalogue where it is shown; as it is when not there
    return said or str(error) or type(error).__name__


__all__ = ["SaysWhy", "os_reason"]
