"""The span tree of a run imported from a trace: which steps are rows, in which order, how deep.

The window's timeline and ``runs show`` lay a run out with these, so both nest the same steps and
hide the same plumbing (the mark the importer gave a span, :mod:`inspector.traces.conventions`).

Built once when such a run is opened, from one light query (:func:`inspector.store.browse.span_nodes`:
ids, span ids, parents, plumbing marks, kinds and outcomes, no payload text). A child is listed
under its parent span, children in time order; a step whose parent span is not in the run is a
root. Which of them are rows is decided here, not in SQL: a step the filter does not select, or a
plumbing step while plumbing is hidden, is skipped and its children take its place (one level up);
a collapsed step's descendants are not rows. Nodes are numbers into the columns of
:class:`~inspector.store.browse.SpanNodes`: 100,000 steps make lists, not objects.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import replace
from functools import cached_property

from .browse import TRACE_RUN_UID_PREFIX, SpanNodes, StepFilter, span_nodes
from .joined import has_joined_spans, our_span_nodes
from .run_store import RunRecord, RunStore

#: The deepest level a row is indented for (the window's cell and ``runs show``): a tree nested a
#: thousand deep keeps room for its text; a deeper row says its level instead.
DEEPEST_INDENT = 12


class SpanTree:
    """The steps of one run as a tree of spans, in time order under each parent."""

    def __init__(self, nodes: SpanNodes) -> None:
        # The span ids are read here once: the tree keeps the other columns (a run of 1,000,000 steps
        # has some 70 MB of ids).
        self.nodes = replace(nodes, span_ids=[], parent_ids=[], aliases={})
        count = len(nodes)
        by_span: dict[str, int] = {}
        for number, span in enumerate(nodes.span_ids):
            if span is not None and span not in by_span:
                by_span[span] = number
        for alias, span in nodes.aliases.items():
            if span in by_span:
                by_span.setdefault(alias, by_span[span])
        #: Each node's children (node numbers, time order) and parent (-1: none); ``roots`` have none here.
        self.children: list[list[int] | None] = [None] * count
        self.parent = array("q", [-1]) * count
        self.roots: list[int] = []
        children, parent_of = self.children, self.parent
        # Parents earlier in time cannot close a cycle; once one is later (clock skew, a hostile
        # file), every link made from then on is checked.
        forward = False
        for number, parent_span in enumerate(nodes.parent_ids):
            parent = by_span.get(parent_span) if parent_span is not None else None
            if parent is None or parent == number or ((forward or parent > number)
                                                      and self._hangs_under(parent, number)):
                self.roots.append(number)
                continue
            forward = forward or parent > number
            parent_of[number] = parent
            below = children[parent]
            if below is None:
                children[parent] = [number]
            else:
                below.append(number)
        self.plumbing_count = sum(nodes.plumbing)

    @cached_property
    def index_of_step(self) -> dict[int, int]:
        """Each step's node number: made when a step is looked up (a step's row, a collapsed step), not
        for every run laid out (a dict of 1,000,000 steps is some 70 MB)."""
        return {step: number for number, step in enumerate(self.nodes.step_ids)}

    def _hangs_under(self, candidate: int, ancestor: int) -> bool:
        """Whether ``candidate`` already hangs (at any depth) under ``ancestor``."""
        for _ in range(len(self.parent) + 1):
            if candidate == -1:
                return False
            if candidate == ancestor:
                return True
            candidate = self.parent[candidate]
        return True

    def __len__(self) -> int:
        return len(self.parent)

    @property
    def nested(self) -> bool:
        """Whether any step hangs under another (else the run shows flat, as a run of our own)."""
        return len(self.roots) < len(self.parent)

    def rows(self, shown: list[bool], collapsed: set[int]) -> tuple[list[int], list[int]]:
        """The node numbers that are rows, depth first, and each one's depth (shown ancestors only).

        ``shown[number]`` says whether a node is a row at all; a node in ``collapsed`` is a row whose
        descendants are not."""
        rows: list[int] = []
        depths: list[int] = []
        add_row, add_depth = rows.append, depths.append
        children = self.children
        nodes = list(reversed(self.roots))
        levels = [0] * len(nodes)
        pop_node, pop_level = nodes.pop, levels.pop
        while nodes:
            number, depth = pop_node(), pop_level()
            if shown[number]:
                add_row(number)
                add_depth(depth)
                if number in collapsed:
                    continue
                depth += 1
            below = children[number]
            if below:
                nodes.extend(reversed(below))
                levels.extend([depth] * len(below))
        return rows, depths

    def has_shown_children(self, number: int, shown: list[bool]) -> bool:
        """Whether a node has a descendant that would be a row (its own, or one lifted from a hidden child)."""
        stack = list(self.children[number] or ())
        while stack:
            child = stack.pop()
            if shown[child]:
                return True
            stack.extend(self.children[child] or ())
        return False

    def ancestors(self, number: int) -> Iterable[int]:
        number = self.parent[number]
        while number != -1:
            yield number
            number = self.parent[number]


class TreeRows:
    """The rows a span tree shows: the filter, whether plumbing shows, and which steps are collapsed."""

    def __init__(self, tree: SpanTree, where: StepFilter, show_plumbing: bool = False,
                 collapsed_steps: Iterable[int] = ()) -> None:
        self.tree = tree
        nodes = tree.nodes
        outcomes, kinds = set(where.outcomes), set(where.kinds)
        #: Whether each node is a row at all (the filter, plumbing), collapsed ancestors aside.
        self.shown = [(show_plumbing or not plumbing) and (not outcomes or outcome in outcomes)
                      and (not kinds or kind in kinds)
                      for plumbing, outcome, kind in zip(nodes.plumbing, nodes.outcomes, nodes.kinds, strict=True)]
        #: How many steps the filter and the plumbing toggle let show, collapsed or not.
        self.step_count = sum(self.shown)
        #: How many plumbing steps the filter matches that the toggle hides.
        self.hidden_plumbing = 0 if show_plumbing else sum(
            1 for plumbing, outcome, kind in zip(nodes.plumbing, nodes.outcomes, nodes.kinds, strict=True)
            if plumbing and (not outcomes or outcome in outcomes) and (not kinds or kind in kinds))
        self.collapsed = {tree.index_of_step[step] for step in collapsed_steps if step in tree.index_of_step}
        self.rows: list[int] = []
        self.depths: list[int] = []
        self._branches: dict[int, bool] = {}
        self._row_of: dict[int, int] | None = None
        self.commit(self.layout())

    def layout(self) -> tuple[list[int], list[int]]:
        """The rows and depths as the collapsed set says now (not yet shown: :meth:`commit`)."""
        return self.tree.rows(self.shown, self.collapsed)

    def commit(self, laid_out: tuple[list[int], list[int]]) -> None:
        self.rows, self.depths = laid_out
        self._branches.clear()
        self._row_of = None

    def step_id(self, row: int) -> int:
        return self.tree.nodes.step_ids[self.rows[row]]

    def branch(self, row: int) -> bool | None:
        """``None`` for a row without child rows, else whether it is expanded."""
        number = self.rows[row]
        has = self._branches.get(number)
        if has is None:
            has = self._branches[number] = self.tree.has_shown_children(number, self.shown)
        return (number not in self.collapsed) if has else None

    def row_of_step(self, step_id: int, reveal: bool = False) -> int | None:
        """The row of a step; with ``reveal``, its collapsed ancestors are expanded (the caller lays out)."""
        number = self.tree.index_of_step.get(step_id)
        if number is None or not self.shown[number]:
            return None
        if reveal:
            self.collapsed.difference_update(self.tree.ancestors(number))
            return None
        if self._row_of is None:
            self._row_of = {node: row for row, node in enumerate(self.rows)}
        return self._row_of.get(number)

    def collapsed_steps(self) -> set[int]:
        return {self.tree.nodes.step_ids[number] for number in self.collapsed}


def run_span_tree(store: RunStore, run: RunRecord) -> SpanTree | None:
    """The span tree ``run`` is shown as, or ``None`` for a run shown flat, in time order (one with
    no spans, or whose spans do not nest): a run imported from a trace, or one of ours that a
    server's spans joined."""
    from_trace = run.uid.startswith(TRACE_RUN_UID_PREFIX)
    if not from_trace and not has_joined_spans(store, run.id):
        return None
    tree = SpanTree(span_nodes(store, run.id) if from_trace else our_span_nodes(store, run.id, run.uid))
    return tree if tree.nested else None


__all__ = ["DEEPEST_INDENT", "SpanTree", "TreeRows", "run_span_tree"]
