"""The widths the user's hand gave a table's columns (dragging a heading's edge), kept where the columns are fitted
to their words again: the timeline's Kind, Duration, Time and Outcome columns were fitted anew for each run shown,
and a column the user had widened went back to its words' width at the next run."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QHeaderView


class HandWidths(QObject):
    """Watches ``header``: a section of ``columns`` resized while neither its owner (:meth:`owning`) nor ``busy()``
    (a fit of the owner's helpers) sets widths was resized by the user's hand; :meth:`least` keeps that width."""

    def __init__(self, header: QHeaderView, columns: Collection[int], busy: Callable[[], bool]) -> None:
        super().__init__(header)
        self._columns, self._busy = frozenset(columns), busy
        self._owning = False
        #: Each column's width as the user's hand last left it.
        self.widths: dict[int, int] = {}
        header.sectionResized.connect(self._resized)

    @contextmanager
    def owning(self) -> Iterator[None]:
        """Widths set while this lasts are the owner's (fitted to words, a column hidden or shown)."""
        self._owning, before = True, self._owning
        try:
            yield
        finally:
            self._owning = before

    def least(self, column: int, least: int) -> int:
        """``column``'s least width: ``least``, or the width the user gave it where that is more (a column is never
        narrower than its words: narrowed by hand, it is fitted to them again)."""
        return max(least, self.widths.get(column, 0))

    def _resized(self, column: int, _old: int, new: int) -> None:
        if column in self._columns and new > 0 and not self._owning and not self._busy():
            self.widths[column] = new


__all__ = ["HandWidths"]
