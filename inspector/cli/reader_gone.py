"""Standard output whose reader went away (``run-inspector call … | head -c 10``).

What is left to print goes nowhere, and nothing is said about it on stderr: the reader stopped on
purpose. The exit status stays honest for a script with ``set -o pipefail``. A command whose output is
its work (``runs list``, ``runs show``, ``servers``, ``compare``, ``scenario --list``, ``--help``,
``--version``: it only prints, whether much or little: a short output's reader is found gone when it is
flushed) ends as ``cat`` or ``git log`` does when the reader goes, with 141 (128 + SIGPIPE), since that work was not all
delivered. Every other command's outcome is not its output (an operation, an agent run; an import, whose
runs are committed; an export, whose file is written or whose push is done; a note, a server, a sign-in
saved; a server that serves, a proxy or a receiver that records): within :func:`outcome_not_output` a
reader that goes away stops nothing, and the command ends with its outcome's status, a failed call never
0 and a saved server or stored import never 141 (a script would do it again). A watch
(``resources subscribe``) asks :func:`reader_went_away` and ends as a Ctrl-C ends it.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

#: The status of a command whose output was cut short by its reader: a shell's for a SIGPIPE.
EXIT_READER_GONE = 141

#: ``(command, sub-command)`` of the commands whose output is their work (``None``: the command alone; ``--list``:
#: the option that makes it list what there is, and do nothing else).
OUTPUT_IS_THE_WORK = frozenset({("runs", "list"), ("runs", "show"), ("servers", None), ("compare", None),
                                ("scenario", "--list")})


def quiet_stdout() -> None:
    """Send what is left of standard output nowhere, so that no later flush fails (and says so)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class _KeptOutput:
    """Standard output of a command whose outcome is not its output: a write or flush that finds the reader
    gone is noted and sends the rest nowhere; the command goes on. Anything else is the stream's own."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except BrokenPipeError:
            self._went()
            return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except BrokenPipeError:
            self._went()

    def _went(self) -> None:
        self.gone = True
        quiet_stdout()
        with contextlib.suppress(OSError, ValueError):
            self.stream.flush()  # what the failed write left in the buffer goes nowhere too

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def output_is_the_work(command: str | None, sub_command: str | None) -> bool:
    return (command, sub_command) in OUTPUT_IS_THE_WORK


@contextlib.contextmanager
def outcome_not_output() -> Iterator[None]:
    """Within it, standard output's reader going away stops nothing (see the module's words)."""
    kept = _KeptOutput(sys.stdout)
    sys.stdout = kept  # type: ignore[assignment]
    try:
        yield
    finally:
        if sys.stdout is kept:  # what is left in its buffer is written as the process ends (cli.process)
            sys.stdout = kept.stream


def reader_went_away() -> bool:
    """Whether standard output's reader went away within :func:`outcome_not_output`."""
    return isinstance(sys.stdout, _KeptOutput) and sys.stdout.gone


def said_whatever_the_reader(say: Any, *args: Any) -> None:
    """``say(*args)``: an ending's words on standard output, written or, its reader gone, sent nowhere."""
    try:
        say(*args)
    except BrokenPipeError:
        quiet_stdout()
