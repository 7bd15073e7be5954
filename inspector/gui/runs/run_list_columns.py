"""The Runs list's column widths: each column as wide as its heading and its usual words in the current language
(German words are longer); the title takes the room the others leave, never less than :data:`TITLE_FLOOR_PX`. In
a narrow window the others give way in turn: the status's reason first (a cell then says its failure's kind alone,
whose room the column keeps for the runs listed, or its word: :mod:`.outcome_cell`), then the duration's room
beyond the durations listed, then the server's beyond a usual server's name (the demo entry's, and a listed one
as long as the fresh demo server's: "Demo-Server (frisch)" stays whole at 1,024 px in German too), as far as
the title needs for a usual title (:data:`TITLE_KEPT_PX`). A title cut short is cut in its middle, its tooltip
whole."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QTableView

from inspector.i18n import _
from inspector.i18n.entry_names import DEMO_ENTRY_NAME
from inspector.i18n.run_cells import run_duration, unnamed_server
from inspector.i18n.scenarios import own_demo_server
from inspector.runs import RUN_SOURCES
from inspector.runs.replaying import OWN_DEMO_ORIGIN
from inspector.runs.status import PROXY_TITLE_MARK
from inspector.store.outbox import OutboxEntry

from ..widgets.middle_elided import MiddleElided
from ..widgets.outcomes import outcome_word
from .columns import RoomyColumn, column_width, fit_column, fit_columns
from .outcome_cell import OutcomeCellDelegate
from .push_marks import push_word
from .runs_model import COLUMNS, RunListModel, format_duration, format_started, source_word

#: The columns' least widths; :meth:`RunListColumns.fit` widens them for longer words (German).
#: The title takes the room left (see TITLE_FLOOR_PX); the server shows a name, so it needs less room
#: than an address.
RUN_WIDTHS = (40, 140, 200, 100, 70, 130, 50, 64, 60)
#: The title takes the room the other columns leave, never less than this: a narrow window scrolls
#: the list sideways rather than cut every title to a few letters.
TITLE_FLOOR_PX = 120
#: Before that, the server's name gives up room down to a usual name's width (:func:`server_floor`), at least
#: this (it is elided; its tooltip is whole).
SERVER_FLOOR_PX = 84
#: A failed run's status says why beside its word ("failed (2 of 4 tool calls failed)") where the title
#: keeps this much room (a usual title whole); else the kind of its failure or the status word alone, its
#: tooltip whole. The duration's and the server's columns give way to their floors too before the title is
#: narrower than this.
TITLE_KEPT_PX = 240
#: The widest duration of each length a duration's words have ("0.088 s", "9 min 59 s", "59 min 59 s", "9 h 59
#: min", "23 h 59 min"), from the least duration that says it so: the Duration column keeps the room of those up
#: to the longest run listed.
WIDEST_DURATIONS = ((0.0, 0.088), (60.0, 599.0), (600.0, 3599.0), (3600.0, 35940.0), (36000.0, 86340.0))

STATUS, SERVER, DURATION = COLUMNS.index("status"), COLUMNS.index("server"), COLUMNS.index("duration")


def status_words() -> list[str]:
    """The Status column's longest words without a reason, in the current language."""
    return [outcome_word(status) for status in ("interrupted", "cancelled", "failed")]


def duration_samples(longest: float | None) -> list[str]:
    """The widest durations a list whose longest run took ``longest`` seconds may say."""
    longest = longest or 0.0
    return [format_duration(widest) for least, widest in WIDEST_DURATIONS if longest >= least] + \
        [format_duration(longest)]


def server_floor(view: QTableView, listed: Iterable[str] = ()) -> int:
    """The least width of the Server column: its heading, and a usual server's name whole in the current language:
    the demo entry's, and each name ``listed`` no wider than the fresh demo server's that played scenarios name
    ("Demo-Server (frisch)" was cut at 1,024 px in German to give a title room; a longer name gives way)."""
    metrics = view.fontMetrics()
    usual = metrics.horizontalAdvance(own_demo_server(OWN_DEMO_ORIGIN) or "")
    names = [_(DEMO_ENTRY_NAME), *(name for name in listed if metrics.horizontalAdvance(name) <= usual)]
    return column_width(view, SERVER, SERVER_FLOOR_PX, names, sortable=True)


