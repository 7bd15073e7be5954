"""An operation's run the database did not take (another program's lock, a full disk, a read-only file),
kept in a side file instead, as the command line keeps it: never dropped, and the window says where."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from inspector.i18n import _
from inspector.i18n.messages import shown_reason
from inspector.i18n.os_reasons import os_reason
from inspector.store import RunStore, StoreError
from inspector.store.browse import drop_empty_run
from inspector.store.faults import database_file, is_lock

if TYPE_CHECKING:
    from inspector.agent import OperationRecord


def kept_aside(store: RunStore, run_id: int | None, title: str, server_url: str, record: OperationRecord,
               uid: str | None, error: BaseException, steps: Sequence[OperationRecord] = ()) -> str:
    """Save ``record`` (with ``steps``: the run's steps in their order, the sign-ins it waited for among them)
    as a one-run trace file beside the database (else in the temporary folder) and say where; the run's first
    row (``run_id``) is removed, or at least finished, unless a lock keeps it (the import then replaces it:
    same uid)."""
    path = database_file(store.db.conn)
    if run_id is not None and not is_lock(error):
        try:
            if not drop_empty_run(store, run_id):
                store.finish_run(run_id, record.status)
        except (sqlite3.Error, StoreError):
            pass  # a later opening marks the row interrupted
    # Here, not at the module's top: the transfer package (importing, exporting) is not loaded before the
    # window's first paint (tests/gui/test_window_imports.py), and is needed only when a store fails.
    from inspector.transfer.side_files import save_side_file

    try:
        side_file = save_side_file(path, title, server_url, record, uid, steps)
    except OSError as exc:
        return _("The run could not be stored in {path} ({reason}), and it could not be written to a file either "
                 "({file_reason}); it is lost.").format(path=path, reason=shown_reason(error),
                                                        file_reason=shown_reason(os_reason(exc)))
    return _("The run could not be stored in {path} ({reason}): it was written to {file} instead; File › Open trace… "
             "adds it to the database later.").format(path=path, reason=shown_reason(error), file=side_file)


__all__ = ["kept_aside"]
