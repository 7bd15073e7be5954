"""Where the Runs tab's panes sit: the step detail right of the timeline in a wide tab, under it in a
narrow one, and the run list about ten rows high (one above the other, the three panes share the
height: the list at most a quarter of it, the timeline five steps or two fifths of what is left, the
detail the rest; in a low tab the list and the timeline keep three rows each and the detail scrolls).

The tab is never held wider than its widest pane: one too narrow for the timeline and the detail side
by side puts the detail under the timeline instead (a German window would otherwise not fit a screen
1,024 pixels wide: its buttons and filters are longer than the English ones). The detail is never
narrower than the names of the tabs it shows, whole in the language of the moment (at 280 px seven tabs
read "Re…", "Argum…", "Se…"): a step that shows more tabs takes more of the width, or goes under the
timeline where both do not fit beside each other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSize, Qt, QTimer
from PySide6.QtWidgets import QSplitter, QWidget

from ..widgets.font_follower import FontFollower, font_scale
from ..widgets.up_down_scroll import UpDownScroll

if TYPE_CHECKING:
    from .run_list import RunListPane
    from .timeline_pane import TimelinePane

#: From this width on the step detail sits right of the timeline (when both fit); below it, under the
#: timeline (a narrow tab would otherwise squeeze the timeline's details column to nothing).
WIDE_PX = 900
#: One above the other: the run list's greatest share of the tab's height (side by side: three fifths); at
#: 1,024 by 768 pixels that is three runs, and the timeline shows five steps above the detail.
STACKED_LIST_SHARE = 1 / 4
#: One above the other: the steps the timeline shows, and its share of the height under the list when
#: that is more. Half of it left the detail its least height at 1,024 by 768 pixels, and the Wire tab
#: a row and a half of its legs; the detail, most of whose lines do not scroll, takes the rest (six
#: steps: a timeline scrolled to a step near its end still shows five whole).
STACKED_TIMELINE_ROWS = 6
STACKED_TIMELINE_SHARE = 2 / 5
#: One above the other in a low tab: the rows the run list and the timeline keep before the detail gets
#: more than its least (it scrolls). At 16 points on a 1,024 by 600 screen each showed one row.
STACKED_LEAST_ROWS = 3
#: Side by side: the timeline's least width before the detail takes more than its least (the timeline says
#: what its details column needs for a reason: ``wanted_width``), and the detail's least (more where the
#: names of its tabs need it: its own least width).
TIMELINE_WANTS_PX = 680
DETAIL_LEAST_PX = 280


def orientation_for(width: int, lower: QSplitter) -> Qt.Orientation:
    """Side by side from :data:`WIDE_PX` on (more as View › Zoom makes the words bigger: at 150 % a
    1,280-pixel window squeezed the timeline's details and waterfall to nothing beside the detail), when
    the panes of ``lower`` fit beside each other."""
    panes = [lower.widget(index) for index in range(lower.count())]
    beside = sum(getattr(pane, "least_width_beside", pane.minimumSizeHint().width)() for pane in panes) \
        + lower.handleWidth() * (len(panes) - 1)
    wide = round(WIDE_PX * max(font_scale(lower), 1.0))
    return Qt.Orientation.Horizontal if width >= max(wide, beside) else Qt.Orientation.Vertical


def least_size(laid_out: QSize, panes: list[QWidget]) -> QSize:
    """The tab's least size: as high as its layout needs, as wide as its widest pane alone in the tab
    (where it may need more than beside another: ``least_width_alone``)."""
    alone = [getattr(pane, "least_width_alone", pane.minimumSizeHint().width)() for pane in panes]
    return QSize(max(alone), laid_out.height())


def arrange_panes(split: QSplitter, lower: QSplitter, width: int, list_rows_px: int, timeline_rows_px: int,
                  least_rows_px: tuple[int, int] = (0, 0)) -> None:
    """Put ``lower`` (the timeline and the detail) side by side or one above the other for a tab
    ``width`` wide, and give the run list at the top of ``split`` ``list_rows_px`` (at most three fifths,
    or a quarter when the timeline and the detail stand one above the other). One above the other, the
    timeline gets ``timeline_rows_px`` (the height of :data:`STACKED_TIMELINE_ROWS` steps) or
    :data:`STACKED_TIMELINE_SHARE` of the height, whichever is more, and the detail the rest. In a low
    tab the list and the timeline keep ``least_rows_px`` (the heights of :data:`STACKED_LEAST_ROWS` rows
    of each) where the detail's least leaves the room; the detail scrolls."""
    wanted = orientation_for(width, lower)
    lower.setOrientation(wanted)
    for pane in (lower.widget(index) for index in range(lower.count())):
        getattr(pane, "stand_alone", lambda _alone: None)(wanted == Qt.Orientation.Vertical)
    height = max(split.height(), 100)
    # Stacked, ten rows of runs would leave the timeline and the detail at their least (at 1,024 by 768
    # pixels the timeline showed two steps of a trace under a list of one run and nine empty rows).
    share = STACKED_LIST_SHARE if wanted == Qt.Orientation.Vertical else 3 / 5
    listed = min(list_rows_px, int(height * share))
    list_least, timeline_least = least_rows_px
    if wanted == Qt.Orientation.Vertical:
        room = height - lower.minimumSizeHint().height() - split.handleWidth()
        listed = max(listed, min(list_least, room))
    split.setSizes([listed, height - listed])
    if wanted == Qt.Orientation.Horizontal:
        # The timeline keeps room for its details column to say a failed step's reason; the detail takes the
        # rest, up to two fifths (at 1,280 px it took 360 px beside a details column of 150: "flaky: Aufruf 2
        # ist fehlg…"), never less than its least.
        total = max(lower.width(), 100)
        least = max(DETAIL_LEAST_PX, lower.widget(1).minimumSizeHint().width())
        wants = max(round(TIMELINE_WANTS_PX * max(font_scale(lower), 1.0)),
                    getattr(lower.widget(0), "wanted_width", lambda: 0)())
        # The handle's room is taken first (the splitter shared its shortfall out: the timeline was 2 px short).
        total -= lower.handleWidth()
        detail = max(least, min(total - wants, total * 2 // 5))
    else:
        total = max(lower.height(), 100)
        detail = total - max(timeline_rows_px, int(total * STACKED_TIMELINE_SHARE))
        # The detail scrolls in a low window, but is shown whole where the timeline can spare the room.
        whole = getattr(lower.widget(1), "whole_height", lambda: 0)()
        spare = total - max(lower.widget(0).minimumSizeHint().height(), timeline_least) - lower.handleWidth()
        detail = max(detail, min(whole, spare))
        # The handle's room is taken first: the splitter would share its shortfall out, a few pixels too few for it.
        lower.setSizes([total - lower.handleWidth() - detail, detail])
        return
    lower.setSizes([total - detail, detail])


class PaneArrangement(QObject):
    """The tab's two splitters: the run list over ``lower``, which holds the timeline and the detail
    (scrolled up and down in a low window). They follow the tab's size (:meth:`arrange`) until the
    user drags a splitter (:attr:`user_split`); then the user decides."""

    def __init__(self, tab: QWidget, run_list: RunListPane, timeline: TimelinePane, detail: QWidget) -> None:
        super().__init__(tab)
        self.tab, self.run_list, self.timeline = tab, run_list, timeline
        self.arranged = self._arranging = self.user_split = False
        self.lower = QSplitter(Qt.Orientation.Horizontal)
        self.lower.addWidget(timeline)
        # A low window (a high scaling) scrolls the detail rather than being held as high as its lines.
        self.detail_scroll = UpDownScroll(detail)
        self.lower.addWidget(self.detail_scroll)
        self.detail_scroll.whole_changed.connect(self._detail_changed_height)
        # A step showing more tabs (or longer names) may no longer fit beside the timeline; fewer give room back.
        self.detail_scroll.least_width_changed.connect(lambda: self.arrange(tab.width(), force=not self.user_split))
        self.lower.setStretchFactor(0, 3)
        self.lower.setStretchFactor(1, 2)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(run_list)
        self.split.addWidget(self.lower)
        # The list keeps the height that shows ten runs; a taller window gives the rest to the timeline.
        self.split.setStretchFactor(0, 0)
        self.split.setStretchFactor(1, 1)
        self.split.setCollapsible(0, False)
        for splitter in (self.split, self.lower):
            splitter.splitterMoved.connect(self._splitter_moved)
        run_list.room_changed.connect(self._list_room_changed)  # ten rows under the plumbing traces' line too
        # The timeline's columns fitted to a run's words want another width for it (or, wider than the timeline,
        # a sideways scroll bar's height): the detail gives or takes the difference then, once, not at the next
        # step selected (the split moved as the keys walked a run).
        self._wanted = (0, 0)
        self._columns_settled = QTimer(self, singleShot=True, interval=0, timeout=self._timeline_wants)
        timeline.columns_fitted.connect(self._columns_settled.start)
        # View › Zoom: bigger words may not fit beside each other (once the user dragged a splitter, they decide).
        FontFollower(tab, lambda: self.user_split or self.resized(tab.width()))

    def shown(self) -> None:
        self.arrange(self.tab.width(), force=not self.arranged)

    def resized(self, width: int) -> None:
        # Until the user drags a splitter, the panes follow the tab's size; then the user decides.
        self.arrange(width, force=not self.user_split)

    def _detail_changed_height(self) -> None:
        """One above the other, the detail's share is its whole height where the timeline can spare it."""
        if not self.user_split and self.lower.orientation() == Qt.Orientation.Vertical:
            self.arrange(self.tab.width(), force=True)

    def _list_room_changed(self) -> None:
        """The list's rows need another height (a line over them came or went): arranged again, unless the user
        dragged a splitter, or the tab was not arranged yet (it is as it is shown)."""
        if self.arranged and not self.user_split:
            self.arrange(self.tab.width(), force=True)

    def _timeline_room(self) -> tuple[int, int]:
        """The timeline's width wanted beside the detail, and its height for its least rows under the list."""
        return self.timeline.wanted_width(), self.timeline.height_for_rows(STACKED_LEAST_ROWS)

    def _timeline_wants(self) -> None:
        """Arranged again where the timeline wants another room than it was arranged for."""
        if self.arranged and not self.user_split and self._timeline_room() != self._wanted:
            self.arrange(self.tab.width(), force=True)

    def _splitter_moved(self) -> None:
        if not self._arranging:
            self.user_split = True

    def arrange(self, width: int, *, force: bool = False) -> None:
        """The detail right of the timeline in a wide tab, under it in a narrow one; the list ten rows high."""
        if self.lower.orientation() == orientation_for(width, self.lower) and self.arranged and not force:
            return
        self.arranged, self._arranging = True, True
        self._wanted = self._timeline_room()
        # The list is as wide as the tab (its filters take as many lines as that width makes).
        listed = self.run_list.height_for_rows(width=width)
        least = (self.run_list.height_for_rows(STACKED_LEAST_ROWS, width),
                 self.timeline.height_for_rows(STACKED_LEAST_ROWS))
        arrange_panes(self.split, self.lower, width, listed,
                      self.timeline.height_for_rows(STACKED_TIMELINE_ROWS), least)
        self._arranging = False


__all__ = ["DETAIL_LEAST_PX", "STACKED_LEAST_ROWS", "STACKED_LIST_SHARE", "STACKED_TIMELINE_ROWS",
           "STACKED_TIMELINE_SHARE",
           "TIMELINE_WANTS_PX", "WIDE_PX", "PaneArrangement", "arrange_panes", "least_size", "orientation_for"]
