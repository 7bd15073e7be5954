"""A span tree's side of the timeline model: expanding and collapsing rows, the plumbing toggle, and
Find, which expands the rows above a match. The rows themselves are :class:`.span_tree.TreeRows`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, Qt

from .found_steps import FindQuestion, read_found

if TYPE_CHECKING:
    from .shown_words import ShownWords
    from .span_tree import TreeRows

#: How deep a row's span nests (0 for a root, and for every step of a run without a span tree).
DepthRole = Qt.ItemDataRole.UserRole + 5
#: ``None`` for a row without child rows, else whether its children show.
BranchRole = Qt.ItemDataRole.UserRole + 6


class SpanTreeRows:
    """Mixed into :class:`.timeline_model.TimelineModel`: what its span tree (``self.tree``) can do."""

    tree: TreeRows | None
    show_plumbing: bool
    shown_words: ShownWords
    _count: int
    laying_out: int
    #: How many steps the last :meth:`find` found that no row shows (plumbing while it is hidden).
    found_hidden: int = 0
    #: What the last Find found (:meth:`take_found`).
    found_steps: list[int] = []  # noqa: RUF012 - replaced, never changed in place

    def set_show_plumbing(self, show: bool) -> None:
        if show != self.show_plumbing:
            self.show_plumbing = show
            if self.tree is not None:
                self.set_run(self.run)

    @property
    def step_count(self) -> int:
        """How many steps the filter (and the plumbing toggle) select, collapsed ones included (while a long
        run is laid out on the reader thread: all its steps)."""
        return self.tree.step_count if self.tree is not None else self.laying_out or self._count

    @property
    def plumbing_count(self) -> int:
        return self.tree.tree.plumbing_count if self.tree is not None else 0

    @property
    def tree_total(self) -> int | None:
        """How many steps the run had when its span tree shown was read (every one: plumbing, filtered), the count
        its rows are of (``None``: no span tree shows). A running run that grew keeps the rows until it is laid out
        anew: read again meanwhile, the run's count said "5,100 of 6,222 steps shown" with nothing filtered."""
        return len(self.tree.tree) if self.tree is not None else None

    @property
    def hidden_plumbing(self) -> int:
        """How many plumbing steps the filter matches that are hidden (Show plumbing unticked)."""
        return self.tree.hidden_plumbing if self.tree is not None else 0

    def set_expanded(self, row: int, expanded: bool) -> bool:
        """Show or hide the rows under ``row`` (a span tree's); whether anything changed."""
        tree = self.tree
        if tree is None or not 0 <= row < self._count or tree.branch(row) in (None, expanded):
            return False
        number = tree.rows[row]
        if expanded:
            tree.collapsed.discard(number)
        else:
            tree.collapsed.add(number)
        laid_out = tree.layout()
        change = len(laid_out[0]) - self._count
        if change > 0:
            self.beginInsertRows(QModelIndex(), row + 1, row + change)
        elif change < 0:
            self.beginRemoveRows(QModelIndex(), row + 1, row - change)
        self._take(laid_out)
        if change > 0:
            self.endInsertRows()
        elif change < 0:
            self.endRemoveRows()
        index = self.index(row, 0)
        self.dataChanged.emit(index, index.siblingAtColumn(self.columnCount() - 1), [BranchRole])
        return True

    def _take(self, laid_out: tuple[list[int], list[int]]) -> None:
        assert self.tree is not None
        self.tree.commit(laid_out)
        self._count = len(self.tree.rows)
        self._pages.clear()
        self._last_number, self._last_page = -1, None
        self._matches = set()

    def find(self, text: str, reveal: bool = True) -> list[int]:
        """The rows whose step holds ``text`` (:func:`.found_steps.read_found`), read here; in a span tree, the
        collapsed rows above a match are expanded first (``reveal=False``: the matches showing)."""
        question = self.find_question(text)
        if question is None:
            self.found_hidden = 0
            return []
        return self.take_found(read_found(self.store, question), reveal)

    def find_question(self, text: str) -> FindQuestion | None:
        """What Find asks of the stored steps for ``text`` in the run shown (None: nothing to find)."""
        if self.run is None or not text.strip():
            return None
        # What the rows and the step detail show in words the store does not keep (said in the current
        # language), our stored sentences as the reader sees them among them: not said again in SQL.
        shown = self.shown_words.holding(self.run, text)
        return FindQuestion(self.run.id, text, self.filter, tuple(shown), self.tree is not None)

    def take_found(self, found: list[int], reveal: bool = True) -> list[int]:
        """The rows of the steps :func:`.found_steps.read_found` found (in a flat timeline, their rows
        already); in a span tree the collapsed rows above them are expanded first (``reveal=False``: the
        rows of those showing). The steps are kept for :meth:`rows_found`."""
        self.found_hidden = 0
        self.found_steps = found
        if self.tree is None:
            return found
        collapsed = set(self.tree.collapsed)
        for step_id in found if reveal else ():
            self.tree.row_of_step(step_id, reveal=True)
        if self.tree.collapsed != collapsed:
            self.beginResetModel()
            self._take(self.tree.layout())
            self.endResetModel()
        rows = [self.tree.row_of_step(step_id) for step_id in found]
        # Hidden: steps of the tree that are no row (plumbing hidden); not those newer than the rows shown (a growing
        # run's tree being laid out anew: they show once it arrives, :meth:`.find_in_run.FindInRun.follow_rows`).
        known = self.tree.tree.index_of_step
        self.found_hidden = sum(row is None and step_id in known for step_id, row in zip(found, rows, strict=True)) \
            if reveal else 0
        return sorted(row for row in rows if row is not None)

    def rows_found(self) -> list[int]:
        """The rows showing the steps the last Find found (after a fold or an unfold), not searched again."""
        return self.take_found(self.found_steps, reveal=False)

    def parent_row(self, row: int) -> int | None:
        """The row above ``row`` that it hangs under (a span tree's), if any."""
        if self.tree is None or not 0 <= row < self._count:
            return None
        depth = self.tree.depths[row]
        for above in range(row - 1, -1, -1):
            if self.tree.depths[above] < depth:
                return above
        return None

    def row_of_step(self, step_id: int) -> int | None:
        """The row that shows a step, if one does."""
        if self.tree is not None:
            return self.tree.row_of_step(step_id)
        return None



__all__ = ["BranchRole", "DepthRole", "SpanTreeRows"]
