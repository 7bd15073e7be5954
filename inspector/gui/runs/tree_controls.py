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
        self._name_toggle()
        on_language_changed(self.plumbing_toggle, self._name_toggle)
        translated(self.plumbing_toggle, "setAccessibleName", lambda: _("Show plumbing"))
        translated(self.plumbing_toggle, "setToolTip", lambda: _(
            "Show the spans an instrumentation makes for its own work (stream writers), under their parents"))
        self.plumbing_toggle.hide()
        self.plumbing_toggle.toggled.connect(self._plumbing_toggled)
        pane.view.installEventFilter(self)
        translated(pane.view, "setAccessibleDescription", lambda: _(
            "Up and Down choose a step, its detail shown beside; Right unfolds a step with steps under it, "
            "Left folds it; Ctrl+F finds in the run."))
        pane.model.rowsInserted.connect(self._rows_folded)
        pane.model.rowsRemoved.connect(self._rows_folded)

    def _name_toggle(self) -> None:
        self.plumbing_toggle.setText(_("Plumbing") if self._toggle_short else _("Show plumbing"))

    def fit_toggle(self, room: int) -> None:
        """"Show plumbing" where ``room`` px hold it, else "Plumbing": the heading beside it keeps its
        counts whole (in German they were cut at 1,280 px: "… (7 Infrastruktur-Spans ausgeblen…")."""
        toggle = self.plumbing_toggle
        box = toggle.sizeHint().width() - toggle.fontMetrics().horizontalAdvance(toggle.text())
        short = box + toggle.fontMetrics().horizontalAdvance(_("Show plumbing")) > room
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
        announce(self.pane.view, said.format(count=rows))


__all__ = ["SpanTreeControls"]
