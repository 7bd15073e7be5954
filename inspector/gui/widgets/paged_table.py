"""A table view over a model read in pages from the run database (a run's steps): without Qt's
type-ahead search, which looks for the letters typed in the first cell of every row, from the current
one to the end and round again. Each row it asked for read its page from SQLite and said its cell in
Python: a letter typed in the timeline of a 10,000-step run froze the window for 0.5-1 s, of a
100,000-step run for 7-10 s, and it found nothing a user looks for (the first column is the time).
Find in the run (Ctrl+F) is the search."""

from __future__ import annotations

from PySide6.QtWidgets import QTableView


class PagedTableView(QTableView):
    """A :class:`QTableView` whose typed letters search nothing (see the module's docstring)."""

    def keyboardSearch(self, search: str) -> None:  # noqa: N802
        """Nothing: the rows are not walked for ``search``."""


__all__ = ["PagedTableView"]
