"""Standard output whose reader went away (``run-inspector call … | head -c 10``).

What is left to print goes nowhere, and nothing is said about it on stderr: the reader stopped on
purpose. The exit status stays honest for a script with ``set -o pipefail``: a command whose outcome
was decided before its report was cut short (an operation, an agent run; an import, whose runs are
committed; an export, whose file is written or whose push is done; a note saved) ends with that
outcome's status, a failed call never 0 and an import that stored its runs never 141 (a script would
import the file again); any other command ends as ``cat`` or ``git log`` does when the reader goes,
with 141 (128 + SIGPIPE), since its output was its work and that was not all delivered.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

#: The status of a command whose output was cut short by its reader: a shell's for a SIGPIPE.
EXIT_READER_GONE = 141


def quiet_stdout() -> None:
    """Send what is left of standard output nowhere, so that no later flush fails (and says so)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


@contextlib.contextmanager
def report_of_decided_outcome() -> Iterator[None]:
    """Print, within it, the report of an outcome already decided: a reader that goes away cuts the
    report short, and the command goes on to end with the outcome's status."""
    try:
        yield
        sys.stdout.flush()
    except BrokenPipeError:
        quiet_stdout()
