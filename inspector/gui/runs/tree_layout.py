"""A long run's span tree laid out on a reader thread (issue 23).

Before its first row, a run imported from a trace with nested spans needs its span tree, which reads every
step's span id and parent: a second for 100,000 steps, fourteen for 1,000,000. A run of more than
:data:`AT_ONCE_STEPS` steps is laid out on a :class:`~..widgets.last_asked.LastAsked` reader thread while the
window goes on (the timeline says "Laying out N steps…"); a smaller one at once, so that nothing flickers.
Only the run shown last gets its tree: another run chosen meanwhile drops the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from inspector.store import RunStore
from inspector.store.browse import StepFilter, span_nodes
from inspector.store.joined import our_span_nodes

from ..widgets.last_asked import LastAsked
from .span_tree import SpanTree, TreeRows

#: A run of at most this many steps lays its span tree out on the GUI thread (6,000 steps: 75-87 ms at load 5).
AT_ONCE_STEPS = 5_000

#: What a layout is asked: the run's steps as counted (its id, their count, the last step's id) and,
#: for a run of ours that a server's spans joined, its uid (``None``: a run from a trace).
LayoutQuestion = tuple[tuple[int, int, int], str | None]


def lay_out(store: RunStore, question: LayoutQuestion) -> SpanTree:
    """The span tree of the run ``question`` names, read from ``store``."""
    (run_id, _count, _last), ours = question
    return SpanTree(span_nodes(store, run_id) if ours is None else our_span_nodes(store, run_id, ours))


@dataclass(frozen=True)
class LaidOut:
    """A long run's span tree and its rows as the filter and the plumbing toggle asked for them then
    (``rows``: ``None`` for a tree that does not nest, shown in time order)."""

    tree: SpanTree
    where: StepFilter
    show_plumbing: bool
    rows: TreeRows | None

    def rows_for(self, where: StepFilter, show_plumbing: bool, collapsed: set[int]) -> TreeRows | None:
        """The rows laid out already, if they are the ones asked for now (else ``None``: lay them out)."""
        if (where, show_plumbing, collapsed) == (self.where, self.show_plumbing, set()):
            return self.rows
        return None


def _lay_out_rows(store: RunStore, asked: tuple[LayoutQuestion, StepFilter, bool]) -> LaidOut:
    question, where, show_plumbing = asked
    tree = lay_out(store, question)
    return LaidOut(tree, where, show_plumbing, TreeRows(tree, where, show_plumbing) if tree.nested else None)


class TreeLayouts(QObject):
    """Lays long runs' span trees and rows out on a reader thread; ``laid_out((question, filter, plumbing),
    LaidOut)`` for the one asked last, ``refused((question, filter, plumbing), StoreError)`` where its read failed
    (a damaged or locked database)."""

    laid_out = Signal(object, object)
    refused = Signal(object, object)

    def __init__(self, db_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._asked = LastAsked(db_path, _lay_out_rows, "layout", self)
        self._asked.found.connect(self.laid_out)
        self._asked.failed.connect(self.refused)

    def ask(self, question: LayoutQuestion, where: StepFilter, show_plumbing: bool) -> None:
        """Lay this run out (asked again while under way: the layout under way goes on; its rows are
        laid out again on the GUI thread if the filter or the toggle changed meanwhile)."""
        pending = self._asked.pending
        if pending is None or pending[0] != question:
            self._asked.ask((question, where, show_plumbing))

    def forget(self) -> None:
        """Another run (or none) is shown: the layout asked for is no longer wanted."""
        self._asked.forget()

    def stop(self) -> None:
        """The window closes: the layout under way is broken off, the reader ends."""
        self._asked.break_off()


__all__ = ["AT_ONCE_STEPS", "LaidOut", "TreeLayouts", "lay_out"]
