"""The live progress line: what the server says while an operation runs, on a terminal.

One line on standard error, rewritten in place with each ``notifications/progress`` (the leg,
the time spent, the budget left, the server's progress and message), and cleared when the
operation ends, so that the result is printed on a clean terminal. Only on a terminal: a
redirected standard error never sees carriage returns or escape sequences.
"""

from __future__ import annotations

import io
import os
import shutil
from typing import TextIO

from inspector.mcp import NullObserver, OperationFinished, ProgressSeen

from .common import safe

#: Carriage return, then erase the whole line (ECMA-48 EL 2).
CLEAR_LINE = "\r\x1b[2K"


def progress_text(report: ProgressSeen) -> str:
    """The line's words for one progress report (without any terminal control)."""
    if report.total is not None:
        amount = "{progress:g} of {total:g}".format(progress=report.progress, total=report.total)
    else:
        amount = "{progress:g}".format(progress=report.progress)
    text = ("{leg}: {elapsed:.1f} s spent, {remaining:.1f} s of the budget left; progress {amount}"
            .format(leg=report.method, elapsed=report.at_ms / 1000, remaining=report.remaining_s, amount=amount))
    if report.message:
        text += ": {message}".format(message=report.message)
    return text


class LiveProgressLine(NullObserver):
    """An observer that keeps one updating progress line on ``stream`` (a terminal)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._shown = False

    def progress(self, report: ProgressSeen) -> None:
        self.say(progress_text(report))

    def say(self, text: str) -> None:
        """Show ``text`` as the line (a wait that has no progress of its own to show: a run that plays)."""
        width = _width(self._stream)
        text = safe(text)
        if len(text) > width:  # one line: a wrapped line could not be rewritten in place
            text = text[:width - 1] + "…"
        self._write(CLEAR_LINE + text)
        self._shown = True

    def operation_finished(self, report: OperationFinished) -> None:
        self.clear()

    def clear(self) -> None:
        """Remove the line, if one is shown."""
        if self._shown:
            self._write(CLEAR_LINE)
            self._shown = False

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):  # a closed terminal must not fail the operation
            pass


def _width(stream: TextIO) -> int:
    """Columns for the line on ``stream``'s own terminal (one less, so it never wraps)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        columns = 0
    if columns <= 0:  # not a terminal, or one that does not say (a fresh pseudo-terminal)
        columns = shutil.get_terminal_size().columns
    return max(20, columns - 1)


def live_progress_line(stream: TextIO) -> LiveProgressLine | None:
    """The live line for ``stream`` when it is a terminal, else ``None``."""
    try:
        return LiveProgressLine(stream) if stream.isatty() else None
    except (AttributeError, ValueError):
        return None
