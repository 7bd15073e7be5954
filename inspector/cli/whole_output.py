"""Standard output written whole, or failing with the reason it could not be.

Unbuffered (``PYTHONUNBUFFERED=1``, ``python -u``), Python's text layer writes straight to the file
descriptor and takes no notice of a short write: ``runs list --json > /mnt/nearly-full/out.json`` wrote
the first 4,096 bytes of 7,589 (what the disk had left), said nothing and ended with status 0. Buffered,
Python writes the rest after a short write, and the full disk's error ends the command (its sentence
in :mod:`.app`). :func:`whole_stdout` gives the unbuffered output the same: a short write is followed
by a write of the rest, which fails with the disk's reason (ENOSPC, EFBIG) or a reader's going (EPIPE).
Standard library only, as :mod:`.ending` is.
"""

from __future__ import annotations

import io
import select
import sys
from typing import Any

#: As Python makes its own standard output: "\n" kept as it is, but written as "\r\n" on Windows (``None``).
_NEWLINE = None if sys.platform == "win32" else "\n"


class _WrittenWhole(io.FileIO):
    """A file descriptor each write of which is written whole, or raises why it cannot be."""

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            written = super().write(view[done:])
            if written is None:  # a descriptor that does not block, full for now: wait until it takes more
                select.select([], [self], [])
                continue
            done += written
        return done


def whole_stdout() -> None:
    """Make unbuffered standard output write whole (see the module's words); buffered output, or one that is
    not a file (a test's StringIO), is left as it is."""
    stream = sys.stdout
    raw = getattr(stream, "buffer", None)
    if type(raw) is not io.FileIO or not isinstance(stream, io.TextIOWrapper):
        return
    whole = _WrittenWhole(raw.fileno(), "wb", closefd=False)
    sys.stdout = io.TextIOWrapper(whole, encoding=stream.encoding, errors=stream.errors, newline=_NEWLINE,
                                  line_buffering=stream.line_buffering, write_through=True)
