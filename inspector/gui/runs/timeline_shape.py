"""Mixed into :class:`.timeline_model.TimelineModel`: a run's shape read from the store, that is its span
tree (read once; a run of more than :data:`~.tree_layout.AT_ONCE_STEPS` steps laid out on a reader thread),
its rows' count, its span and whether it has rounds; or, where the database refuses the read, that it could not
be counted (its heading says so, not "0 steps"). A long run shown as a span tree that grows (a running run of ours
that a server's spans joined) is laid out anew on the reader thread while its rows stay: ``relaid_out`` says when
the new rows can take their place."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from inspector.store import RunRecord, StoreError
from inspector.store.browse import TRACE_RUN_UID_PREFIX, StepFilter, count_timeline, run_span
from inspector.store.failure_kinds import failures_in_run
from inspector.store.joined import has_joined_spans
from inspector.store.longest_steps import longest_steps

from .refused_reads import READ_ERRORS, ReadRefusals
from .span_tree import SpanTree, TreeRows
from .tree_layout import AT_ONCE_STEPS, LaidOut, LayoutQuestion, TreeLayouts, lay_out

if TYPE_CHECKING:
    from inspector.store import RunStore

    from .column_words import ColumnWords
    from .said_outcomes import SaidOutcomes

#: The longest run whose steps' kinds and longest durations are read with its shape, for its columns' words before
#: their rows are read (:func:`~inspector.store.longest_steps.longest_steps`, each step's row read: 2 to 11 ms for
#: 5,000 steps, 16 to 30 for 10,000, 200 to 230 for 100,000, load 7; the kinds of failure of 1,250 failed calls
#: among 5,000 steps 17 to 28 ms more); a longer run's columns widen as its pages are read.
WORDS_AHEAD_STEPS = 5_000


class RunShape:
    """What :class:`.timeline_model.TimelineModel` reads of a run before its rows: it keeps ``store``,
    ``filter``, ``show_plumbing``, ``span_trees``, ``tree``, ``laying_out``, ``run_id``, ``page_size``, its
    ``column_words`` and ``said_outcomes`` (told a run's kinds, longest steps and kinds of failure ahead of its
    rows), the laid-out cache (``_tree_cache``, ``_laid_out``, ``_layouts``), its ``refusals`` and its
    ``laid_out`` and ``not_laid_out`` signals."""

    store: RunStore
    refusals: ReadRefusals
    column_words: ColumnWords
    said_outcomes: SaidOutcomes
    page_size: int
    #: The run shown could not be counted (the database refused the read): it shows no rows, and how many steps
    #: it has is unknown, not 0.
    uncounted = False
    #: The span tree shown is laid out anew on the reader thread (its run grew): its rows stay until it arrives.
    relaying = False

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
            cached = self._tree_cache
            # The tree just laid out is taken as it is: a run that grew meanwhile is laid out again at its next
            # growth (asked again now, a run growing faster than it is laid out never showed its rows).
            tree = laid_out.tree if laid_out is not None and cached is not None and cached[0][0] == run.id \
                and cached[1] is laid_out.tree else self._span_tree(run.id, _ours(run))
            if laid_out is not None and laid_out.tree is tree and tree.nested:
                self.tree = laid_out.rows_for(self.filter, self.show_plumbing, keep)
            if tree is not None and tree.nested and self.tree is None:
                self.tree = TreeRows(tree, self.filter, self.show_plumbing, keep)
        self._count = 0 if self.laying_out else len(self.tree.rows) if self.tree is not None else count_timeline(
            self.store, run.id, self.filter)
        self.start, self.end = run_span(self.store, run)
        if not self.laying_out and self.page_size < self._count <= WORDS_AHEAD_STEPS:
            # Its pages further down say their kinds, durations and failures ahead: its columns keep their width as they
            # scroll into view (a step that took a minute widened the Duration column, and moved the detail's split).
            self.column_words.note_steps(longest_steps(self.store, run.id))
            self.said_outcomes.note_failures(failures_in_run(self.store, run.id))
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

    def _lays_out_again(self, run: RunRecord, steps: int) -> bool:
        """The span tree shown, whose run grew to ``steps`` steps, is laid out anew on the reader thread, the
        rows shown staying until :attr:`relaid_out` (one layout at a time: the growth meanwhile is laid out
        after it); False for a run laid out here, at once."""
        if self._layouts is None or steps <= AT_ONCE_STEPS:
            return False
        if not self.relaying:
            self.relaying = True
            self._layouts.ask((self._signature(run.id), _ours(run)), self.filter, self.show_plumbing)
        return True

    def _arrived(self, asked: tuple[LayoutQuestion, StepFilter, bool], laid_out: LaidOut) -> None:
        run_id = asked[0][0][0]
        if (self.laying_out or self.relaying) and run_id == self.run_id:
            self._tree_cache, self._laid_out = (asked[0][0], laid_out.tree), laid_out
            (self.laid_out if self.laying_out else self.relaid_out).emit()
            # A running run that grew while it was laid out is laid out again now: no write may follow to say so.
            if self.run is not None and self.run_id == run_id and self.tree is not None and not self.laying_out:
                steps = self._signature(run_id)[1]
                if steps != len(self.tree.tree):
                    self._lays_out_again(self.run, steps)

    def _not_laid_out(self, asked: tuple[LayoutQuestion, StepFilter, bool], problem: StoreError) -> None:
        """The reader could not read the run's spans: no rows, the run :attr:`uncounted` (said once, as a read here
        that fails); a span tree laid out anew keeps the rows it shows (laid out again at its run's next growth)."""
        if self.relaying and asked[0][0][0] == self.run_id:
            self.relaying = False
            self.refusals.refuse(problem)
            return
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
        signature = self._signature(run_id)
        cached = self._tree_cache
        if cached is None or cached[0] != signature:
            if self._layouts is not None and signature[1] > AT_ONCE_STEPS:
                self.laying_out = signature[1]
                self._layouts.ask((signature, ours), self.filter, self.show_plumbing)
                return None
            cached = self._tree_cache = (signature, lay_out(self.store, (signature, ours)))
        return cached[1]

    def _signature(self, run_id: int) -> tuple[int, int, int]:
        """The run's steps as counted now (a run deleted and its id given again has other step ids)."""
        return self.store.db.conn.execute("SELECT ?, COUNT(*), MAX(id) FROM steps WHERE run_id = ?",
                                          (run_id, run_id)).fetchone()


def _ours(run: RunRecord) -> str | None:
    """The uid of a run of ours (its steps' spans are derived from it); ``None`` for a run from a trace."""
    return None if run.uid.startswith(TRACE_RUN_UID_PREFIX) else run.uid


__all__ = ["RunShape"]
