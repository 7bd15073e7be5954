"""Mixed into :class:`.timeline_model.TimelineModel`: a run's shape read from the store, that is its span
tree (read once; a run of more than :data:`~.tree_layout.AT_ONCE_STEPS` steps laid out on a reader thread),
its rows' count, its span and whether it has rounds; or, where the database refuses the read, that it could not
be counted (its heading says so, not "0 steps")."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.store import RunRecord, StoreError
from inspector.store.browse import TRACE_RUN_UID_PREFIX, StepFilter, count_timeline, run_span
from inspector.store.joined import has_joined_spans

from .refused_reads import READ_ERRORS, ReadRefusals
from .span_tree import SpanTree, TreeRows
from .tree_layout import AT_ONCE_STEPS, LaidOut, LayoutQuestion, TreeLayouts, lay_out

if TYPE_CHECKING:
    from inspector.store import RunStore


class RunShape:
    """What :class:`.timeline_model.TimelineModel` reads of a run before its rows: it keeps ``store``,
    ``filter``, ``show_plumbing``, ``span_trees``, ``tree``, ``laying_out``, ``run_id``, the laid-out cache
    (``_tree_cache``, ``_laid_out``, ``_layouts``), its ``refusals`` and its ``laid_out`` and ``not_laid_out``
    signals."""

    store: RunStore
    refusals: ReadRefusals
    #: The run shown could not be counted (the database refused the read): it shows no rows, and how many steps
    #: it has is unknown, not 0.
    uncounted = False

    def _read_shape(self, run: RunRecord, laid_out: LaidOut | None, keep: set[int]) -> None:
        """:meth:`_read_run`; where the database refuses it, no rows, said once (nothing raises in Qt's event
        loop), and the run :attr:`uncounted`."""
        self.uncounted = False
        try:
            self._read_run(run, laid_out, keep)
        except READ_ERRORS as error:
            self.tree, self.laying_out, self._count, self.start, self.end = None, 0, 0, None, None
            self.uncounted = True
            self.refusals.refuse(error)

    def _read_run(self, run: RunRecord, laid_out: LaidOut | None, keep: set[int]) -> None:
        """Read ``run``'s shape: its span tree (if it has one), its rows' count, its span, whether it has rounds."""
        from_trace = run.uid.startswith(TRACE_RUN_UID_PREFIX)
        if self.span_trees and (from_trace or has_joined_spans(self.store, run.id)):
            tree = self._span_tree(run.id, None if from_trace else run.uid)
            if laid_out is not None and laid_out.tree is tree and tree.nested:
                self.tree = laid_out.rows_for(self.filter, self.show_plumbing, keep)
            if tree is not None and tree.nested and self.tree is None:
                self.tree = TreeRows(tree, self.filter, self.show_plumbing, keep)
        self._count = 0 if self.laying_out else len(self.tree.rows) if self.tree is not None else count_timeline(
            self.store, run.id, self.filter)
        self.start, self.end = run_span(self.store, run)
        # A run of one operation (a call, a tool list) has no rounds: "–", as the command line says.
        self.has_rounds = self.store.has_rounds(run.id)

    def lay_out_on_thread(self, db_path: Path) -> None:
        """Lay the span trees of runs of more than :data:`AT_ONCE_STEPS` steps out on a reader thread."""
        self._layouts = TreeLayouts(db_path, self)
        self._layouts.laid_out.connect(self._arrived)
        self._layouts.refused.connect(self._not_laid_out)

    def stop_layouts(self) -> None:
        """The database closes next: a layout under way is broken off."""
        if self._layouts is not None:
            self._layouts.stop()

    def _arrived(self, asked: tuple[LayoutQuestion, StepFilter, bool], laid_out: LaidOut) -> None:
        if self.laying_out and asked[0][0][0] == self.run_id:
            self._tree_cache, self._laid_out = (asked[0][0], laid_out.tree), laid_out
            self.laid_out.emit()

    def _not_laid_out(self, asked: tuple[LayoutQuestion, StepFilter, bool], problem: StoreError) -> None:
        """The reader could not read the run's spans: no rows, the run :attr:`uncounted` (said once, as a read here
        that fails)."""
        if self.laying_out and asked[0][0][0] == self.run_id:
            self.beginResetModel()
            self.laying_out, self.uncounted = 0, True
            self.endResetModel()
            self.refusals.refuse(problem)
            self.not_laid_out.emit()

    def _span_tree(self, run_id: int, ours: str | None = None) -> SpanTree | None:
        """The run's span tree, read once: a filter or the plumbing toggle lays out the same tree anew.
        ``ours``: the uid of a run of ours that a server's spans joined (its steps' spans are derived).
        ``None`` while a long run's tree is laid out on the reader thread (:attr:`laying_out`)."""
        # The run's steps as counted now (a run deleted and its id given again has other step ids).
        signature = self.store.db.conn.execute("SELECT ?, COUNT(*), MAX(id) FROM steps WHERE run_id = ?",
                                               (run_id, run_id)).fetchone()
        cached = self._tree_cache
        if cached is None or cached[0] != signature:
            if self._layouts is not None and signature[1] > AT_ONCE_STEPS:
                self.laying_out = signature[1]
                self._layouts.ask((signature, ours), self.filter, self.show_plumbing)
                return None
            cached = self._tree_cache = (signature, lay_out(self.store, (signature, ours)))
        return cached[1]


__all__ = ["RunShape"]
