"""The widths of the timeline's columns: each as wide as its heading and the words the run shown says in it, in the
language of the moment (German's are longer), the Outcome column as wide as its whole words ("failed: timed out")
where the details keep their room. The Details column takes the room the others leave, never less than
:data:`DETAILS_FLOOR_CHARS` characters (a step's title cut short ends in "…", its tooltip whole), and the timeline
never scrolls sideways: in a narrow pane (16 pt at 1,024 px: the columns wanted 863 px of 738, the details a sliver)
the Outcome column first gives up the room of its whole words (a cell says its kind of failure alone, "timed out",
its tooltip whole), then the waterfall is hidden, then the Round column (the step's detail times the step and names
its round). The source column is hidden below :data:`SOURCE_COLUMN_FROM_PX` (the kind says it too)."""

from __future__ import annotations

from datetime import UTC

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QHeaderView, QTableView

from ..widgets.font_follower import font_scale
from ..widgets.plain_text import plain_tooltip
from .columns import PADDING_PX, RoomyColumn, column_width, fit_column, fit_columns, outcome_column_width
from .hand_widths import HandWidths
from .timeline_cells import format_time
from .timeline_model import COLUMNS, OUTCOME_COLUMN, WATERFALL_COLUMN, TimelineModel
from .timeline_words import no_room_text

#: The columns' least widths; :meth:`TimelineColumns.fit` widens them for longer words (German).
TIMELINE_WIDTHS = (94, 46, 44, 40, 60, 96, 160, 100)
TIME_COLUMN, KIND_COLUMN, DURATION_COLUMN = COLUMNS.index("time"), COLUMNS.index("kind"), COLUMNS.index("duration")
SOURCE_COLUMN, ROUND_COLUMN, DETAILS_COLUMN = COLUMNS.index("source"), COLUMNS.index("round"), COLUMNS.index("details")
#: How much wider than for its usual words the Outcome column grows for "failed: timed out" at most:
#: where the whole words need more (German's "fehlgeschlagen: Zeitüberschreitung"), its cells say the
#: kind of failure alone and the details keep their room, at any width of the window.
WHOLE_OUTCOME_GROWTH = 1.5
#: Below this width the source column is hidden: the kind says it too (a tool call is the MCP
#: client's, a model's step the agent's), and the details need the room more.
SOURCE_COLUMN_FROM_PX = 760
#: The Details column keeps room for this many characters of a step's title ("echo: Hallo Welt") before the columns
#: it may do without are hidden.
DETAILS_FLOOR_CHARS = 10


