"""The widths of the played run's columns: the fixed ones grow with the font (a zoom for an audience,
a large desktop font) and never go below their header's words; the State column widens to the
words of its rows ("failed: unreachable · 0.002 s", longer in German), so nothing there is cut; the
column of what happened takes the rest, and the table scrolls sideways before its heading is cut."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize
from PySide6.QtWidgets import QHeaderView, QStyle, QTableView

from .run_state import PlayRow
from .steps_model import COLUMNS, PlayStepsModel, maker_text

#: The fixed columns' widths for a font whose line is ``WIDTHS_EM`` pixels high.
WIDTHS = {"round": 56, "maker": 80, "state": 190, "budget": 220}
WIDTHS_EM = 14
STATE_COLUMN = COLUMNS.index("state")
BUDGET_COLUMN = COLUMNS.index("budget")
#: The mini bars' least width (at ``WIDTHS_EM``), and their share of a narrow table (a projector's
#: 1024 pixels): the column of what happened keeps its room.
BUDGET_LEAST, BUDGET_SHARE = 110, 0.22
#: The outcome marks' least size (the style's small icon at the usual font).
ICON_LEAST = 16
#: A row's height beyond its line of words.
ROW_PADDING = 8


class StepColumns(QObject):
    """Fits ``view``'s columns (``model``'s steps) to the font, the language, the width and the rows shown."""

    def __init__(self, view: QTableView, model: PlayStepsModel) -> None:
        super().__init__(view)
        self.view, self.model = view, model
        view.horizontalHeader().setSectionResizeMode(COLUMNS.index("what"), QHeaderView.ResizeMode.Stretch)
        view.viewport().installEventFilter(self)
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            self.view.setColumnWidth(BUDGET_COLUMN, self.width("budget"))
            self.fit_what()
        return False

    def fit(self) -> None:
        """The fixed columns at the font and language of now; the State column then fits its rows.
        The outcome marks grow with the font as the words beside them do (at 16 pt a 16-pixel ⊘ or ✗
        was half as high as "cancelled" beside it: the mark that tells the two apart at a glance)."""
        metrics = self.view.fontMetrics()
        mark = max(ICON_LEAST, metrics.ascent())
        self.view.setIconSize(QSize(mark, mark))
        self.view.verticalHeader().setDefaultSectionSize(max(metrics.height(), mark) + ROW_PADDING)
        for column in WIDTHS:
            self.view.setColumnWidth(COLUMNS.index(column), self.width(column))
        self.fit_state(0, self.model.rowCount() - 1)
        self.fit_what()

    def fit_what(self) -> None:
        """The column of what happened takes the room the others leave, never less than its heading's
        words: a narrower table scrolls sideways (at 200 % on a 1,280 by 720 screen the German heading
        "Was geschah" read "Vas gescha")."""
        header, what = self.view.horizontalHeader(), COLUMNS.index("what")
        others = sum(self.view.columnWidth(column) for column in range(len(COLUMNS))
                     if column != what and not self.view.isColumnHidden(column))
        least = header.sectionSizeHint(what)
        if self.view.viewport().width() - others >= least:
            header.setSectionResizeMode(what, QHeaderView.ResizeMode.Stretch)
        else:
            header.setSectionResizeMode(what, QHeaderView.ResizeMode.Interactive)
            self.view.setColumnWidth(what, least)

    def restart(self) -> None:
        """A new run: the State column as narrow as its words allow again."""
        self.view.setColumnWidth(STATE_COLUMN, self.width("state"))

    def fit_state(self, first: int, last: int) -> None:
        """Widen the State column to the whole words of rows ``first`` to ``last``; it never narrows
        while a run is shown (it does not jump) and takes at most two fifths of the table: on a
        projector's 1024 pixels a third cut "fehlgeschlagen: nicht gesendet · 3,…", while what happened
        is cut with its whole sentence in the tooltip."""
        hints = (self.view.sizeHintForIndex(self.model.index(row, STATE_COLUMN)).width()
                 for row in range(first, last + 1))
        needed = max(hints, default=0) + 2 * self._margin()
        room = max(self.width("state"), self.view.viewport().width() * 2 // 5)
        if needed > self.view.columnWidth(STATE_COLUMN):
            self.view.setColumnWidth(STATE_COLUMN, min(needed, room))
            self.fit_what()

    def width(self, column: str) -> int:
        """A fixed column's width at the view's font, at least its header's words (and for the
        column of the steps' kinds, its rows' words: "request", "Anfrage")."""
        index = COLUMNS.index(column)
        em = self.view.fontMetrics().height() / WIDTHS_EM
        scaled = round(WIDTHS[column] * em)
        if column == "budget":  # narrower in a narrow table, down to its least
            scaled = max(round(BUDGET_LEAST * em), min(scaled, round(self.view.viewport().width() * BUDGET_SHARE)))
        words = self.view.horizontalHeader().sectionSizeHint(index)
        if column == "maker":
            metrics = self.view.fontMetrics()
            words = max(words, *(metrics.horizontalAdvance(maker_text(PlayRow(kind, 0))) + 2 * self._margin() + 4
                                 for kind in ("model", "tool", "list")))
        return max(scaled, words)

    def _margin(self) -> int:
        return self.view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 1