class RunListColumns(QObject):
    """The widths of the Runs list's columns (``view`` showing ``model``), fitted to the current language's
    words (:meth:`fit`) and to the reasons and durations of the runs listed (:meth:`fit_listed`). A child of
    ``view``: the model's signals no longer reach it once the view is gone."""

    def __init__(self, view: QTableView, model: RunListModel) -> None:
        super().__init__(view)
        self.view, self.model = view, model
        for column, width in enumerate(RUN_WIDTHS):
            view.setColumnWidth(column, width)
        # The status's reason gives way first (to its failure's kind or its word alone), then the duration's room
        # beyond the durations listed, then the server's name, each as far as a usual title needs (at 1,024 px in
        # German the title had its floor, "invoke_agent sup…", beside a server column wider than its name).
        title = COLUMNS.index("title")
        self._title_room = RoomyColumn(view, title, TITLE_FLOOR_PX,
                                       {STATUS: RUN_WIDTHS[STATUS], DURATION: RUN_WIDTHS[DURATION],
                                        SERVER: SERVER_FLOOR_PX},
                                       dict.fromkeys((STATUS, DURATION, SERVER), TITLE_KEPT_PX))
        view.setItemDelegateForColumn(STATUS, OutcomeCellDelegate(view))
        # Both ends of a title cut short (a proxied call's tool before the proxy's mark); its tooltip whole.
        view.setItemDelegateForColumn(title, MiddleElided(view, PROXY_TITLE_MARK))
        #: The reasons the Status column was last widened to (in the language then).
        self._fitted_reasons: list[str] = []
        #: The listed runs' server names the Server column's floor was last set for.
        self._fitted_servers: set[str] = set()
        #: The longest run listed when the Duration column's floor was last set, and of which records.
        self._longest: tuple[object, float | None] = (None, None)

    def fit(self) -> None:
        """Columns wide enough for their heading and their longest usual word in the current language."""
        view, model = self.view, self.model
        words = status_words()
        self._fitted_reasons = model.reason_texts()
        fit_columns(view, RUN_WIDTHS, {
            COLUMNS.index("started"): model.zone_marks.samples(lambda at: format_started(at, UTC)),
            STATUS: words + self._fitted_reasons,
            COLUMNS.index("source"): [source_word(s) for s in RUN_SOURCES],
            SERVER: [own_demo_server(OWN_DEMO_ORIGIN) or "", unnamed_server()],
            COLUMNS.index("steps"): ["100,000"], DURATION: [format_duration(3599)],
            COLUMNS.index("pushed"): [push_word(OutboxEntry(0, 0, "", state, 0, None, None, reason))
                                      for state, reason in (("queued", ""), ("sent", ""), ("sent", "in part"),
                                                            ("failed", ""))]},
            sortable=True, icons=(STATUS,))
        self._fitted_servers = model.server_texts()
        self._title_room.set_floors({STATUS: self._status_floor(), DURATION: self._duration_floor(),
                                     SERVER: server_floor(view, self._fitted_servers)})

    def fit_listed(self) -> None:
        """The Status column as wide as the reasons listed now say them, where the title has the room
        (:data:`TITLE_KEPT_PX`), and the Duration column's floor the longest run listed's; each read again only
        when they are other reasons, or another longest run."""
        reasons = self.model.reason_texts()
        floors = {}
        if reasons != self._fitted_reasons:
            self._fitted_reasons = reasons
            fit_column(self.view, STATUS, RUN_WIDTHS[STATUS], status_words() + reasons, sortable=True, icon=True)
            floors[STATUS] = self._status_floor()
        servers = self.model.server_texts()
        if servers != self._fitted_servers:
            self._fitted_servers = servers
            floors[SERVER] = server_floor(self.view, servers)
        before = self._longest[1]
        if self._longest_listed() != before:
            floors[DURATION] = self._duration_floor()
        if floors:
            self._title_room.set_floors(floors)

    def _status_floor(self) -> int:
        """The Status column's least width: its heading, its words, and the reasons of the runs listed in their fewest
        words ("Zeitüberschreitung" beside the failed icon; narrower, the cell said "fehlgeschlagen" alone)."""
        return column_width(self.view, STATUS, RUN_WIDTHS[STATUS], status_words() + self.model.short_reasons(),
                            sortable=True, icon=True)

    def _longest_listed(self) -> float | None:
        """How long the longest run whose record the list read took (seconds; ``None``: none read)."""
        runs = self.model.records.held.runs  # replaced, never changed in place: the longest is found once for it
        if self._longest[0] is not runs:
            self._longest = (runs, max((run_duration(run) or 0.0 for run in runs.values()), default=None))
        return self._longest[1]

    def _duration_floor(self) -> int:
        """The Duration column's least width: its heading, and the durations of the runs listed whole."""
        return column_width(self.view, DURATION, RUN_WIDTHS[DURATION], duration_samples(self._longest_listed()),
                            sortable=True)


__all__ = ["RUN_WIDTHS", "SERVER_FLOOR_PX", "TITLE_FLOOR_PX", "TITLE_KEPT_PX", "RunListColumns", "duration_samples",
           "server_floor", "status_words"]
