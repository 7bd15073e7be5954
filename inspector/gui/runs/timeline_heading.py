"""The heading over the selected run's steps (its title, status and counts: how many steps show of how
many, the plumbing hidden, the failed calls its model got over) and, under it, the run's uid line."""

from __future__ import annotations

from inspector.i18n import _
from inspector.i18n.recovery import Reason, recovery_text
from inspector.i18n.scenarios import said_title
from inspector.store import RunRecord, RunStore
from inspector.store.recovery import run_reason

from ..language import translated
from ..widgets.elided_label import ElidedLabel
from ..widgets.plain_text import cell_text
from .refused_reads import READ_ERRORS
from .run_identity import RunIdentity
from .timeline_model import TimelineModel
from .timeline_words import counts_heading, heading_text, show_heading, status_heading, uncounted_heading


class TimelineHeading:
    """The heading's label and the uid line (the timeline pane lays them out); what the heading says
    is counted in the database only when the run, its filters or its steps changed."""

    def __init__(self, store: RunStore, model: TimelineModel) -> None:
        self.store, self.model = store, model
        #: (run id, how many steps it has) as last counted, for a filtered heading.
        self._total: tuple[int, int] | None = None
        #: The run read last, and why it failed where that is known: its failed calls, all its calls, and
        #: whether its model still answered (a scenario run it got over; a run read from a trace).
        self._recovered: tuple[int, Reason | None] | None = None
        self.label = ElidedLabel()  # a run's long title is cut, never makes the window wider
        translated(self.label, "setAccessibleName", lambda: _("Selected run"))
        self.identity = RunIdentity()  # its uid (Copy uid) and, imported, where it came from

    def show_run(self, run: RunRecord | None, *, filtered: bool, recount: bool = True,
                 total: int | None = None) -> int:
        """Say ``run`` (``filtered``: the step filters select fewer than all its steps); return how many
        steps it has as the heading counts them. ``recount=False`` (a change of language) reuses the
        counts read last; ``total``: the count of its steps, read already."""
        self.identity.show_run(run)
        shown = self.model.step_count
        if run is None:
            self.label.setText(_("No run selected."))
            return shown
        hidden = 0 if self.model.show_plumbing else self.model.plumbing_count
        try:
            if (filtered or hidden) and (recount or self._total is None or self._total[0] != run.id):
                self._total = None
                self._total = (run.id, total if total is not None else self.store.count_steps(run.id))
            if recount or self._recovered is None or self._recovered[0] != run.id:
                self._recovered = (run.id, None)
                found = run_reason(self.store, run)
                self._recovered = (run.id, found.said() if found else None)
        except READ_ERRORS as error:  # the run's counts (or why it failed) unsaid; the timeline says why once
            self.model.refusals.refuse(error)
        recovery = self._recovered[1] if self._recovered and self._recovered[0] == run.id else None
        if self.model.uncounted or ((filtered or hidden) and self._total is None):
            # Not "0 steps": how many it has is not known.
            show_heading(self.label, uncounted_heading(run, recovery), cell_text(said_title(run.title, run.source), 80),
                         recovery_text(*recovery) if recovery else "", status_heading(run, recovery))
            return shown
        total = self._total[1] if (filtered or hidden) and self._total else shown
        heading = heading_text(run, shown=shown, total=total, filtered=filtered, hidden=hidden,
                               hidden_matched=self.model.hidden_plumbing, recovery=recovery)
        # Where the heading does not fit, the plumbing it hides is left to the tip, then its counts, before
        # why the run failed is shortened, and its title last.
        briefer = counts_heading(run, shown=shown, total=total, filtered=filtered, recovery=recovery)
        show_heading(self.label, heading, cell_text(said_title(run.title, run.source), 80),
                     recovery_text(*recovery) if recovery else "", briefer, status_heading(run, recovery))
        return total


__all__ = ["TimelineHeading"]
