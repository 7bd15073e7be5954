"""Which steps ``runs show`` lists, in which order and how deep: as the window's timeline lays them out.

A run read from a trace whose spans nest is a tree (:func:`inspector.store.span_tree.run_span_tree`,
the window's own): each step under the span it ran in, its details indented by its depth, and the
plumbing the importer marked (stream writers and the like) hidden unless ``--plumbing`` asks for it,
as the window's "Show plumbing" does. Any other run is listed flat, in time order. The indent stops at
:data:`~inspector.store.span_tree.DEEPEST_INDENT` levels, where the window's stops: a deeper row says
its level before its details instead, so a trace nested a thousand deep prints no line of a
thousand spaces.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from inspector.i18n import _, ngettext
from inspector.i18n.details import OUTCOME_HEAD_DETAILS, TRANSLATED_DETAILS, outcome_note_said
from inspector.i18n.formatting import format_number
from inspector.runs import DetailWords, step_details
from inspector.runs.timeline import MAX_DETAILS_CHARS
from inspector.store import RunRecord, RunStore, StoredStep
from inspector.store.browse import StepFilter
from inspector.store.notes import plumbing_notes
from inspector.store.span_tree import DEEPEST_INDENT, TreeRows, run_span_tree

from .terminal_width import display_width, fit

#: Spaces per level of nesting.
INDENT = "  "


class RunLayout:
    """The steps of one run as ``runs show`` lists them (``show_plumbing``: the plumbing too)."""

    def __init__(self, store: RunStore, run: RunRecord, show_plumbing: bool = False) -> None:
        self.store, self.run = store, run
        tree = run_span_tree(store, run)
        self.rows: TreeRows | None = TreeRows(tree, StepFilter(), show_plumbing) if tree is not None else None
        #: The plumbing steps left out (the window's "(7 plumbing hidden)").
        self.hidden = self.rows.hidden_plumbing if self.rows is not None else 0
        #: The steps nested deeper than the indent goes.
        self.too_deep = sum(1 for depth in self.rows.depths if depth > DEEPEST_INDENT) if self.rows else 0
        #: The plumbing steps left out that have a note (written with the plumbing shown, here or elsewhere).
        self.hidden_notes = plumbing_notes(store, run.id, self.rows.tree.nodes) if self.rows and self.hidden else 0

    def __iter__(self) -> Iterator[tuple[StoredStep, int]]:
        """Each listed step and its depth (0 for a root, and for every step of a flat run)."""
        if self.rows is None:
            for stored in self.store.iter_steps(self.run.id):
                yield stored, 0
            return
        step_ids, depths = self.rows.tree.nodes.step_ids, self.rows.depths
        order = self.rows.rows
        for start in range(0, len(order), 500):  # a page at a time: 100,000 steps are never all in memory
            page = [step_ids[number] for number in order[start:start + 500]]
            found = self.store.steps_by_id(page)
            for offset, step_id in enumerate(page):
                if step_id in found:
                    yield found[step_id], depths[start + offset]


def nested(details: str, depth: int) -> str:
    """A step's details indented by ``depth`` levels; past :data:`DEEPEST_INDENT`, its level said instead."""
    if depth <= DEEPEST_INDENT:
        return INDENT * depth + details
    # Translators: a step nested too deep to indent further, e.g. "(level 1,000) tools/call".
    return INDENT * DEEPEST_INDENT + _("(level {level}) {details}").format(level=format_number(depth + 1),
                                                                          details=details)


def details_cell(payload: dict[str, Any], depth: int, room: int | None,
                 words: DetailWords = TRANSLATED_DETAILS) -> str:
    """A step's Details cell (in ``words``), indented by ``depth``: shortened as everywhere (at
    :data:`~inspector.runs.timeline.MAX_DETAILS_CHARS`), or, at a terminal that leaves it ``room``
    columns beyond that, cut to those columns instead (a wide character counted twice)."""
    if room is None:
        return nested(step_details(payload, words), depth)
    room -= display_width(nested("", depth))
    if room <= MAX_DETAILS_CHARS:
        return nested(step_details(payload, words), depth)
    return nested(fit(step_details(payload, words, room), room), depth)


def noted_outcome_cell(payload: dict[str, Any], depth: int, room: int | None) -> tuple[str, str]:
    """A step's Details cell and the line under it that says its call's outcome note whole (``""``: none): where
    the cell would cut the note short, the cell says only its head ("slow: no outcome recorded"), not the note cut
    ("… (a ca…") and then repeated whole on the next line."""
    details = details_cell(payload, depth, room)
    note = outcome_note_said(payload)
    if not note or note in details:
        return details, ""
    return details_cell(payload, depth, room, OUTCOME_HEAD_DETAILS), note


def counts_line(layout: RunLayout, started: str, finished: str, total: int) -> str:
    """The run's times and step count; with plumbing hidden, how many of them show (the window's words)."""
    if layout.hidden:
        return ngettext("  started {started}, finished {finished}, {shown} of {count} step shown "
                        "({hidden} plumbing hidden; --plumbing lists them)",
                        "  started {started}, finished {finished}, {shown} of {count} steps shown "
                        "({hidden} plumbing hidden; --plumbing lists them)", total).format(
            started=started, finished=finished, shown=format_number(total - layout.hidden),
            count=format_number(total), hidden=format_number(layout.hidden))
    return ngettext("  started {started}, finished {finished}, {count} step",
                    "  started {started}, finished {finished}, {count} steps", total).format(
        started=started, finished=finished, count=format_number(total))


def too_deep_line(layout: RunLayout) -> str:
    """What the indent leaves unsaid (``""``: nothing): how many steps nest deeper than it goes."""
    if not layout.too_deep:
        return ""
    return ngettext("{count} step is nested deeper than {deepest} levels: it is indented {deepest} levels deep, "
                    "with its level said before its details.",
                    "{count} steps are nested deeper than {deepest} levels: they are indented {deepest} levels "
                    "deep, with each one's level said before its details.", layout.too_deep).format(
        count=format_number(layout.too_deep), deepest=DEEPEST_INDENT)


def hidden_notes_line(layout: RunLayout) -> str:
    """What hiding the plumbing leaves unsaid (``""``: nothing): how many of its steps have a note."""
    if not layout.hidden_notes:
        return ""
    return ngettext("{count} step of the hidden plumbing has a note: --plumbing lists it with its note.",
                    "{count} steps of the hidden plumbing have a note: --plumbing lists them with their notes.",
                    layout.hidden_notes).format(count=format_number(layout.hidden_notes))


__all__ = ["RunLayout", "counts_line", "details_cell", "hidden_notes_line", "nested", "noted_outcome_cell",
           "too_deep_line"]
