"""The timeline pane's controls for a run shown as a span tree: the "Show plumbing" toggle, Left and
Right to fold and unfold the current row (Left on a leaf goes to the row it hangs under; a screen
reader is told the keys in the timeline's description and hears what a fold did), and Find's
matches kept to the rows showing when rows are folded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCheckBox

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.store import RunRecord
from inspector.store.notes import plumbing_notes

from ..language import on_language_changed, translated
from ..widgets.accessibility import announce
from .timeline_model import BranchRole, StepIdRole

if TYPE_CHECKING:
    from .timeline_pane import TimelinePane


class SpanTreeControls(QObject):
    """What a :class:`~.timeline_pane.TimelinePane` adds for a span tree (its model's ``tree``)."""

    def __init__(self, pane: TimelinePane) -> None:
        super().__init__(pane)
        self.pane = pane
        # Instrumentation-internal spans (Traceloop's stream writers) are hidden until asked for.
        self.plumbing_toggle = QCheckBox()
        self._toggle_short = False
        #: How many hidden plumbing steps have a note: the toggle says so, or they would go unseen.
        self.hidden_notes = 0
        self._name_toggle()
        on_language_changed(self.plumbing_toggle, self._name_toggle)
        self.plumbing_toggle.hide()
        self.plumbing_toggle.toggled.connect(self._plumbing_toggled)
        pane.view.installEventFilter(self)
        translated(pane.view, "setAccessibleDescription", lambda: _(
            "Up and Down choose a step, its detail shown beside; Right unfolds a step with steps under it, "
            "Left folds it; Ctrl+F finds in the run."))
        pane.model.rowsInserted.connect(self._rows_folded)
        pane.model.rowsRemoved.connect(self._rows_folded)

    def _name_toggle(self) -> None:
        toggle, notes = self.plumbing_toggle, self.hidden_notes
        toggle.setText(self._short_text() if self._toggle_short else self._long_text())
        tip = _("Show the spans an instrumentation makes for its own work (stream writers), under their parents")
        if notes:
            tip += "\n" + ngettext("{count} of them has a note.", "{count} of them have a note.", notes).format(
                count=format_number(notes))
        toggle.setToolTip(tip)
        toggle.setAccessibleName(self._long_text())

    def _long_text(self) -> str:
        return ngettext("Show plumbing ({count} note)", "Show plumbing ({count} notes)", self.hidden_notes).format(
            count=format_number(self.hidden_notes)) if self.hidden_notes else _("Show plumbing")

    def _short_text(self) -> str:
        return ngettext("Plumbing ({count} note)", "Plumbing ({count} notes)", self.hidden_notes).format(
            count=format_number(self.hidden_notes)) if self.hidden_notes else _("Plumbing")

    def count_hidden_notes(self, run: RunRecord | None, recount: bool = True) -> None:
        """Say on the toggle how many of ``run``'s hidden plumbing steps have a note (none while the plumbing
        shows); ``recount=False`` (a change of language) keeps the count read last."""
        model = self.pane.model
        if run is None or model.tree is None or model.show_plumbing or not model.plumbing_count:
            count = 0
        elif recount:
            count = plumbing_notes(self.pane.store, run.id, model.tree.tree.nodes)
        else:
            return
        if count != self.hidden_notes:
            self.hidden_notes = count
            self._name_toggle()

    def long_width(self) -> int:
        """The toggle's width saying "Show plumbing" (and the notes it hides)."""
        toggle = self.plumbing_toggle
        box = toggle.sizeHint().width() - toggle.fontMetrics().horizontalAdvance(toggle.text())
        return box + toggle.fontMetrics().horizontalAdvance(self._long_text())

    def fit_toggle(self, room: int) -> None:
        """"Show plumbing" where ``room`` px hold it, else "Plumbing": the heading beside it keeps its
        counts whole (in German they were cut at 1,280 px: "… (7 Infrastruktur-Spans ausgeblen…")."""
        short = self.long_width() > room
        if short != self._toggle_short:
            self._toggle_short = short
            self._name_toggle()

    def _plumbing_toggled(self, show: bool) -> None:
        step = self.pane.view.currentIndex().siblingAtColumn(0).data(StepIdRole)
        self.pane.model.set_show_plumbing(show)
        self.pane.step_changed.emit(None)
        self.pane.describe(self.pane.model.run)
        row = self.pane.model.row_of_step(step) if step is not None else None
        if row is not None:
            self.pane.select_step(row)
        self.pane.finder.again()

    def _rows_folded(self) -> None:
        if self.pane.model.tree is not None:
            self.pane.finder.keep_matches_showing()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Left and Right in a span tree collapse and expand the current row (Left on a leaf goes to its parent)."""
        if watched is self.pane.view and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) \
                and self.pane.model.tree is not None and event.key() in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            row = self.pane.view.currentIndex().row()
            if row >= 0:
                expand, before = event.key() == Qt.Key.Key_Right, self.pane.model.rowCount()
                if self.pane.model.set_expanded(row, expand):
                    self._say_fold(expand, abs(self.pane.model.rowCount() - before))
                    return True
                if not expand and self.pane.model.index(row, 0).data(BranchRole) is not True:
                    parent = self.pane.model.parent_row(row)
                    if parent is not None:
                        self.pane.select_step(parent)
                        return True
        return super().eventFilter(watched, event)

    def _say_fold(self, expanded: bool, rows: int) -> None:
        """A screen reader is not told that the row's words changed ("level 1, collapsed"): it hears what
        the key did."""
        if expanded:
            said = ngettext("expanded: {count} step under it shown", "expanded: {count} steps under it shown", rows)
        else:
            said = ngettext("collapsed: {count} step under it hidden", "collapsed: {count} steps under it hidden", rows)
        announce(self.pane.view, said.format(count=format_number(rows)))


__all__ = ["SpanTreeControls"]
