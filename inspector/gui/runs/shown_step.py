"""The step the timeline selects, shown in the step detail: read in full (one step, a bounded query on
the GUI thread), with its replays; its note written; its task looked up and its replay started on the
workbench, where operations run."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from inspector.store import RunRecord, RunStore, UnknownRunError
from inspector.store.browse import step_in_full

from ..widgets.said_line import Words
from .notes import NoteWriter
from .step_detail import StepDetail
from .step_replays import replay_plan
from .timeline_pane import TimelinePane


class ShownStep(QObject):
    """Wires the timeline's selected step to the detail, and the detail's buttons to what they start."""

    #: Work for the workbench: a callable given the workbench that returns the operation it started,
    #: or None ("Look up task", "Replay").
    workbench_wanted = Signal(object)

    def __init__(self, store: RunStore, timeline: TimelinePane, detail: StepDetail, notes: NoteWriter,
                 current_run: Callable[[], RunRecord | None], say: Callable[[str | Words], None],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store, self.timeline, self.detail, self.notes = store, timeline, detail, notes
        self._current_run, self._say = current_run, say
        timeline.step_changed.connect(self.show_step)
        detail.task_lookup.connect(self._look_up_task)
        detail.replay_wanted.connect(self._replay)
        detail.note_button.clicked.connect(self.edit_note)
        notes.step_note_written.connect(self.show_step)
        notes.step_note_written.connect(lambda _step_id: timeline.model.read_rows_again())  # its row's note mark

    def show_step(self, step_id: int | None) -> None:
        if step_id is None:
            self.detail.show_step(None)
            return
        try:
            full = step_in_full(self.store, step_id)
            # A run of one operation has no rounds: its timeline says "–", and so does the detail.
            self.detail.rounds = self.timeline.model.has_rounds
            self.detail.show_step(full)
            self.detail.replays.show_for(self.store, full, self.detail.parsed)
        except UnknownRunError:
            self.detail.show_step(None)

    def show_replays(self) -> None:
        """The database changed: a replay of the shown step may have been stored."""
        if self.detail.step is not None:
            self.detail.replays.show_for(self.store, self.detail.step, self.detail.parsed)

    def edit_note(self) -> None:
        """Ask for the note of the step the detail shows, and keep it."""
        step = self.detail.step
        if step is not None:
            self.notes.edit_step_note(step.row.id, step.row.sequence, step.note)

    def _look_up_task(self, task: object) -> None:
        run = self._current_run()
        if run is not None and run.server and isinstance(task, dict):
            self.workbench_wanted.emit(lambda workbench, server=run.server: workbench.look_up_task(server, task))

    def _replay(self) -> None:
        plan = replay_plan(self.store, self.detail.step, self._say)
        if plan is not None:
            self.workbench_wanted.emit(lambda workbench: workbench.replay(plan))


__all__ = ["ShownStep"]
