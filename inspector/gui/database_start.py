"""The run database at start-up: opened, or, when it cannot be used, the user asked what to do.

The asking is a callable (``choose``), so that start-up can be driven in tests without a modal
dialog; :func:`ask_with_dialog` is the one the window uses.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from inspector.i18n import N_, _
from inspector.i18n.messages import Message, translate
from inspector.i18n.os_reasons import os_reason
from inspector.store import RunStore, StoreError
from inspector.store.database import LOCK_WAIT_S
from inspector.store.faults import is_read_only, move_aside, read_only, store_fault

from .dialogs.database_choice import DatabaseChoice  # the dialog itself loads only when it is needed

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

#: The user's answer: what to do, and for ``OTHER`` the file chosen (None: not chosen, ask again).
Chooser = Callable[[StoreError, Path], tuple[DatabaseChoice, Path | None]]
Built = TypeVar("Built")

#: How long start-up waits for another program's lock before it asks (the window is not up yet).
START_LOCK_WAIT_S = 2.0


@dataclass(frozen=True)
class OpenedDatabase(Generic[Built]):
    """The store the window works on, where it is, what was built on it, and where a damaged
    database was moved to (None when none was)."""

    store: RunStore
    path: Path
    built: Built
    moved_to: Path | None = None


def open_or_ask(path: Path, choose: Chooser, build: Callable[[RunStore, Path], Built], *,
                lock_wait_s: float = START_LOCK_WAIT_S) -> OpenedDatabase[Built] | None:
    """Open the store at ``path`` and ``build`` on it (the window reads the database as it is
    made, which is where damaged pages may show); ask ``choose`` while that fails. ``None``: the
    user chose to quit. Once open, the store waits the usual time for locks again."""
    moved_to: Path | None = None
    problem: StoreError | None = None
    while True:
        if problem is None:
            try:
                store = RunStore.open(path, lock_wait_s)
            except StoreError as exc:
                problem = exc
            else:
                store.set_lock_wait(LOCK_WAIT_S)
                try:
                    return OpenedDatabase(store, path, build(store, path), moved_to)
                except sqlite3.DatabaseError as exc:
                    store.close()
                    # A read-only file opens, and is met at the first write (the demo server's entry).
                    problem = store_fault(path, exc) or (read_only(path, exc) if is_read_only(exc) else None)
                    if problem is None:
                        raise
        # Said on stderr too, for whoever started the window from a terminal.
        print(f"run-inspector: {translate(problem)}", file=sys.stderr)
        choice, other = choose(problem, path)
        problem = None
        if choice is DatabaseChoice.QUIT:
            return None
        if choice is DatabaseChoice.MOVE_ASIDE:
            try:
                moved_to = move_aside(path)
            except OSError as exc:
                problem = StoreError(Message(N_("The run database {path} could not be moved aside: {reason}. Move "
                                                "or rename it yourself, or open another database."),
                                             {"path": path, "reason": os_reason(exc)}))
        elif choice is DatabaseChoice.OTHER and other is not None:
            path = other


def moved_aside_note(moved_to: Path) -> str:
    """What the window says once a damaged database was moved aside."""
    return _("Started with a fresh run database; the damaged one was moved aside to {path}.").format(path=moved_to)


def say_damaged_log(window: QWidget, path: Path, store: RunStore) -> None:
    """A write-ahead log found damaged as the database opened (its copy kept): said in a box over the shown
    window, and on stderr for whoever started the window from a terminal."""
    damage = store.db.log_damage
    if damage is None:
        return
    from inspector.store.wal_damage import damaged_log_sentence

    from .widgets.notice_box import notice_box

    notice_box(window, _("Run Inspector: run database"), translate(damaged_log_sentence(path, damage)), "damaged-log")


def ask_with_dialog(problem: StoreError, path: Path, settings_path: Path | None = None) -> tuple[DatabaseChoice,
                                                                                              Path | None]:
    """The window's chooser: the problem dialog, then a file dialog for another database. ``settings_path``:
    the run database the settings name, when they chose the one opened (the dialog then says where)."""
    from PySide6.QtWidgets import QFileDialog

    from .dialogs.database_dialog import DatabaseProblemDialog

    dialog = DatabaseProblemDialog(problem, path, from_settings=settings_path == path)
    dialog.exec()
    if dialog.choice is not DatabaseChoice.OTHER:
        return dialog.choice, None
    # An existing database or a new file: no "replace?" question, nothing is overwritten.
    chosen, _filter = QFileDialog.getSaveFileName(
        None, _("Open another run database"), str(path.parent),
        _("Run databases (*.db);;All files (*)"), options=QFileDialog.Option.DontConfirmOverwrite)
    return DatabaseChoice.OTHER, Path(chosen) if chosen else None


__all__ = ["Chooser", "OpenedDatabase", "ask_with_dialog", "moved_aside_note", "open_or_ask", "say_damaged_log"]
