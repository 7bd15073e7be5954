"""Where ``export -o FILE`` may write: a file that is there already is kept unless ``--force`` says to replace
it. It may be what the user had: the customer's trace they imported, a colleague's export."""

from __future__ import annotations

from pathlib import Path

from inspector.i18n import N_
from inspector.i18n.messages import NP_, Message
from inspector.store import RunStore
from inspector.store.imported_from import runs_imported_from
from inspector.traces.writer import existing_mode, written_at

from .common import BadInputError

SHOWN_IDS = 10
"""Of more runs imported from a file of the name, the first this many are named."""


def keep_existing(store: RunStore, output: str, force: bool) -> None:
    """Refuse to write over a regular file at ``output`` (a link's file) unless ``force``, naming the file, the
    option, and the runs imported from a file of that name. A folder, a device or a pipe there is left to the
    export, which says why it cannot write there."""
    written = written_at(Path(output))
    try:
        there = existing_mode(written) is not None
    except OSError:
        return
    if not there or force:
        return
    # (a link's own name too: the runs may have been imported through it)
    runs = runs_imported_from(store, written.name) or runs_imported_from(store, Path(output).name)
    if not runs:
        raise BadInputError(Message(N_("{path} is there already: export does not write over a file. Give -o another "
                                       "file name, or add --force to replace it."), {"path": output}))
    ids = ", ".join(map(str, runs[:SHOWN_IDS])) + (" …" if len(runs) > SHOWN_IDS else "")
    raise BadInputError(NP_(
        "{path} is there already, and run {ids} was imported from a file of that name: it may be the trace you were "
        "sent. export does not write over a file. Give -o another file name, or add --force to replace it.",
        "{path} is there already, and runs {ids} were imported from a file of that name: it may be the trace you were "
        "sent. export does not write over a file. Give -o another file name, or add --force to replace it.",
        {"path": output, "ids": ids, "count": len(runs)}, "count"))


__all__ = ["keep_existing"]
