"""The Runs tab: the stored runs (filtered, sorted, live) above, the selected run's timeline below,
the selected step's detail beside it; Find in a run; import, export and delete.

The tab only composes its panes (:mod:`.run_list`, :mod:`.timeline_pane`, :mod:`.step_detail`; where
they sit: :mod:`.arrangement`; the selected step in the detail: :mod:`.shown_step`) and its transfers
(:mod:`.transfers`), and keeps the list live. It reads the run database on the
GUI thread only in small, bounded queries (a list of runs, a page of steps, one step); imports
and exports run on worker threads (:mod:`inspector.gui.dialogs.transfer_dialog`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut, QShowEvent
from PySide6.QtWidgets import QMessageBox, QTabWidget, QVBoxLayout, QWidget

from inspector.i18n import _, current_language
from inspector.store import RunRecord, RunStore

from ..dialogs.transfer_dialog import TransferDialog, TransferJob
from ..language import on_language_changed, translated
from ..widgets.said_line import SaidLine
from .arrangement import PaneArrangement, least_size
from .compare_launcher import CompareLauncher
from .list_freshness import ListFreshness
from .live_reads import LiveAnswer, LiveQuestion, TimelineQuestion
from .notes import NoteWriter
from .run_list import RunListPane
from .shown_step import ShownStep
from .step_detail import StepDetail
from .timeline_model import TimelineGrowth
from .timeline_pane import TimelinePane
from .transfers import DropFilter, Transfers, dropped_files


class RunsTab(QWidget):
    """Stored runs and their timelines: the run list, the timeline and the step detail, composed."""

    #: A run was selected (its id) or none (-1).
    run_selected = Signal(int)
    #: An import, export or delete ended: ("import"|"export"|"delete", "ok"|"failed"|"cancelled", message).
    transfer_ended = Signal(str, str, str)
    #: Work for the workbench, where operations run and show: a callable given the workbench that
    #: returns the operation it started, or None ("Look up task", "Replay" in the step detail).
    workbench_wanted = Signal(object)

    def __init__(self, store: RunStore, db_path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.db_path = db_path
        self.run_list = RunListPane(store)
        self.run_list.search_on_thread(db_path)  # a search reads every run's steps: off the GUI thread
        self.timeline_pane = TimelinePane(store)
        self.timeline_pane.finder.find_on_thread(db_path)  # so does Find in a long run
        self.timeline_pane.model.lay_out_on_thread(db_path)  # and a long run's span tree
        self.detail = StepDetail()
        self.transfers = Transfers(store, db_path, self)
        self.notes = NoteWriter(store, self)
        self.comparing = CompareLauncher(self.run_list, store, db_path, self)
        # The parts tests, benchmarks and the window reach for, by the names they had in one class.
        runs, steps, finder = self.run_list, self.timeline_pane, self.timeline_pane.finder
        self.runs, self.run_view = runs.model, runs.view
        self.outcome_filter, self.server_filter, self.source_filter = (runs.outcome_filter, runs.server_filter,
                                                                       runs.source_filter)
        self.search, self.delete_button = runs.search, runs.delete_button
        self.timeline, self.timeline_view, self.run_heading = steps.model, steps.view, steps.heading
        self.step_outcome_filter, self.kind_filter = steps.outcome_filter, steps.kind_filter
        self.find_edit, self.find_status = steps.find_edit, steps.find_status
        self.find, self.find_next, self.find_previous = finder.find, finder.find_next, finder.find_previous
        self.focus_find, self.select_step, self.step_filter = finder.focus, steps.select_step, steps.step_filter
        self._build()
        self.shown_step = ShownStep(store, self.timeline_pane, self.detail, self.notes, self.current_run,
                                    self.status.say, self)
        self._connect()
        # The list, the growing run and the shown step's replays kept live, read off the GUI thread.
        self.freshness = ListFreshness(self, db_path, self._live_question, self._show_live, self._database_changed)
        self.run_list.search_overtaken.connect(lambda: self.freshness.check(force=True))
        self._growth: TimelineGrowth | None = None
        self.reload()

    def _build(self) -> None:
        self.arrangement = PaneArrangement(self, self.run_list, self.timeline_pane, self.detail)
        self.lower, self.split, self.detail_scroll = (self.arrangement.lower, self.arrangement.split,
                                                      self.arrangement.detail_scroll)
        # What an import, an export or a copy did: at most two lines, a longer sentence cut with "…".
        self.status = SaidLine(max_lines=2)  # its sentence follows the language
        translated(self.status, "setAccessibleName", lambda: _("Runs status"))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.split, 1)
        layout.addWidget(self.status)
        find = QShortcut(QKeySequence.StandardKey.Find, self)
        find.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        find.activated.connect(self.timeline_pane.finder.focus)
        # Each shortcut says what it does (the Help menu's list of shortcuts reads it).
        translated(find, "setWhatsThis", lambda: _("Runs › Find in this run"))
        for sequence, slot, said in ((QKeySequence.StandardKey.FindNext, self.timeline_pane.finder.find_next,
                                      lambda: _("Runs › Next match")),
                                     (QKeySequence.StandardKey.FindPrevious, self.timeline_pane.finder.find_previous,
                                      lambda: _("Runs › Previous match"))):
            shortcut = QShortcut(sequence, self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
            translated(shortcut, "setWhatsThis", said)
        on_language_changed(self, self.retranslate)

    def _connect(self) -> None:
        self.run_list.run_changed.connect(self._show_run_of_list)
        self.run_list.current_gone.connect(self._forget_unlisted_run)
        self.run_list.delete_requested.connect(lambda: self.delete_selected())
        self.transfers.imported.connect(self._imported)
        self.transfers.deleted.connect(self._deleted)
        self.transfers.ended.connect(self.transfer_ended)
        self.shown_step.workbench_wanted.connect(self.workbench_wanted)
        self.detail.replays.open_run.connect(lambda run_id: self.select_runs([run_id]))
        for sayer in (self.transfers, self.detail, self.notes, self.timeline_pane.identity, self.timeline_pane,
                      self.run_list, self.run_list.model, self.timeline):
            sayer.said.connect(self.status.say)
        self.timeline_pane.finder.unread.connect(self.status.say)
        self.timeline_pane.restated.connect(self._restate)
        self.timeline_pane.note_button.clicked.connect(self.edit_run_note)
        self.notes.run_note_written.connect(lambda _run_id: self.reload())

    def retranslate(self) -> None:
        """Say again what depends on the state, in the new language; make room for longer words."""
        self.run_list.retranslate()
        self.timeline_pane.retranslate()

    def _restate(self, before: str, now: str) -> None:
        """Find's sentence ``before`` no longer holds (another run, another text) or reads ``now`` in another
        language: ``now`` in its place (``""``: none), unless the status line says something else since."""
        if self.status.text() == before:
            self.status.say(now)

    def fit_columns(self) -> None:
        self.run_list.fit_columns()
        self.timeline_pane.fit_columns()

    # -- arrangement ------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        super().showEvent(event)
        self.arrangement.shown()
        self.freshness.shown()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self.arrangement.resized(event.size().width())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        # As wide as its widest pane: a narrow tab puts the detail under the timeline (see .arrangement).
        return least_size(super().minimumSizeHint(), [self.run_list, self.timeline_pane, self.detail])

    # -- the run list and the timeline -----------------------------------------------------------

    def reload(self) -> None:
        """Read the list again (keeps the selected run selected when it is still listed)."""
        self.run_list.reload()

    def _show_run_of_list(self, run: RunRecord | None, keep: bool) -> None:
        self._show_run(run, keep=keep)

    def _show_run(self, run: RunRecord | None, *, keep: bool = False) -> None:
        same = keep and run is not None and self.timeline.run is not None and self.timeline.run.id == run.id
        self.timeline_pane.show_run(run, keep=keep, growth=self._growth)
        if not same:
            self.run_selected.emit(run.id if run is not None else -1)

    def _forget_unlisted_run(self) -> None:
        if self.timeline.run is not None and self.runs.row_of(self.timeline.run.id) is None:
            self._show_run(None)

    def edit_run_note(self) -> None:
        """Ask for the note of the run the timeline shows, and keep it."""
        run = self.timeline.run
        if run is not None:
            self.notes.edit_run_note(run.id, run.note)

    def select_runs(self, run_ids: Sequence[int]) -> bool:
        """Select these runs (the first becomes current), clearing filters that hide them."""
        return self.run_list.select_runs(run_ids)

    def selected_run_ids(self) -> list[int]:
        return self.run_list.selected_run_ids()

    def current_run(self) -> RunRecord | None:
        return self.run_list.current_run()

    def clear_filters(self) -> None:
        self.run_list.clear_filters()

    # -- live updates -----------------------------------------------------------------------------

    def _database_changed(self) -> None:
        self.reload()
        self.shown_step.show_replays()

    def _live_question(self, force: bool) -> LiveQuestion:
        """What the tab shows, for a live read on the reader thread."""
        runs, current, asked = self.runs, self.current_run(), self.timeline.growth_question()
        return LiveQuestion(runs.filter, runs.order, runs.descending, runs.live_limit(),
                            current.id if current is not None else None,
                            TimelineQuestion(*asked) if asked is not None else None,
                            self.detail.step, self.detail.parsed, force, current_language(), runs.known_reasons(),
                            runs.shown_rows(), tuple(self.run_list.selected_run_ids()))

    def _show_live(self, answer: LiveAnswer) -> None:
        """Lay out a live read: the list, the growing run's new rows, the shown step's replays."""
        self._growth = answer.growth
        try:
            self.run_list.show_listing(answer.listing, answer.servers)
        finally:
            self._growth = None
        if answer.replays is not None and self.detail.step is not None:
            self.detail.replays.show_sides(answer.replays)

    def watch(self, engine: QObject) -> None:
        """Read the list soon after an operation of the workbench starts or ends (once for a burst)."""
        self.freshness.watch(engine)

    # -- transfers --------------------------------------------------------------------------------

    @property
    def job(self) -> TransferJob | None:
        return self.transfers.job

    @property
    def dialog(self) -> TransferDialog | None:
        return self.transfers.dialog

    @property
    def last_error(self) -> str | None:
        return self.transfers.last_error

    @property
    def error_box(self) -> QMessageBox | None:
        return self.transfers.error_box

    def choose_trace(self) -> None:
        self.transfers.choose_trace()

    def open_trace(self, path: Path) -> TransferJob | None:
        """Import ``path`` in a worker (with a progress dialog); then select its runs."""
        return self.transfers.open_trace(path)

    def _imported(self, run_ids: list[int]) -> None:
        self.run_list.reload(aside=False)  # listed before they are selected: a search that finds them is kept
        self.run_list.select_imported(run_ids)

    def choose_export(self, selected_only: bool) -> None:
        self.transfers.choose_export(self.selected_run_ids() if selected_only else self.runs.run_ids())

    def export_runs(self, destination: Path, file_format: str,
                    run_ids: Sequence[int] | None = None) -> TransferJob | None:
        """Export ``run_ids`` (default: the selected runs, else the listed ones) in a worker."""
        if run_ids is None:
            run_ids = self.selected_run_ids() or self.runs.run_ids()
        return self.transfers.export_runs(destination, file_format, run_ids)

    def delete_selected(self, *, confirm: bool = True) -> TransferJob | None:
        """Delete the selected runs, after a confirmation naming how many, in a worker (a run of
        100,000 steps takes a while to delete); ``transfer_ended`` says how many went."""
        run_ids = self.selected_run_ids()
        if not run_ids:
            return None
        return self.transfers.confirm_delete(run_ids) if confirm else self.transfers.delete_runs(run_ids)

    def delete_runs(self, run_ids: Sequence[int]) -> TransferJob | None:
        """Delete these runs in a worker (no question asked)."""
        return self.transfers.delete_runs(run_ids)

    def _deleted(self) -> None:
        self.run_list.clear_selection()
        self.run_list.reload(aside=False)  # the runs deleted leave the list at once, a search set or not
        self._forget_unlisted_run()

    def cancel_transfer(self) -> None:
        self.transfers.cancel()

    def accept_drops_on(self, widget: QWidget) -> None:
        """Let trace files dropped anywhere on ``widget`` (the window) be imported."""
        widget.setAcceptDrops(True)
        self._drop_filter = DropFilter(self.transfers, self.show_me)
        widget.installEventFilter(self._drop_filter)

    def show_me(self) -> None:
        """Bring this tab to the front of the tab widget it lives in."""
        parent = self.parentWidget()
        while parent is not None:
            if isinstance(parent, QTabWidget):
                parent.setCurrentWidget(self)
                return
            parent = parent.parentWidget()

    def shut_down(self) -> None:
        """Stop polling and a search typed a moment ago (the database closes next); cancel a transfer and
        wait for it briefly (it writes nothing once cancelled)."""
        self.freshness.stop()
        self.timeline_pane.finder.shut_down()
        self.timeline_pane.model.stop_layouts()
        self.run_list.shut_down()
        self.transfers.shut_down()


__all__ = ["RunsTab", "dropped_files"]
