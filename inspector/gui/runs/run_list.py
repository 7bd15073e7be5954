"""The Runs tab's upper pane: the filters (outcome, server, source, text) and the list of stored
runs, with the selection that follows the runs (not the rows) when the list is read anew."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _, current_language
from inspector.store import RunRecord, RunStore
from inspector.store.browse import RunFilter, servers_with_runs
from inspector.store.shown_first import shown_first

from ..language import translated
from ..widgets.empty_hint import EmptyHint
from ..widgets.font_follower import FontFollower
from ..widgets.keep_in_view import KeepCurrentInView
from ..widgets.tab_stops import one_tab_stop
from .columns import compact_rows, view_chrome
from .empty_runs import empty_list_words
from .plumbing_line import PlumbingTracesLine
from .row_selection import bring_into_view, select_rows, selected_ids, shown_rows
from .run_filters import RunFilterRow
from .run_list_columns import RunListColumns
from .run_listing import RunListing
from .run_search import RunSearch, SearchQuestion
from .run_table import RunTable
from .runs_model import COLUMNS, RunListModel
from .server_choices import chosen_server, fill_server_filter, say_again, server_choices

#: Rows the list shows at least when the tab has the room (the splitter gives it that much).
VISIBLE_RUNS = 10


class RunListPane(QWidget):
    """The filters and the run list. Says which run is current; knows nothing of the timeline."""

    #: The current run changed: the run (or ``None``), and whether it is the same run read again.
    run_changed = Signal(object, bool)
    #: After the list was read anew the current run is no longer listed.
    current_gone = Signal()
    #: The user asked to delete the selected runs (the button or the Delete key).
    delete_requested = Signal()
    #: A search's runs were shown, read before a change the list saw meanwhile: it wants a live read again.
    search_overtaken = Signal()
    #: A sentence for the tab's status line (:data:`~..widgets.said_line.Words`): why a search was not done.
    said = Signal(object)
    #: The height that shows its rows changed (:meth:`height_for_rows`): the line over them came or went.
    room_changed = Signal()

    def __init__(self, store: RunStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.model = RunListModel(store)
        self._servers: list[tuple[str, bool]] = []  # the addresses the server filter lists (and their kinds)
        self._build_filters()
        self._build_view()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 0)
        layout.setSpacing(2)
        layout.addLayout(self._filters)
        layout.addWidget(self.plumbing_line)
        layout.addWidget(self.view, 1)
        self._update_buttons()
        self.fit_columns()
        self.model.zone_marks.grew.connect(self.fit_columns)
        FontFollower(self.view, self.fit_columns)  # View › Zoom: the columns grow with their words

    def _build_filters(self) -> None:
        self._filters = RunFilterRow()
        row = self._filters
        self.outcome_filter, self.server_filter, self.source_filter = row.combos
        self.search, self.delete_button = row.search, row.delete_button
        self.delete_button.clicked.connect(self.delete_requested)
        row.changed.connect(self._filters_changed)
        # How many plumbing traces the filters left out (as `runs list` leaves them out), and the tick to list them.
        self.plumbing_line = PlumbingTracesLine()
        self.plumbing_line.toggled.connect(lambda _listing: self._filters_changed())
        self.plumbing_line.shown_changed.connect(self.room_changed)
        #: The search's reader (None: a search is read here, on the GUI thread, as a list without a window's is).
        self._search_reads: RunSearch | None = None
        #: The list was read again (a change seen) while a search was read: its answer may be older.
        self._read_while_searching = False
        self._closed = False  # the window shut down: its database is closed, the list is not read again

    def _build_view(self) -> None:
        # Told to a screen reader without reading every cell whose selection changed (25,000 runs selected).
        self.view = one_tab_stop(RunTable())
        translated(self.view, "setAccessibleName", lambda: _("Stored runs"))
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setSortingEnabled(True)
        self.view.horizontalHeader().setSortIndicator(COLUMNS.index("started"), Qt.SortOrder.DescendingOrder)
        compact_rows(self.view)
        header = self.view.horizontalHeader()
        # The headings do not follow the selection: at each paint Qt's header asks of every column whether
        # all its rows are selected, row by row (25,000 runs selected: 1-2 s a paint). Its selection stays empty.
        header.setSelectionModel(QItemSelectionModel(self.model, header))
        translated(header, "setAccessibleName", lambda: _("Run list columns (click to sort)"))
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        self.columns = RunListColumns(self.view, self.model)
        selection = self.view.selectionModel()
        selection.currentRowChanged.connect(self._current_changed)
        KeepCurrentInView(self.view)  # a smaller window does not hide the run the timeline shows
        selection.selectionChanged.connect(lambda *_args: self._update_buttons())
        # A new sort order reads the list anew: the selection follows the runs, not the rows.
        self._before_reset: tuple[list[int], int | None] = ([], None)
        self.model.modelAboutToBeReset.connect(self._remember_selection)
        self.model.reach = self._selected_and_current  # read as far as they are, to be selected again
        self.model.shown_rows = lambda: shown_rows(self.view)
        self.model.reset_done.connect(lambda anew: self._reselect(*self._before_reset, scroll=anew))
        # The Pushed column only once some run was queued for the team's collector (most never push).
        for signal in (self.model.reset_done, self.model.dataChanged, self.model.rowsInserted):
            signal.connect(self._show_pushed)
            signal.connect(self.columns.fit_listed)
        self.model.records_read.connect(self.columns.fit_listed)  # rows shown for the first time may say why
        self._show_pushed()
        delete = QShortcut(QKeySequence.StandardKey.Delete, self.view)
        # Each shortcut says what it does (the Help menu's list of shortcuts reads it).
        translated(delete, "setWhatsThis", lambda: _("Runs › Delete the selected runs"))
        delete.setContext(Qt.ShortcutContext.WidgetShortcut)
        delete.activated.connect(self.delete_requested)
        self.empty = EmptyHint(self.view, lambda: empty_list_words(self.model.filter, self.model.plumbing_traces))
        # Said anew, and by the empty list's words too (the list may stay as empty as it was).
        self.model.plumbing_counted.connect(lambda: self.plumbing_line.show_count(self.model.plumbing_traces))
        self.model.plumbing_counted.connect(self.empty.refresh)
        self.plumbing_line.show_count(self.model.plumbing_traces)  # read already, as the view's sort order was set

    def add_button(self, button: QPushButton) -> None:
        """Another action on the selected runs, before Delete (Compare: gui/runs/compare_launcher.py)."""
        self._filters.add_button(button)

    def retranslate(self) -> None:
        self._fill_servers(self._servers)  # the demo entry's name is said in the language now shown
        say_again(self.server_filter)
        # The search finds a scenario run's title as shown, in the reader's language ("Szenario" in German:
        # i18n.scenarios.shown_title_matches): asked again of its reader once the window has said its words
        # anew (the two would share the GIL).
        QTimer.singleShot(0, self, self._search_again)
        self.fit_columns()

    def _search_again(self) -> None:
        if self.model.filter.text.strip() and not self._closed:
            self.reload()

    def _show_pushed(self, *_args: object) -> None:
        self.view.setColumnHidden(COLUMNS.index("pushed"), not self.model.any_pushed)

    def fit_columns(self) -> None:
        """Columns wide enough for their heading and their longest usual word in the current language."""
        self.columns.fit()

    def height_for_rows(self, rows: int = VISIBLE_RUNS, width: int | None = None) -> int:
        """The pane's height that shows ``rows`` whole rows (and a sliver of the next) were it ``width`` wide."""
        row = self.view.verticalHeader().defaultSectionSize()
        margins = self.layout().contentsMargins()
        # As many lines of filters as the pane's width makes (Compare and Delete under the others in a narrow one).
        width = self.width() if width is None else width
        inner = max(width - margins.left() - margins.right(), 1)
        filters = self._filters.heightForWidth(inner) + self.layout().spacing()
        if self.plumbing_line.isVisibleTo(self):  # and the line of the plumbing traces, in as many lines as it takes
            filters += self.plumbing_line.heightForWidth(inner) + self.layout().spacing()
        # A sliver of the next row says there is more; a window too narrow for the title's floor shows a
        # sideways scroll bar under the rows.
        chrome = view_chrome(self.view, width - margins.left() - margins.right())
        return margins.top() + margins.bottom() + filters + chrome + row * rows + row // 4

    # -- what is listed -------------------------------------------------------------------------

    def current_filter(self) -> RunFilter:
        status = self.outcome_filter.currentData() or ""
        server = chosen_server(self.server_filter)
        return RunFilter(statuses=(status,) if status else (), server=server.server if server else None,
                         server_imported=server.imported if server else None,
                         source=self.source_filter.currentData() or None, text=self.search.text(),
                         plumbing_traces=None if self.plumbing_line.listing else False)

    def reload(self, *, aside: bool = True) -> None:
        """Read the list again (keeps the selected runs selected when they are still listed); a search's
        list on its reader thread, shown as it arrives (``aside=False``: here, listed on return)."""
        if aside and self._search_aside():
            return
        selected, current = self.selected_run_ids(), self.current_run()
        self._note_read()
        self.model.refresh()
        self._fill_servers(servers_with_runs(self.store))
        self._reselect(selected, current.id if current else None)
        self._update_buttons()

    def show_listing(self, listing: RunListing, servers: list[tuple[str, bool]]) -> None:
        """Show the list as a reader thread read it (keeps the selected runs selected)."""
        selected, current = self.selected_run_ids(), self.current_run()
        self._note_read()
        self.model.show_listing(listing)
        self._fill_servers(servers)
        self._reselect(selected, current.id if current else None)
        self._update_buttons()

    def _note_read(self) -> None:
        if self._search_reads is not None and self._search_reads.pending is not None:
            self._read_while_searching = True

    def _fill_servers(self, servers: list[tuple[str, bool]]) -> None:
        """The server filter's entries: the Server column's words (server_choices.py)."""
        self._servers = servers
        fill_server_filter(self.server_filter, server_choices(servers, self.model.names))

    def shut_down(self) -> None:
        """Forget a search typed and not yet applied, and read the list no more: the window closes, and
        its database with it (a search under way is broken off, not waited for to its end)."""
        self._filters.stop()
        self._closed = True
        if self._search_reads is not None:
            self._search_reads.break_off()

    def search_on_thread(self, db_path: Path) -> None:
        """Read a search's list on a reader thread of its own (it reads every run's steps)."""
        self._search_reads = RunSearch(db_path, self)
        self._search_reads.found.connect(self._show_found)
        self._search_reads.said.connect(self.said)
        self.model.read_aside = self._search_aside  # a click on a heading while a search is set

    def _search_aside(self) -> bool:
        """Ask the search's reader thread for the list when a search selects it (typed, or shown while the field
        is being cleared); the list stays, usable, until it arrives. False: read here (no search, no reader)."""
        where = self.current_filter()
        if self._search_reads is None or self._closed or not (where.text.strip() or self.model.filter.text.strip()):
            return False
        self._read_while_searching = False
        self._search_reads.ask(SearchQuestion(where, self.model.order, self.model.descending,
                                              tuple(self._selected_and_current()), current_language()))
        return True

    def _filters_changed(self) -> None:
        where = self.current_filter()
        if where.text.strip() and self._search_aside():
            return
        if self._search_reads is not None:
            self._search_reads.forget()
        self.model.filter = where
        self.model.refresh(reset=True)  # the runs selected are selected again as the reset ends (reset_done)

    def _show_found(self, question: SearchQuestion, listing: RunListing) -> None:
        if self._closed:
            return
        if question.filter != self.current_filter() or question.language != current_language() \
                or (question.order, question.descending) != (self.model.order, self.model.descending):
            if not self._filters.typing:  # sorted or another language meanwhile: asked again
                self._filters_changed()
            return  # (typed over: the text typed is asked for as the typing pauses)
        self.model.filter = question.filter
        self.model.reads += 1
        self.model.show_listing(listing, reset=True)
        if self._read_while_searching:  # read before a run written meanwhile: the live read missed it
            self._read_while_searching = False
            self.search_overtaken.emit()

    def clear_filters(self) -> None:
        if self._search_reads is not None:
            self._search_reads.forget()  # the list of a search asked before is not wanted now
        self._filters.clear()
        self.model.filter = self.current_filter()  # the plumbing traces listed or not, as they were
        self.empty.refresh()

    # -- the selection --------------------------------------------------------------------------

    def _reselect(self, run_ids: Sequence[int], current: int | None, *, scroll: bool = False) -> None:
        """Select these runs again where they are listed (the list read as far as the last of them),
        ``current`` the current one; ``scroll``: brought into view (a filter or sort order chosen)."""
        # The list was read as far as the runs selected (RunListModel.reach, a live read's length).
        current_row = self.model.ensure_loaded(current) if current is not None else None
        if current_row is None:
            # A model reset clears the selection without a selectionChanged: Delete… would stay
            # enabled with nothing selected (a filter that hides the selected runs).
            self._update_buttons()
            self.current_gone.emit()
            return
        rows = self.model.rows_of(run_ids)
        selection = self.view.selectionModel()
        selection.blockSignals(True)
        select_rows(self.view, self.model, rows, current_row)
        selection.blockSignals(False)
        self._update_buttons()  # selected again with signals blocked
        self.view.viewport().update()
        if scroll:
            bring_into_view(self.view, current_row)
        run = self.model.run(current_row)
        if run is not None:
            self.run_changed.emit(run, True)

    def _selected_and_current(self) -> list[int]:
        current = self.model.run_id(self.view.selectionModel().currentIndex().row())
        return [*self.selected_run_ids(), *([] if current is None else [current])]

    def _remember_selection(self) -> None:
        current = self.current_run()
        self._before_reset = (self.selected_run_ids(), current.id if current else None)

    def select_runs(self, run_ids: Sequence[int]) -> bool:
        """Select these runs (the first becomes current), clearing filters that hide them."""
        if not run_ids:
            return False
        self.model.ensure_all_loaded(run_ids)
        rows = self.model.rows_of(run_ids)
        if len(rows) < len(run_ids):  # some are not listed
            self.clear_filters()
            if self.plumbing_line.list_asked(self.store.db.conn, run_ids):  # a plumbing trace asked for is listed
                self.model.filter = self.current_filter()
            self.model.refresh(reset=True)
            self.model.ensure_all_loaded(run_ids)
            rows = self.model.rows_of(run_ids)
        if not rows:
            return False
        select_rows(self.view, self.model, rows, rows[0])
        self.view.scrollTo(self.model.index(rows[0], 0))
        self.run_changed.emit(self.model.run(rows[0]), False)
        return True

    def select_imported(self, run_ids: Sequence[int]) -> bool:
        """Select the runs of an import the list lists, the one to show first current (store/shown_first.py)."""
        return self.select_runs(shown_first(self.store, self.plumbing_line.listed_of(self.store.db.conn, run_ids)))

    def clear_selection(self) -> None:
        self.view.selectionModel().clearSelection()

    def selected_run_ids(self) -> list[int]:
        return selected_ids(self.view, self.model)

    def current_run(self) -> RunRecord | None:
        index = self.view.selectionModel().currentIndex()
        return self.model.run(index.row()) if index.isValid() else None

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.run_changed.emit(self.model.run(current.row()) if current.isValid() else None, False)

    def _update_buttons(self) -> None:
        # hasSelection, not selectedRows: that asks every selected row of every column (25,000 runs: 1.7 s)
        self.delete_button.setEnabled(self.view.selectionModel().hasSelection())


__all__ = ["RunListPane", "VISIBLE_RUNS"]
