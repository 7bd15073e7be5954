"""Record an agent through a proxy, from the Servers panel: start and stop a recording proxy per server.

Below the list of servers, for the selected server (an address, not a command): **Record an agent
through a proxy** starts a :class:`~inspector.capture.proxy.ProxyServer` on 127.0.0.1 (any free
port) that forwards to the server; while it runs, the panel says so, shows the address to give the
agent (selectable, with Copy), counts the runs it recorded, and offers **Stop the proxy**. Runs go
to the window's database: the Runs tab shows them as they are written. Proxies stop with the window.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QLabel, QLineEdit, QMenu, QPushButton, QVBoxLayout, QWidget

from inspector.i18n import _, ngettext
from inspector.i18n.formatting import format_number
from inspector.i18n.messages import translate

from ..language import on_language_changed, translated
from ..widgets.wrapping_row import WrappingRow
from .servers_panel import ServersPanel

if TYPE_CHECKING:  # the proxy (uvicorn, the forwarding) loads when one is first started, not with the window
    from inspector.capture.proxy import ProxyServer


class _Relay(QObject):
    """Carries the writer thread's news to the GUI thread (queued)."""

    #: A run was stored: its server's URL, the run's number, title and status.
    recorded = Signal(str, int, str, str)
    problem = Signal(str, object)


class ProxyControls(QWidget):
    """Start/stop a recording proxy for the selected server; show its address and what it recorded."""

    #: A proxy started or stopped (its server's URL).
    changed = Signal(str)
    #: A proxy stored a run: its number, title and status (the status line names it as the last run).
    run_recorded = Signal(int, str, str)

    def __init__(self, panel: ServersPanel, db_path: Path, menu: QMenu | None = None) -> None:
        super().__init__()
        self.panel, self.db_path = panel, db_path
        self.proxies: dict[str, ProxyServer] = {}
        self._problems: dict[str, str] = {}
        self._relay = _Relay()
        self._relay.recorded.connect(self._recorded)
        self._relay.problem.connect(self._record_problem)
        # Short: the panel is narrow (its width decides the window's least width).
        self.start_button = translated(QPushButton(), "setText", lambda: _("Record an agent…"))
        translated(self.start_button, "setAccessibleName", lambda: _("Record an agent through a proxy"))
        translated(self.start_button, "setToolTip",
                   lambda: _("Start a proxy on this computer that forwards to the selected server and records "
                             "every operation an agent sends through it as a run"))
        self.start_button.clicked.connect(self.start_selected)
        self.state = QLabel()
        self.state.setTextFormat(Qt.TextFormat.PlainText)
        self.state.setWordWrap(True)
        translated(self.state, "setAccessibleName", lambda: _("Recording proxy"))
        self.address = QLineEdit()
        self.address.setReadOnly(True)
        translated(self.address, "setAccessibleName", lambda: _("Address for the agent"))
        self.copy_button = translated(QPushButton(), "setText", lambda: _("Copy"))
        translated(self.copy_button, "setAccessibleName", lambda: _("Copy the address for the agent"))
        self.copy_button.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.address.text()))
        self.stop_button = translated(QPushButton(), "setText", lambda: _("Stop the proxy"))
        self.stop_button.clicked.connect(self.stop_selected)
        # The address on a line of its own, the panel's whole width: beside Copy it had 136 of the 166 pixels
        # "http://127.0.0.1:34097/mcp" needs at 1024 px, and its port, what differs, was cut off.
        buttons = WrappingRow()  # one above the other where the panel is narrow (a large font)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.stop_button)
        self._address_row = QWidget()
        column = QVBoxLayout(self._address_row)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.address)
        column.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.start_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.state)
        layout.addWidget(self._address_row)
        panel.add_below_list(self)
        #: Server → Record an agent through a proxy (for the selected server).
        self.start_action = QAction(self)
        translated(self.start_action, "setText", lambda: _("Record an agent through a &proxy"))
        self.start_action.triggered.connect(self.start_selected)
        if menu is not None:
            menu.addAction(self.start_action)
        panel.server_selected.connect(lambda _record: self.refresh())
        on_language_changed(self, self.refresh)
        self.refresh()

    def _selected_url(self) -> str | None:
        record = self.panel.current()
        if record is None or record.transport == "stdio" or not record.url.startswith(("http://", "https://")):
            return None
        return record.url

    def refresh(self) -> None:
        """Show Start for a selected address with no proxy; its state, address and Stop while one runs."""
        url = self._selected_url()
        proxy = self.proxies.get(url) if url else None
        self.setVisible(url is not None)
        self.start_button.setVisible(url is not None and proxy is None)
        self.start_action.setEnabled(url is not None and proxy is None)
        self._address_row.setVisible(proxy is not None)  # with Copy and Stop
        if proxy is not None:
            count = proxy.recorded_count
            self.state.setText(ngettext(
                "Recording proxy running: give your agent this address. {count} run recorded so far.",
                "Recording proxy running: give your agent this address. {count} runs recorded so far.",
                count).format(count=format_number(count)))
            if self.address.text() != proxy.url:
                self.address.setText(proxy.url or "")
                self.address.setCursorPosition(0)  # the scheme and host first: the panel is narrow
                self.address.setToolTip(proxy.url or "")
        else:
            self.state.setText(self._problems.get(url or "", ""))
        self.state.setVisible(bool(self.state.text()))

    def start_selected(self) -> bool:
        """Start a proxy for the selected server (127.0.0.1, any free port); False when it could not start."""
        url = self._selected_url()
        if url is None or url in self.proxies:
            return False
        from inspector.capture.proxy import ProxyAddressError, ProxyServer

        record = self.panel.current()
        relay = self._relay
        proxy = ProxyServer(url, self.db_path, server_label=record.name if record is not None and record.name else url,
                            recorded=lambda run_id, run: relay.recorded.emit(url, run_id, run.title, run.status),
                            problem=lambda message: relay.problem.emit(url, message))
        try:
            proxy.start()
        except (ProxyAddressError, OSError) as exc:
            sentence = translate(exc.message) if isinstance(exc, ProxyAddressError) else str(exc)
            self._problems[url] = _("The proxy did not start: {reason}").format(reason=sentence)
            self.refresh()
            return False
        self._problems.pop(url, None)
        self.proxies[url] = proxy
        self.refresh()
        self.changed.emit(url)
        return True

    def stop_selected(self) -> None:
        url = self._selected_url()
        if url is not None:
            self.stop(url)

    def stop(self, url: str) -> None:
        """Stop the proxy for ``url`` (what it still holds is recorded)."""
        proxy = self.proxies.pop(url, None)
        if proxy is not None:
            proxy.stop()
            self.refresh()
            self.changed.emit(url)

    def stop_all(self) -> None:
        """The window closes: every proxy stops."""
        for url in list(self.proxies):
            self.stop(url)

    def _recorded(self, _url: str, run_id: int, title: str, status: str) -> None:
        self.refresh()
        self.run_recorded.emit(run_id, title, status)

    def _record_problem(self, url: str, message: object) -> None:
        self._problems[url] = translate(message)
        self.refresh()
