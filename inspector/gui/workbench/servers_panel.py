"""The Servers side panel: the configured servers, their health, add/edit/remove, Test connection."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import QItemSelectionModel, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListView,
    QMenu,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from inspector.i18n import _
from inspector.i18n.formatting import format_datetime, format_duration, format_time
from inspector.store import ServerRecord

from ..language import on_language_changed, translated
from ..widgets.elided_label import ElidedLabel
from ..widgets.fitted_scroll import FittedScroll
from ..widgets.tab_stops import chain_after, stops_in
from ..widgets.whole_row_list import WholeRowList
from ..widgets.wrapping_row import WrappingRow
from .servers_model import RecordRole, ServersModel, server_label, shown_health_line, unbroken
from .sparkline import Sparkline


class ServersPanel(QWidget):
    """Lists servers; says the selected one's health; asks the window to add, edit, remove, test."""

    server_selected = Signal(object)  # ServerRecord | None
    add_requested = Signal()
    edit_requested = Signal(object)
    remove_requested = Signal(object)
    test_requested = Signal(object)
    #: Show the Console (stderr) of a command server.
    console_requested = Signal(object)
    #: What :meth:`wanted_width` says may have changed (another server selected, or its name or address).
    wanted_width_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ServersModel()
        self._current_url: str | None = "(none yet)"
        #: Menu entries on the selected server, enabled as its buttons are (:meth:`follow_selection`).
        self._on_a_server: list[QAction] = []
        self._console: QAction | None = None
        title = translated(QLabel(), "setText", lambda: _("Servers"))
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        self.add_button = QToolButton()
        self.add_button.setText("+")
        translated(self.add_button, "setAccessibleName", lambda: _("Add server"))
        translated(self.add_button, "setToolTip", lambda: _("Add server"))
        self.add_button.clicked.connect(self.add_requested)
        head = QHBoxLayout()
        head.addWidget(title, 1)
        head.addWidget(self.add_button)
        self.view = WholeRowList()  # never lower than an entry's wrapped lines (four at 16 pt)
        self.view.setModel(self.model)
        translated(self.view, "setAccessibleName", lambda: _("Servers"))
        self.view.setAlternatingRowColors(True)
        # The counts under a name are longer than the panel is wide: wrap them rather than cut them
        # off behind a horizontal scroll bar ("0 failed · 0 canc").
        self.view.setWordWrap(True)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.selectionModel().currentChanged.connect(lambda current, _prev: self._selected())
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self.edit_button = translated(QPushButton(), "setText", lambda: _("Edit…"))
        translated(self.edit_button, "setAccessibleName", lambda: _("Edit server"))
        self.remove_button = translated(QPushButton(), "setText", lambda: _("Remove"))
        translated(self.remove_button, "setAccessibleName", lambda: _("Remove server"))
        self.test_button = translated(QPushButton(), "setText", lambda: _("Test connection"))
        self.edit_button.clicked.connect(lambda: self._ask(self.edit_requested))
        self.remove_button.clicked.connect(lambda: self._ask(self.remove_requested))
        self.test_button.clicked.connect(lambda: self._ask(self.test_requested))
        buttons = WrappingRow()  # one above the other where the panel is narrow (a large font)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.remove_button)
        # The selected server's name or address on a line of its own, shortened where it does not fit (the
        # whole as its tip): an address with a long token in it made the window 3,400 px wide.
        self.name_line = ElidedLabel()
        translated(self.name_line, "setAccessibleName", lambda: _("Server"))
        self.health = QLabel()
        self.health.setTextFormat(Qt.TextFormat.PlainText)
        self.health.setWordWrap(True)
        translated(self.health, "setAccessibleName", lambda: _("Server health"))
        self.sparkline = Sparkline()
        self.test_result = QLabel()
        self.test_result.setTextFormat(Qt.TextFormat.PlainText)
        self.test_result.setWordWrap(True)
        translated(self.test_result, "setAccessibleName", lambda: _("Connection test"))
        # Below the list: the selected server's controls and lines. Where the window is too low for
        # their wrapped words (720 pixels at 16 pt) they scroll rather than lie over each other.
        below = QWidget()
        self._below = QVBoxLayout(below)
        self._below.setContentsMargins(0, 0, 0, 0)
        self._below.addLayout(buttons)
        self._below.addWidget(self.test_button)
        self._below.addWidget(self.name_line)
        self._below.addWidget(self.health)
        self._below.addWidget(self.sparkline)
        self._below.addWidget(self.test_result)
        self.below = FittedScroll(below)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(head)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.below)
        self._selected()
        on_language_changed(self, self.retranslate)

    def retranslate(self) -> None:
        self._show_health(self.current())

    def wanted_width(self) -> int:
        """The panel's width that shows the selected server's name whole, or its address with only its middle
        shortened ("https://host/…/mcp"): where the window follows its width, the panel is no narrower."""
        if not self.name_line.isVisibleTo(self):
            return 0
        margins = self.layout().contentsMargins()
        return self.name_line.least_width() + margins.left() + margins.right() + 2 * self.below.frameWidth()

    def _show_health(self, record: ServerRecord | None) -> None:
        self.name_line.setVisible(record is not None)
        if record is None:
            self.health.setText(unbroken(_("No server selected. Add one with +.")))
            self.sparkline.set_values([])  # no latencies to draw: hidden (it drew a lone "—", or the last server's)
        else:
            name = server_label(record)
            self.name_line.set_text_shortening(name, *address_middle(name))
            self.health.setText(health_text(record))
        self.wanted_width_changed.emit()

    def set_records(self, records: list[ServerRecord], select_url: str | None = None, *,
                    select_first: bool = True) -> None:
        """List ``records``; select ``select_url``, else the one selected, else (``select_first``) the first."""
        current = select_url or (self.current().url if self.current() else None)
        self.model.set_records(records)
        row = self.model.row_of(current) if current else -1
        if row < 0 and records and select_first:
            row = 0
        if row >= 0:
            self.view.selectionModel().setCurrentIndex(self.model.index(row, 0),
                                                       QItemSelectionModel.SelectionFlag.ClearAndSelect)
        self._selected()

    def add_below_list(self, widget: QWidget) -> None:
        """Put a widget (e.g. the demo server's Start) right under the list of servers."""
        self._below.insertWidget(0, widget)
        chain_after(self.view, stops_in(widget))  # Tab reaches it where it is shown

    def current(self) -> ServerRecord | None:
        index = self.view.currentIndex()
        return index.data(RecordRole) if index.isValid() else None

    def show_latencies(self, values: list[float]) -> None:
        self.sparkline.set_values(values)

    def context_menu(self) -> QMenu:
        """Edit, Remove, Test connection and (for a command server) Console, for the selected server."""
        menu = QMenu(self)
        record = self.current()
        # Each with its Alt+letter, none shared (tests/gui/test_mnemonics.py).
        for text, signal in ((_("&Edit…"), self.edit_requested), (_("&Remove"), self.remove_requested),
                             (_("&Test connection"), self.test_requested)):
            menu.addAction(text, lambda signal=signal: self._ask(signal))
        console = menu.addAction(_("&Console"), lambda: self._ask(self.console_requested))
        command = record is not None and record.transport == "stdio"
        console.setEnabled(command)
        console.setToolTip(_("What the server writes on stderr") if command
                           else _("Only a server started as a command has a console (its stderr)"))
        menu.setToolTipsVisible(True)
        return menu

    def _context_menu(self, at: QPoint) -> None:
        if self.view.indexAt(at).isValid():
            self.context_menu().popup(self.view.viewport().mapToGlobal(at))

    def _ask(self, signal: Signal) -> None:
        record = self.current()
        if record is not None:
            signal.emit(record)

    def follow_selection(self, actions: list[QAction], console: QAction) -> None:
        """Enable ``actions`` (the Server menu's Edit, Remove, Test connection) while a server is selected, as
        its buttons are, and ``console`` while a command server is, as the list's context menu has it."""
        self._on_a_server, self._console = list(actions), console
        self._enable(self.current())

    def _enable(self, record: ServerRecord | None) -> None:
        for widget in (self.edit_button, self.remove_button, self.test_button, *self._on_a_server):
            widget.setEnabled(record is not None)
        if self._console is not None:
            self._console.setEnabled(record is not None and record.transport == "stdio")

    def _selected(self) -> None:
        record = self.current()
        self._enable(record)
        self._show_health(record)
        url = record.url if record is not None else None
        if url != self._current_url:
            # A refresh of the health (after every operation) is not a new selection.
            self._current_url = url
            self.test_result.setText("")
            self.server_selected.emit(record)


def address_middle(name: str) -> tuple[int, int]:
    """The part of a server's name or address shortened first where it does not fit: an address's path
    and query between its host and its last part ("https://host/…/mcp"), else the whole name."""
    host = name.find("/", name.find("://") + 3) if "://" in name else -1
    last = name.rfind("/")
    return (host + 1, last) if 0 <= host < last else (0, len(name))


def health_text(record: ServerRecord) -> str:
    """Last contact, last latency and the counts of one server, in words (its name is on a line above)."""
    if record.last_contact_at is None:
        # A failure to reach it or a cancel is no contact: below, its counts may say there were some.
        tried = record.ok_count + record.failed_count + record.cancelled_count
        contact = _("No operation got an answer from this server yet.") if tried else _("No completed operation yet.")
    else:
        local = record.last_contact_at.astimezone()
        same_day = local.date() == datetime.now().astimezone().date()
        when = format_time(local) if same_day else format_datetime(local, "short")
        contact = _("Last contact {when} (answered in {duration}).").format(
            when=when, duration=format_duration((record.last_latency_ms or 0) / 1000))
    return f"{unbroken(contact)}\n{shown_health_line(record)}"
