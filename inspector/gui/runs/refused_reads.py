"""Reads on the window's thread that the run database refuses (damaged or locked since the window opened it):
what could not be read stays empty, and the tab's status line is told once why, in the current language."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from inspector.i18n.messages import translate
from inspector.store import RunStore
from inspector.store.errors import StoreError
from inspector.store.faults import unreadable

from ..widgets.background_reads import database_file

#: What a read of the run database raises when the file is damaged, locked or gone.
READ_ERRORS = (sqlite3.Error, StoreError)


def refusal(store: RunStore, error: BaseException) -> StoreError:
    """The store's sentence for a read of ``store`` that failed (which file, what is wrong, what to do)."""
    return unreadable(database_file(store), error)


class ReadRefusals:
    """Says once (until :meth:`again`) that a read was refused: ``sentence`` is called in the current language
    with the problem's words (``{problem}``); ``tell`` gets that as a callable, for the status line."""

    def __init__(self, store: RunStore, sentence: Callable[[str], str],
                 tell: Callable[[Callable[[], str]], None]) -> None:
        self.store, self._sentence, self._tell = store, sentence, tell
        self._said = False

    @property
    def said(self) -> bool:
        """A read was refused (and said) since :meth:`again`."""
        return self._said

    def refuse(self, error: BaseException) -> None:
        if self._said:
            return
        self._said = True
        problem = refusal(self.store, error)
        self._tell(lambda: self._sentence(translate(problem)))

    def again(self) -> None:
        """Something new is read (another list, another run): a refusal of it is said again."""
        self._said = False


__all__ = ["READ_ERRORS", "ReadRefusals", "refusal"]
