"""The span tree of a run imported from a trace: which steps are rows, in which order, how deep.

Built once when such a run is opened, from one light query (:func:`inspector.store.browse.span_nodes`:
ids, span ids, parents, plumbing marks, kinds and outcomes, no payload text). A child is listed
under its parent span, children in time order; a step whose parent span is not in the run is a
root. Which of them are rows is decided here, not in SQL: a step the filter does not select, or a
plumbing step while plumbing is hidden, is skipped and its children take its place (one level up);
a collapsed step's descendants are not rows. 100,000 steps take well under a second.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from inspector.store.browse import SpanNode, StepFilter


@dataclass
class SpanTree:
    """The steps of one run as a tree of spans, in time order under each parent."""

    nodes: Sequence[SpanNode]
    #: Each node's children (node numbers), in time order; ``roots`` are those without a parent here.
    children: list[list[int]] = field(default_factory=list)
    roots: list[int] = field(default_factory=list)
    parent: list[int] = field(default_factory=list)
    index_of_step: dict[int, int] = field(default_factory=dict)

    @classmethod
    def build(cls, nodes: Sequence[SpanNode]) -> SpanTree:
        tree = cls(nodes)
        by_span: dict[str, int] = {}
        for number, node in enumerate(nodes):
            if node.span_id and node.span_id not in by_span:
                by_span[node.span_id] = number
            tree.index_of_step[node.step_id] = number
        tree.children = [[] for _ in nodes]
        tree.parent = [-1] * len(nodes)
        for number, node in enumerate(nodes):
            parent = by_span.get(node.parent_id) if node.parent_id else None
            if parent is None or parent == number or cls._is_descendant(tree, parent, number):
                tree.roots.append(number)
            else:
                tree.parent[number] = parent
                tree.children[parent].append(number)
        return tree

    @staticmethod
    def _is_descendant(tree: SpanTree, candidate: int, ancestor: int) -> bool:
        """Whether ``candidate`` already hangs under ``ancestor`` (a cycle in a hostile file)."""
        seen = 0
        while candidate != -1 and seen <= len(tree.parent):
            if candidate == ancestor:
                return True
            candidate, seen = tree.parent[candidate], seen + 1
        return False

    @property
    def nested(self) -> bool:
        """Whether any step hangs under another (else the run shows flat, as a run of our own)."""
        return len(self.roots) < len(self.nodes)

    @property
    def plumbing_count(self) -> int:
        return sum(1 for node in self.nodes if node.plumbing)

    def rows(self, shown: Callable[[SpanNode], bool], collapsed: set[int]) -> tuple[list[int], list[int]]:
        """The node numbers that are rows, depth first, and each one's depth (shown ancestors only).

        ``shown`` says whether a node is a row at all; a node in ``collapsed`` (node numbers) is a
        row whose descendants are not."""
        rows: list[int] = []
        depths: list[int] = []
        stack: list[tuple[int, int]] = [(root, 0) for root in reversed(self.roots)]
        children = self.children
        nodes = self.nodes
        while stack:
            number, depth = stack.pop()
            if shown(nodes[number]):
                rows.append(number)
                depths.append(depth)
                if number in collapsed:
                    continue
                below = depth + 1
            else:
                below = depth
            stack.extend((child, below) for child in reversed(children[number]))
        return rows, depths

    def has_shown_children(self, number: int, shown: Callable[[SpanNode], bool]) -> bool:
        """Whether a node has a descendant that would be a row (its own, or one lifted from a hidden child)."""
        stack = list(self.children[number])
        while stack:
            child = stack.pop()
            if shown(self.nodes[child]):
                return True
            stack.extend(self.children[child])
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
        self.where = where
        self.show_plumbing = show_plumbing
        self.collapsed = {tree.index_of_step[step] for step in collapsed_steps if step in tree.index_of_step}
        self.rows: list[int] = []
        self.depths: list[int] = []
        self._branches: dict[int, bool] = {}
        self._row_of: dict[int, int] | None = None
        self.commit(self.layout())

    def shown(self, node: SpanNode) -> bool:
        """Whether a step is a row at all (the filter, plumbing), collapsed ancestors aside."""
        if node.plumbing and not self.show_plumbing:
            return False
        where = self.where
        return (not where.outcomes or node.outcome in where.outcomes) and (not where.kinds or node.kind in where.kinds)

    def layout(self) -> tuple[list[int], list[int]]:
        """The rows and depths as the collapsed set and the toggle say now (not yet shown: :meth:`commit`)."""
        return self.tree.rows(self.shown, self.collapsed)

    def commit(self, laid_out: tuple[list[int], list[int]]) -> None:
        self.rows, self.depths = laid_out
        self._branches.clear()
        self._row_of = None

    @property
    def step_count(self) -> int:
        """How many steps the filter and the plumbing toggle let show, collapsed or not."""
        return sum(1 for node in self.tree.nodes if self.shown(node))

    def step_id(self, row: int) -> int:
        return self.tree.nodes[self.rows[row]].step_id

    def branch(self, row: int) -> bool | None:
        """``None`` for a row without child rows, else whether it is expanded."""
        number = self.rows[row]
        has = self._branches.get(number)
        if has is None:
            has = self._branches[number] = self.tree.has_shown_children(number, self.shown)
        return (number not in self.collapsed) if has else None

    def row_of_step(self, step_id: int, reveal: bool = False) -> int | None:
        """The row of a step; with ``reveal``, its collapsed ancestors are expanded first (the caller lays out)."""
        number = self.tree.index_of_step.get(step_id)
        if number is None or not self.shown(self.tree.nodes[number]):
            return None
        if reveal:
            self.collapsed.difference_update(self.tree.ancestors(number))
            return None
        if self._row_of is None:
            self._row_of = {node: row for row, node in enumerate(self.rows)}
        return self._row_of.get(number)

    def collapsed_steps(self) -> set[int]:
        return {self.tree.nodes[number].step_id for number in self.collapsed}


__all__ = ["SpanTree", "TreeRows"]
