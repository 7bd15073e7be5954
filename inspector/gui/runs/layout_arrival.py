"""What the timeline pane does when a long run's span tree, laid out on the reader thread
(:mod:`.tree_layout`), arrives.

Shown the first time, the run's rows take the place of "Laying out N steps…", and a step asked for meanwhile (the
Play tab's "Show in Runs") is selected then. Laid out anew because the run grew (a running run of ours that a
server's spans joined), the new rows are swapped in place of the old ones, which showed until then: the step
selected stays selected (by its id) without its detail being shown again, the rows in view stay in view, and
Find's matches are the same steps, its current match the same one (before, the rows blanked to "Laying out…" at
each growth, the detail was cleared and Find went back to its first match).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QSignalBlocker

from .timeline_model import StepIdRole

if TYPE_CHECKING:
    from .timeline_pane import TimelinePane


class LayoutArrival:
    """Shows a long run's span tree in ``pane`` once it is laid out: at first, or anew in place of the old rows."""

    def __init__(self, pane: TimelinePane) -> None:
        self.pane = pane
        #: The run and step to select once the run's span tree is laid out (None: none).
        self._wanted: tuple[int, int] | None = None
        pane.model.laid_out.connect(self._laid_out)
        pane.model.relaid_out.connect(self.swap)

    def select_step_of(self, step_id: int) -> None:
        """Select the row of the step ``step_id`` of the run shown: now, or (its span tree being laid out on the
        reader thread) when its rows show."""
        model = self.pane.model
        self._wanted = (model.run_id, step_id) if model.laying_out and model.run_id is not None else None
        row = model.row_of_step(step_id)
        if row is not None:
            self.pane.select_step(row)

    def _laid_out(self) -> None:
        pane, wanted, self._wanted = self.pane, self._wanted, None
        pane.show_run(pane.model.run)
        if wanted is not None and wanted[0] == pane.model.run_id:
            row = pane.model.row_of_step(wanted[1])
            if row is not None:
                pane.select_step(row)

    def forget(self) -> None:
        """Another run is shown (or the same one afresh): no step is waited for."""
        self._wanted = None

    def swap(self) -> None:
        """The run's span tree laid out anew takes the old one's place, the selection, the rows in view and
        Find's position kept."""
        pane = self.pane
        view, model = pane.view, pane.model
        current = view.currentIndex()
        selected = current.siblingAtColumn(0).data(StepIdRole) if current.isValid() else None
        top = view.rowAt(0)
        top_step = model.index(top, 0).data(StepIdRole) if top >= 0 else None
        into = -view.rowViewportPosition(top) if top >= 0 else 0  # how much of the top row is scrolled away
        match = pane.finder.match_step()
        with QSignalBlocker(pane):  # the same step: its detail is not shown again
            model.set_run(model.run)
            row = model.row_of_step(selected) if selected is not None else None
            if row is not None:
                view.selectionModel().setCurrentIndex(model.index(row, 0), QItemSelectionModel.SelectionFlag(
                    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows))
        if selected is not None and row is None:
            pane.step_changed.emit(None)  # no longer a row (a filter hides it now): no detail, as no selection
        new_top = model.row_of_step(top_step) if top_step is not None else None
        if new_top is not None:
            view.updateGeometries()  # the scroll range for the new rows first
            view.verticalScrollBar().setValue(view.rowViewportPosition(new_top) + view.verticalScrollBar().value()
                                              + into)
        pane.describe(model.run)
        pane.finder.follow_rows(match)


__all__ = ["LayoutArrival"]