class TimelineColumns(QObject):
    """Fits the columns of ``view`` (showing ``model``); ``fitted`` says their widths may be others now."""

    fitted = Signal()

    def __init__(self, view: QTableView, model: TimelineModel) -> None:
        super().__init__(view)
        self.view, self.model = view, model
        #: Whether the Time column was last fitted to times with their date (a run over more than one day).
        self.dated_fitted = False
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate(TIMELINE_WIDTHS):
            view.setColumnWidth(column, width)
        header.setStretchLastSection(False)
        header.setMinimumSectionSize(36)
        # The details take what room there is; the Outcome column gives way first, then the waterfall and the round
        # are hidden (the waterfall shows wherever the details keep their floor beside it).
        self.details_room = RoomyColumn(view, DETAILS_COLUMN, self._details_floor(),
                                        {OUTCOME_COLUMN: TIMELINE_WIDTHS[OUTCOME_COLUMN]},
                                        spares=(WATERFALL_COLUMN, ROUND_COLUMN))
        # A column the user widened keeps that width where the columns are fitted again (another run, language, font).
        self.hands = HandWidths(header, (TIME_COLUMN, SOURCE_COLUMN, KIND_COLUMN, DURATION_COLUMN, OUTCOME_COLUMN),
                                lambda: self.details_room.fitting)
        # Where they gave their room to the details, the Details heading's tip says so (nothing else on screen does).
        model.set_heading_tip(DETAILS_COLUMN, self._no_room)
        self.details_room.spared_changed.connect(
            lambda: model.headerDataChanged.emit(Qt.Orientation.Horizontal, DETAILS_COLUMN, DETAILS_COLUMN))

    def _no_room(self) -> str | None:
        spared = self.details_room.spared()
        said = no_room_text(WATERFALL_COLUMN in spared, ROUND_COLUMN in spared)
        return plain_tooltip(said) if said else None  # wrapped: on one line it was wider than the window

    def _details_floor(self) -> int:
        return self.view.fontMetrics().averageCharWidth() * DETAILS_FLOOR_CHARS + PADDING_PX

    def fit(self) -> None:
        """Every column fitted to its words in the language and the font of the moment."""
        # The waterfall grows with a zoom as its axis' labels do (at 150 % its 100 px read "0" alone).
        least = [*(self.hands.least(column, width) for column, width in enumerate(TIMELINE_WIDTHS[:WATERFALL_COLUMN])),
                 round(TIMELINE_WIDTHS[WATERFALL_COLUMN] * max(font_scale(self.view), 1.0))]
        with self.details_room.owner_fitting(), self.hands.owning():
            fit_columns(self.view, least, {TIME_COLUMN: self.time_samples(), **self._said_samples()})
        self.details_room.set_floors({DETAILS_COLUMN: self._details_floor()})
        self.fit_outcome()

    def time_samples(self) -> list[str]:
        dated = self.dated_fitted = self.model.dated
        return self.model.zone_marks.samples(lambda at: format_time(at, UTC, dated))

    def fit_time(self) -> None:
        """The Time column fitted again where the run shown says its steps' dates and the column was not fitted to
        them, or the other way round."""
        if self.model.dated != self.dated_fitted:
            with self.hands.owning():
                fit_column(self.view, TIME_COLUMN, self.hands.least(TIME_COLUMN, TIMELINE_WIDTHS[TIME_COLUMN]),
                           self.time_samples())

    def _said_samples(self) -> dict[int, list[str]]:
        words = self.model.column_words
        return {KIND_COLUMN: words.kinds(), DURATION_COLUMN: words.durations(), SOURCE_COLUMN: words.sources()}

    def fit_said(self) -> None:
        """The Kind and Duration columns as wide as the words their cells said for the run shown, in the language
        of the moment."""
        with self.hands.owning():
            for column, samples in self._said_samples().items():
                fit_column(self.view, column, self.hands.least(column, TIMELINE_WIDTHS[column]), samples)
        self.fitted.emit()

    def fit_outcome(self) -> None:
        """The Outcome column as wide as its words in the run shown (:func:`.columns.outcome_column_width`); where
        the details need its room, as wide as its words with the kinds of failure alone (a word is never cut)."""
        said, least = self.model.said_outcomes, self.hands.least(OUTCOME_COLUMN, TIMELINE_WIDTHS[OUTCOME_COLUMN])
        with self.hands.owning():
            self.view.setColumnWidth(OUTCOME_COLUMN, outcome_column_width(
                self.view, OUTCOME_COLUMN, least, said, WHOLE_OUTCOME_GROWTH))
        self.details_room.set_floors({OUTCOME_COLUMN: column_width(
            self.view, OUTCOME_COLUMN, TIMELINE_WIDTHS[OUTCOME_COLUMN], said.least(), icon=True)})
        self.fitted.emit()

    def fit_source(self, width: int) -> None:
        """The source column hidden where the pane (``width`` wide) is narrow for its font (its words at a zoom
        too)."""
        with self.hands.owning():
            self.view.setColumnHidden(SOURCE_COLUMN, width < self.source_from_px())

    def source_from_px(self) -> float:
        return SOURCE_COLUMN_FROM_PX * max(font_scale(self.view), 1.0)

    def hide_round(self, hidden: bool) -> None:
        """A run without rounds (one operation, a trace) would show a column of dashes: its room goes to the
        details."""
        self.details_room.hide_anyway(ROUND_COLUMN, hidden)

    def others_width(self) -> int:
        """The width of the columns but the details and the source, as wide as they are where there is room."""
        return sum(self.details_room.wanted(column) for column in range(self.view.horizontalHeader().count())
                   if column not in (DETAILS_COLUMN, SOURCE_COLUMN))


__all__ = ["DETAILS_FLOOR_CHARS", "SOURCE_COLUMN_FROM_PX", "TIMELINE_WIDTHS", "WHOLE_OUTCOME_GROWTH",
           "TimelineColumns"]
