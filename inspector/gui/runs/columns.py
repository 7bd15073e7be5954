"""Column widths of the Runs tab's tables: wide enough for their heading and their longest usual
word in the current language (German words are longer), never narrower than a least width."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QHeaderView, QLayout, QTableView

if TYPE_CHECKING:
    from .said_outcomes import SaidOutcomes

#: Room beside a word for an outcome's icon and the cell's padding.
ICON_ROOM_PX = 30
#: Room beside a heading for the sort arrow (sortable tables) or the padding alone.
SORT_ARROW_PX = 26
PADDING_PX = 12
#: Height of a row: a line of text and a little air, so many rows fit (the run list's ten at least).
ROW_PX = 20


def compact_rows(view: QTableView) -> None:
    """One line per row at :data:`ROW_PX`, the same for every row (the view never measures them)."""
    rows = view.verticalHeader()
    rows.hide()
    rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    rows.setMinimumSectionSize(ROW_PX)
    rows.setDefaultSectionSize(max(ROW_PX, view.fontMetrics().height() + 4))
    view.setWordWrap(False)


def view_chrome(view: QTableView, width: int | None = None) -> int:
    """The height of ``view`` beside its rows: its column heads, its frame and, where the columns are wider
    than the view (``width`` wide, or as wide as it is), the sideways scroll bar under the rows."""
    room = view.viewport().width() if width is None else width - 2 * view.frameWidth()
    sideways = view.horizontalHeader().length() > room
    bar = view.horizontalScrollBar().sizeHint().height() if sideways else 0
    return view.horizontalHeader().sizeHint().height() + 2 * view.frameWidth() + bar


def rows_height(layout: QLayout, view: QTableView, rows: int) -> int:
    """The height of a pane laid out by ``layout`` that shows ``rows`` whole rows of ``view`` (and a sliver of
    the next) under what stands above them."""
    margins = layout.contentsMargins()
    above = [layout.itemAt(index) for index in range(layout.count())]
    above = [item for item in above if item.widget() is not view and not item.isEmpty()]
    row = view.verticalHeader().defaultSectionSize()
    return (margins.top() + margins.bottom() + sum(item.sizeHint().height() for item in above)
            + layout.spacing() * len(above) + view_chrome(view) + row * rows + row // 4)


def fit_columns(view: QTableView, least: Sequence[int], samples: Mapping[int, Sequence[str]], *,
                sortable: bool = False, icons: Sequence[int] = ()) -> None:
    """Widen each column that does not stretch to its heading and its ``samples``; ``icons`` are the
    columns whose cells show an icon before the word."""
    for column, width in enumerate(least):
        fit_column(view, column, width, samples.get(column, ()), sortable=sortable, icon=column in icons)


def fit_column(view: QTableView, column: int, least: int, samples: Sequence[str], *, sortable: bool = False,
               icon: bool = False) -> None:
    """Widen ``column`` (unless it stretches) to :func:`column_width`."""
    header = view.horizontalHeader()
    if header.sectionResizeMode(column) == QHeaderView.ResizeMode.Stretch or column == view.property(_ROOMY):
        return
    view.setColumnWidth(column, column_width(view, column, least, samples, sortable=sortable, icon=icon))


def column_width(view: QTableView, column: int, least: int, samples: Sequence[str], *, sortable: bool = False,
                 icon: bool = False) -> int:
    """The width ``column`` needs for its heading and its ``samples``, at least ``least``; ``icon``: its
    cells show an icon before the word."""
    heading = str(view.model().headerData(column, Qt.Orientation.Horizontal) or "")
    room = ICON_ROOM_PX if icon else PADDING_PX
    return max([least, view.horizontalHeader().fontMetrics().horizontalAdvance(heading)
                + (SORT_ARROW_PX if sortable else PADDING_PX)]
               + [view.fontMetrics().horizontalAdvance(word) + room for word in samples])


def outcome_column_width(view: QTableView, column: int, least: int, said: SaidOutcomes, growth: float) -> int:
    """An Outcome column's width: as wide as its words in the run shown ("failed: timed out" is longer than
    "failed") up to ``growth`` times what its usual words need, else as wide as their kinds of failure alone
    ("timed out", which its cells then say)."""
    usual = column_width(view, column, least, said.usual(), icon=True)
    width = column_width(view, column, least, said.whole(), icon=True)
    return column_width(view, column, least, said.least(), icon=True) if width > usual * growth else width


_ROOMY = "roomyColumn"


class RoomyColumn(QObject):
    """One column of ``view`` takes the width the others leave, as a stretching column would, but
    never less than ``floor`` pixels: in a narrow window the ``givers`` (column → its own floor)
    first give up width they do not need, then the ``spares`` are hidden in turn (the timeline's waterfall),
    then the table scrolls sideways, instead of squeezing that column (a run's title, say) to a sliver while
    the others keep their widths. A giver in ``keeps`` (column → a width) gives way already where the column
    would be narrower than that width (a run's status gives up its reason before the title is cut far); the
    givers give way in the order given."""

    #: The spares hidden for want of room are others now (:meth:`spared`).
    spared_changed = Signal()

    def __init__(self, view: QTableView, column: int, floor: int, givers: Mapping[int, int] | None = None,
                 keeps: Mapping[int, int] | None = None, spares: Sequence[int] = ()) -> None:
        super().__init__(view)
        self._view, self._column, self._floor = view, column, floor
        self._givers = dict(givers or {})
        self._keeps = dict(keeps or {})
        self._spares = tuple(spares)
        #: The spares hidden for want of room, with their widths (a hidden section has none).
        self._spared: dict[int, int] = {}
        #: The width each spare had before the user's hand widened it: what it gives back before it is hidden.
        self._spare_least: dict[int, int] = {}
        self._owner_fitting = False
        header = view.horizontalHeader()
        #: The width each giver has when it has room: set by fit_columns or by the user's hand.
        self._wanted = {column: header.sectionSize(column) for column in self._givers}
        self._fitting = False
        view.setProperty(_ROOMY, column)  # fit_columns leaves it to this
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
        header.sectionResized.connect(self._resized)
        view.viewport().installEventFilter(self)

    def set_floors(self, floors: Mapping[int, int]) -> None:
        """Givers' floors are others now (their words in another language, the runs listed), or the column's own
        (its font), and the widths follow."""
        self._floor = floors.get(self._column, self._floor)
        self._givers.update((column, floor) for column, floor in floors.items() if column != self._column)
        self.fit()

    def hide_anyway(self, column: int, hidden: bool) -> None:
        """Hide ``column`` for a reason of the owner's (a run without rounds: never shown for room), or no longer
        (then it shows where there is room for it)."""
        if hidden:
            if self._spared.pop(column, None) is not None:
                self.spared_changed.emit()
            self._view.setColumnHidden(column, True)
        elif column not in self._spared and self._view.isColumnHidden(column):
            self._view.setColumnHidden(column, False)
            self.fit()

    @contextmanager
    def owner_fitting(self) -> Iterator[None]:
        """Widths the owner gives (fitted to their words) while this lasts are no user's hand: a spare given its
        width anew has no room of the user's to give back."""
        self._owner_fitting = True
        try:
            yield
        finally:
            self._owner_fitting = False
            self._spare_least.clear()

    @property
    def fitting(self) -> bool:
        """Whether the widths set now are this one's (the column's room given, givers and spares fitted)."""
        return self._fitting

    def spared(self) -> list[int]:
        """The spares hidden for want of room now, in the order they give way."""
        return [column for column in self._spares if column in self._spared]

    def wanted(self, column: int) -> int:
        """The width ``column`` has where there is room (0: hidden for a reason of the owner's)."""
        if column in self._spared:
            return self._spared[column]
        return self._wanted.get(column, self._view.horizontalHeader().sectionSize(column))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return False

    def _resized(self, column: int, old: int, new: int) -> None:
        if self._fitting or column == self._column:
            return
        if column in self._givers:
            self._wanted[column] = new
        elif column in self._spares and not self._owner_fitting:  # widened by hand, it gives that room back first
            self._spare_least[column] = min(self._spare_least.get(column, old), new)
        self.fit()

    def fit(self) -> None:
        """Give the column the room the visible others leave, at least its floor, the givers
        shrinking toward their floors first, then the spares hidden."""
        if self._fitting:  # a spare shown or hidden while fitted
            return
        header = self._view.horizontalHeader()
        self._fitting = True
        try:
            self._spare(header)
            shown = [column for column in range(header.count())
                     if column != self._column and not header.isSectionHidden(column)]
            givers = [column for column in self._givers if column in shown]
            room = self._view.viewport().width() - sum(header.sectionSize(column) for column in shown
                                                       if column not in self._givers)
            widths = {column: self._wanted[column] for column in givers}
            for column in givers:
                short = self._keeps.get(column, self._floor) - (room - sum(widths.values()))
                widths[column] -= min(max(short, 0), max(widths[column] - self._givers[column], 0))
                header.resizeSection(column, widths[column])
            width = max(self._floor, room - sum(header.sectionSize(column) for column in givers))
            if header.sectionSize(self._column) != width:
                header.resizeSection(self._column, width)
        finally:
            self._fitting = False

    def _spare(self, header: QHeaderView) -> None:
        """Hide the spares in turn where the others, the givers at their floors and the spares at the widths they
        had before the user's hand widened them, leave the column less than its floor; show them again where they
        leave it room. A spare widened by hand gives back that room first (dragged past the room there is, the
        waterfall was hidden at once, and a hidden column has no edge to drag back)."""
        if not self._spares:
            return
        for column in self._spared:  # shown, each has the width it was last given (hidden, it was given one too)
            header.showSection(column)
        others = {column: self._givers.get(column) or header.sectionSize(column) for column in range(header.count())
                  if column != self._column and not header.isSectionHidden(column)}
        least = {column: min(others[column], self._spare_least.get(column, others[column]))
                 for column in self._spares if column in others}
        room = self._view.viewport().width()
        needed = self._floor + sum(others.values()) - sum(others[column] - least[column] for column in least)
        spared = {}
        for column in self._spares:
            if column in others and needed > room:
                spared[column] = header.sectionSize(column)
                needed -= least.pop(column)
                header.hideSection(column)
        changed, self._spared = spared.keys() != self._spared.keys(), spared
        if changed:
            self.spared_changed.emit()
        over = self._floor + sum(width for column, width in others.items() if column not in spared) - room
        for column, width in least.items():
            given = min(max(over, 0), others[column] - width)
            if given:
                header.resizeSection(column, others[column] - given)
                over -= given


__all__ = ["ROW_PX", "RoomyColumn", "column_width", "compact_rows", "fit_column", "fit_columns", "outcome_column_width",
           "view_chrome"]
